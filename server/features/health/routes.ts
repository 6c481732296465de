import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) })

/** Liveness (the process answers) and readiness (the database answers). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'The process is up',
        response: { 200: healthSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  )

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'The database answers',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      try {
        await app.database.ping()
        return { status: 'ok' as const }
      } catch (error) {
        request.log.error({ err: error }, 'readiness check failed')
        return reply.code(503).send({ status: 'unavailable' as const })
      }
    },
  )
}
