import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { apiErrorSchema } from '../../../domain/api'

const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) })

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Read by @fastify/under-pressure instead of its own handler for this route. */
    pressureHandler?: () => void
  }
}

/** Liveness (the process answers) and readiness (the database answers). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      // Liveness answers even under pressure: a busy process is alive, and a restart would only
      // throw its work away. Readiness (/readyz) says 503 then, so traffic goes elsewhere.
      config: { pressureHandler: () => {} },
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
        summary: 'The database answers, and the shared Redis when REDIS_URL is set',
        // 503 also when the process is overloaded, with the shared error body then.
        response: { 200: healthSchema, 503: z.union([healthSchema, apiErrorSchema]) },
      },
    },
    async (request, reply) => {
      // Shutting down: it still answers what reaches it, but nothing more should come.
      if (app.shuttingDown()) return reply.code(503).send({ status: 'unavailable' as const })
      // Without Redis (when set) sign-in, sessions and limits cannot work: not ready either.
      if (!app.cache.ready() || !app.rateLimiter.ready()) {
        request.log.warn('not ready: Redis (REDIS_URL) cannot be reached')
        return reply.code(503).send({ status: 'unavailable' as const })
      }
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
