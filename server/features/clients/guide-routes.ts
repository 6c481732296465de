import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { apiErrorSchema } from '../../../domain/api'
import { LANGUAGES } from '../../../domain/i18n'
import { requestLanguage } from '../../i18n'
import { GUIDES, guideFileName, renderGuidePdf } from './guides'

const guideParamsSchema = z.object({ guide: z.enum(GUIDES) })
// The screen's language: a link opened in a new tab carries the browser's Accept-Language,
// which is not the language the user chose in the app.
const guideQuerySchema = z.object({ lang: z.optional(z.enum(LANGUAGES)) })

/**
 * The guides do not change while the server runs, but they differ by language: the browser may
 * keep each one for an hour, for this user only, under the language it was asked in.
 */
const GUIDE_CACHE = 'private, max-age=3600'

/**
 * The scan guides behind the '?' button of the aura and chakra screens (spec scans §2). Any
 * signed-in user may read them: they explain the screens and are not paid content.
 */
export const guideRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/guides/:guide',
    {
      schema: {
        tags: ['clients'],
        summary: 'The aura or chakra scan guide as a PDF, in `lang` or the requested language',
        params: guideParamsSchema,
        querystring: guideQuerySchema,
        response: { 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await app.requireUser(request)
      const { guide } = request.params
      const language = request.query.lang ?? requestLanguage(request)
      const pdf = await renderGuidePdf(guide, language)
      // The bytes go as they are; the response schemas above describe only the error bodies.
      return reply
        .header('cache-control', GUIDE_CACHE)
        .header('vary', 'accept-language')
        .header('content-disposition', `inline; filename="${guideFileName(guide, language)}"`)
        .type('application/pdf')
        .send(pdf as never)
    },
  )
}
