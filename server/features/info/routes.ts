import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import {
  infoContactResponseSchema,
  infoGuideParamsSchema,
  infoGuideQuerySchema,
} from '../../../domain/info'
import { infoGuideFileName, renderInfoGuidePdf } from './guides'

/**
 * The guides differ by language and the language can come from the account, so the browser
 * keeps each one for an hour, for this user only; the page names its language in `?lang=`, so
 * a new choice is a new address.
 */
const GUIDE_CACHE = 'private, max-age=3600'

/**
 * What the information pages need from the server (spec core §2, scans §2 How-To). Like the
 * pages, they are for signed-in users, and they are not paid content.
 */
export const infoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/info/guides/:guide',
    {
      schema: {
        tags: ['info'],
        summary: "The How-To page's 'Sign Up Guide' or 'Trouble Shooting' as a PDF",
        description:
          'In the language named by `lang` (the page’s), else in the account’s language.',
        params: infoGuideParamsSchema,
        querystring: infoGuideQuerySchema,
        response: { 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const { guide } = request.params
      // The page the link sits on knows best what the person is reading in (its choice may
      // not have reached the account yet, e.g. offline); the account's language covers a link
      // opened on its own. A signed-in user always has one, so Accept-Language is not needed.
      const language = request.query.lang ?? user.language
      const pdf = await renderInfoGuidePdf(guide, language)
      // The bytes go as they are; the response schemas above describe only the error bodies.
      return reply
        .header('cache-control', GUIDE_CACHE)
        .header('vary', 'cookie')
        .header('content-disposition', `inline; filename="${infoGuideFileName(guide, language)}"`)
        .type('application/pdf')
        .send(pdf as never)
    },
  )

  app.get(
    '/info/contact',
    {
      // The privacy policy names it, and a visitor reads that policy before signing up.
      config: { public: true },
      schema: {
        tags: ['info'],
        summary: 'Where questions about the service and personal data go (the privacy policy)',
        response: { 200: infoContactResponseSchema },
      },
    },
    async () => ({ supportEmail: app.config.SUPPORT_EMAIL }),
  )
}
