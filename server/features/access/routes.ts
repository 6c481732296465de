import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  accessResponseSchema,
  codeCheckResponseSchema,
  redeemCodeRequestSchema,
} from '../../../domain/access-codes'
import { apiErrorSchema } from '../../../domain/api'
import { clientKey } from '../../plugins/rate-limit'
import { accessOf, checkCode, redeemCode } from './service'

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

  app.post(
    '/access-codes/check',
    {
      config: { public: true },
      schema: {
        tags: ['access'],
        summary: 'Whether an invitation code can still be used (for the sign-up page)',
        body: redeemCodeRequestSchema,
        response: { 200: codeCheckResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      // Answers tell a real code from a made-up one: as limited as any other secret check.
      await app.rateLimiter.consume(`code-check:ip:${clientKey(request.ip)}`, {
        limit: 20,
        windowMs: 15 * 60_000,
      })
      return { status: await checkCode(app.db, request.body.code) }
    },
  )
}
