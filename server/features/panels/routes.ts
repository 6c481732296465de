import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { okResponseSchema } from '../../../domain/account'
import {
  affirmationsResponseSchema,
  panelDetailSchema,
  panelListResponseSchema,
  panelParamsSchema,
  recentSessionsResponseSchema,
  sessionContentSchema,
  sessionParamsSchema,
  startSessionRequestSchema,
} from '../../../domain/panels'
import { apiErrorSchema } from '../../errors'
import { requestLanguage } from '../../i18n'
import {
  completeSession,
  getPanel,
  listAffirmations,
  listPanels,
  recentSessions,
  startSession,
} from './service'

export const panelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/panels',
    {
      schema: {
        tags: ['panels'],
        summary: 'The themed panels, in the requested language (free to read)',
        response: { 200: panelListResponseSchema },
      },
    },
    async (request) => ({ panels: await listPanels(app.db, requestLanguage(request)) }),
  )

  app.get(
    '/panels/:id',
    {
      schema: {
        tags: ['panels'],
        summary: 'One panel with its info and ingredients (free to read)',
        params: panelParamsSchema,
        response: { 200: panelDetailSchema, 404: apiErrorSchema },
      },
    },
    async (request) => getPanel(app.db, request.params.id, requestLanguage(request)),
  )

  app.get(
    '/affirmations',
    {
      schema: {
        tags: ['panels'],
        summary: 'The nine affirmations shown during every session (free to read)',
        response: { 200: affirmationsResponseSchema },
      },
    },
    async (request) => ({ affirmations: await listAffirmations(app.db, requestLanguage(request)) }),
  )

  app.post(
    '/harmonize/sessions',
    {
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
