import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { textSchema } from '../../../domain/text'
import { packBackup } from '../../backup'
import { AppError, sendError } from '../../errors'
import { requestLanguage, translate } from '../../i18n'
import { isLocalRequest } from '../../plugins/local-only'
import { billingDepsOf } from '../billing/public'
import {
  OPERATOR_FILE_LIMIT,
  type OperationName,
  type OperatorDeps,
  type OperatorOperation,
  operationPath,
  operatorOperations,
} from './operations'

function isOperator(request: FastifyRequest, token: string): boolean {
  // Only a tool on this machine holding the token from DATA_DIR, never through a proxy.
  if (!isLocalRequest(request)) return false
  const given = Buffer.from(String(request.headers.authorization ?? '').replace(/^Bearer /, ''))
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * Every operator operation (./operations.ts) as `POST /api/operator/{group}/{action}`: what the
 * operator command (`npm run cli`) does through a running server, because the embedded
 * database accepts one process at a time. Hidden from the public API document.
 */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  // The token below is the permission here, not a user's session.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true }
  })
  app.addHook('onRequest', async (request, reply) => {
    if (!isOperator(request, app.secrets.cliToken)) {
      return sendError(request, reply, 404, translate('errors.notFound', requestLanguage(request)))
    }
  })

  // The file's bytes are the body; this parser lives only in this (encapsulated) plugin.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: OPERATOR_FILE_LIMIT },
    async (_request: FastifyRequest, body: Buffer) => body,
  )

  const deps: OperatorDeps = {
    db: app.db,
    executeSql: app.database.executeSql,
    storage: app.storage,
    payments: app.payments,
    afterSync: billingDepsOf(app).afterSync,
  }
  // Each route checks its operation's own input and output schemas, so the loop may see
  // every operation as one general kind.
  for (const [name, operation] of Object.entries(operatorOperations) as [
    OperationName,
    OperatorOperation<z.ZodMiniType, z.ZodMiniType>,
  ][]) {
    if (operation.takesFile) {
      // The bytes are the body, so the input travels as JSON in the query string.
      app.post(
        operationPath(name),
        {
          bodyLimit: OPERATOR_FILE_LIMIT,
          schema: {
            hide: true,
            querystring: z.object({ input: textSchema().check(z.maxLength(2000)) }),
            response: { 200: operation.output },
          },
        },
        async (request) => {
          const input = operation.input.safeParse(parseJson(request.query.input))
          if (!input.success) throw new AppError(400, 'errors.badRequest')
          return operation.run(
            deps,
            input.data,
            Buffer.isBuffer(request.body) ? request.body : undefined,
          )
        },
      )
    } else {
      app.post(
        operationPath(name),
        { schema: { hide: true, body: operation.input, response: { 200: operation.output } } },
        async (request) => operation.run(deps, request.body),
      )
    }
  }

  // `npm run cli -- backup FILE` while this server holds the embedded database: the copy is
  // taken here, between two statements, and streamed to the command.
  app.post('/backup', { schema: { hide: true } }, async (_request, reply) => {
    const dump = app.database.dumpData
    if (!dump) throw new AppError(404, 'errors.notFound')
    const backup = packBackup(await dump(), app.secrets)
    return reply.type('application/octet-stream').send(backup)
  })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
