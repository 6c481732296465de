import type { FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'

/**
 * Requests are validated and responses checked against the routes' zod schemas, through
 * fastify-type-provider-zod's public compilers: keys a response schema does not name are dropped,
 * and a wrong shape is a 500 instead of a leak. (ADR 0013 recorded a serializer of our own that
 * read zod's internal definitions to skip a pass; on Node 24 the library's costs too little to
 * keep it: docs/decisions/0020-public-apis-on-node-24.md.)
 */
export function setZodCompilers(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
}
