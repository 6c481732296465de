import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema, okResponseSchema } from '../../../domain/api'
import { supportMailRequestSchema } from '../../../domain/support'
import { sendSupportMail, supportDeps } from './service'

/** Support mail from a signed-in member (spec scans §2 Send mail, §3 Support mail). */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = supportDeps(app)

  app.post(
    '/support/mail',
    {
      schema: {
        tags: ['support'],
        summary: 'Send a message to the support team; the member gets a copy',
        body: supportMailRequestSchema,
        response: {
          200: okResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      await sendSupportMail(deps, user, request.body)
      reply.header('cache-control', 'no-store')
      return { ok: true as const }
    },
  )
}
