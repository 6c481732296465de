import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { accessResponseSchema, redeemCodeRequestSchema } from '../../../domain/access-codes'
import { apiErrorSchema } from '../../errors'
import { accessOf, redeemCode } from './service'

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema }

export const accessRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/access',
    {
      schema: {
        tags: ['access'],
        summary: 'Whether the signed-in user may harmonize, and the payment story to show',
        response: { 200: accessResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return accessOf(app.db, user.id)
    },
  )

  app.post(
    '/account/access-code',
    {
      schema: {
        tags: ['access'],
        summary: 'Redeem an access code',
        body: redeemCodeRequestSchema,
        response: { 200: accessResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      // Guessing codes is checking a secret: limit it per account.
      await app.rateLimiter.consume(`redeem:${user.id}`, { limit: 10, windowMs: 15 * 60_000 })
      await redeemCode(app.db, user.id, request.body.code)
      return accessOf(app.db, user.id)
    },
  )
}
