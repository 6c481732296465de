import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema, okResponseSchema } from '../../../domain/api'
import {
  recentSessionsResponseSchema,
  sessionContentSchema,
  sessionParamsSchema,
  startSessionRequestSchema,
} from '../../../domain/harmonize'
import { requestLanguage } from '../../i18n'
import { completeSession, recentSessions, startSession } from './service'

export const harmonizeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/harmonize/sessions',
    {
      config: { paid: true },
      schema: {
        tags: ['harmonize'],
        summary: 'Start a harmonizing session (402 without access)',
        body: startSessionRequestSchema,
        response: {
          200: sessionContentSchema,
          401: apiErrorSchema,
          402: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return startSession(app.db, user.id, request.body.panelId, requestLanguage(request))
    },
  )

  app.post(
    '/harmonize/sessions/:id/complete',
    {
      schema: {
        tags: ['harmonize'],
        summary: 'Mark a session as completed',
        params: sessionParamsSchema,
        response: { 200: okResponseSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      await completeSession(app.db, user.id, request.params.id)
      return { ok: true as const }
    },
  )

  app.get(
    '/harmonize/sessions',
    {
      schema: {
        tags: ['harmonize'],
        summary: "The signed-in user's recent sessions",
        response: { 200: recentSessionsResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return { sessions: await recentSessions(app.db, user.id, requestLanguage(request)) }
    },
  )
}
