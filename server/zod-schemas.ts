import type { FastifySerializerCompiler } from 'fastify'
import { ResponseSerializationError } from 'fastify-type-provider-zod'
import { $ZodType, type $ZodTypes, safeEncode, safeParse } from 'zod/v4/core'

/** Schemas whose check reads a value the same way whichever direction it runs. */
const LEAVES = new Set<string>([
  'any',
  'bigint',
  'boolean',
  'custom',
  'date',
  'enum',
  'int',
  'literal',
  'nan',
  'never',
  'null',
  'number',
  'string',
  'symbol',
  'template_literal',
  'undefined',
  'unknown',
  'void',
])

/**
 * Whether parsing forwards gives what encoding gives: true when no part of the schema can
 * change a value on its way (no pipe, transform, codec, default or catch). Anything this does
 * not know, a lazy schema among them, counts as changing.
 */
export function readsTheSameBothWays(schema: $ZodType): boolean {
  const def = (schema as $ZodTypes)._zod.def
  if (LEAVES.has(def.type)) return true
  const all = (parts: readonly $ZodType[]) => parts.every(readsTheSameBothWays)
  switch (def.type) {
    case 'object':
      return all(Object.values(def.shape)) && (!def.catchall || readsTheSameBothWays(def.catchall))
    case 'array':
      return readsTheSameBothWays(def.element)
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'nonoptional':
      return readsTheSameBothWays(def.innerType)
    case 'union':
      return all(def.options)
    case 'intersection':
      return all([def.left, def.right])
    case 'record':
      return all([def.keyType, def.valueType])
    case 'tuple':
      return all(def.items) && (!def.rest || readsTheSameBothWays(def.rest))
    default:
      return false
  }
}

/**
 * Every response is checked against its zod schema before it is sent: keys the schema does not
 * name are dropped, and a wrong shape is a 500 instead of a leak. fastify-type-provider-zod
 * encodes (zod's backward direction), right for codecs and transforms but a canary pass more
 * over every value, about a tenth of a cached read's CPU. A schema without them is parsed
 * forwards instead, which gives the same value.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof $ZodType))
    throw new Error(`${method} ${url}: a response schema must be zod`)
  const check = readsTheSameBothWays(schema) ? safeParse : safeEncode
  return (data: unknown) => {
    const result = check(schema, data)
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error })
    return JSON.stringify(result.data)
  }
}
