import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { createCodesRequestSchema, operatorCodeSchema } from '../../../domain/access-codes'
import { operatorMediaSchema } from '../../../domain/media'
import { sendError } from '../../errors'
import { requestLanguage, translate } from '../../i18n'
import { createCodes, listCodes, revokeCode } from '../access/service'
import { addMedia, listMedia, removeMedia } from '../panels/media'

/** Media files arrive whole in one request; videos can be large. */
const MEDIA_BODY_LIMIT = 200 * 1024 * 1024

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

function isOperator(request: FastifyRequest, token: string): boolean {
  // Only a tool on this machine holding the token from DATA_DIR, never through a proxy.
  if (!LOOPBACK.test(request.socket.remoteAddress ?? '')) return false
  if (request.headers['x-forwarded-for'] || request.headers.forwarded) return false
  const given = Buffer.from(String(request.headers.authorization ?? '').replace(/^Bearer /, ''))
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * What the operator command (`npm run cli`) does through a running server, because the embedded
 * database accepts one process at a time. Hidden from the public API document.
 */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    if (!isOperator(request, app.secrets.cliToken)) {
      return sendError(request, reply, 404, translate('errors.notFound', requestLanguage(request)))
    }
  })

  app.post(
    '/codes',
    {
      schema: {
        hide: true,
        body: createCodesRequestSchema,
        response: { 200: z.object({ codes: z.array(z.string()) }) },
      },
    },
    async (request) => ({
      codes: await createCodes(app.db, request.body.count ?? 1, request.body.note),
    }),
  )

  app.get(
    '/codes',
    { schema: { hide: true, response: { 200: z.object({ codes: z.array(operatorCodeSchema) }) } } },
    async () => ({ codes: await listCodes(app.db) }),
  )

  app.post(
    '/codes/:code/revoke',
    {
      schema: {
        hide: true,
        params: z.object({ code: z.string() }),
        response: { 200: z.object({ revoked: z.boolean() }) },
      },
    },
    async (request) => ({ revoked: await revokeCode(app.db, request.params.code) }),
  )

  // The file's bytes are the body; this parser lives only in this (encapsulated) plugin.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: MEDIA_BODY_LIMIT },
    async (_request: FastifyRequest, body: Buffer) => body,
  )

  app.post(
    '/media',
    {
      bodyLimit: MEDIA_BODY_LIMIT,
      schema: {
        hide: true,
        querystring: z.object({
          name: z.string().check(z.minLength(1)),
          panelId: z.optional(z.string().check(z.regex(/^\d{2}$/))),
          backing: z.optional(z.enum(['true', 'false'])),
        }),
        response: { 200: z.object({ media: operatorMediaSchema }) },
      },
    },
    async (request) => ({
      media: await addMedia(app.db, app.storage, {
        name: request.query.name,
        data: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        panelId: request.query.panelId ?? null,
        backing: request.query.backing === 'true',
      }),
    }),
  )

  app.get(
    '/media',
    {
      schema: { hide: true, response: { 200: z.object({ media: z.array(operatorMediaSchema) }) } },
    },
    async () => ({ media: await listMedia(app.db) }),
  )

  app.post(
    '/media/remove',
    {
      schema: {
        hide: true,
        body: z.object({ key: z.string() }),
        response: { 200: z.object({ removed: z.boolean() }) },
      },
    },
    async (request) => ({ removed: await removeMedia(app.db, app.storage, request.body.key) }),
  )
}
