import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import {
  affirmationsResponseSchema,
  panelDetailSchema,
  panelListResponseSchema,
  panelParamsSchema,
} from '../../../domain/panels'
import { requestLanguage } from '../../i18n'
import { getPanel, listAffirmations, listPanels } from './service'

/**
 * The texts change only with a new release (the seeds): browsers may keep them for an hour and
 * then check again. They differ by the Accept-Language they were asked in.
 */
const CONTENT_CACHE = 'public, max-age=3600'

export const panelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode === 200 && request.method === 'GET') {
      reply.header('cache-control', CONTENT_CACHE).header('vary', 'accept-language')
    }
  })

  app.get(
    '/panels',
    {
      config: { public: true },
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
      config: { public: true },
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
      config: { public: true },
      schema: {
        tags: ['panels'],
        summary: 'The nine affirmations shown during every session (free to read)',
        response: { 200: affirmationsResponseSchema },
      },
    },
    async (request) => ({ affirmations: await listAffirmations(app.db, requestLanguage(request)) }),
  )
}
