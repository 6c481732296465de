import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import { auditPageSchema, auditQuerySchema } from '../../../domain/operators'
import { AppError } from '../../errors'
import { auditPage } from './audit'
import { consoleState } from './second-factor'

const refusals = { 400: apiErrorSchema, 403: apiErrorSchema }

/**
 * The console's API, under /api/admin/. Every route answers 403 to anyone but an operator who
 * passed the second factor in this session (ADR 0029), visitors included, before its input is
 * read: the guard is this plugin's own hook, not each route's to remember.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRoute', (route) => {
    // The guard below answers visitors too, with the same 403 as everyone it refuses.
    route.config = { ...route.config, public: true }
  })
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const [user, sessionId] = await Promise.all([app.getUser(request), app.getSessionId(request)])
    const state = user && sessionId ? await consoleState(app.db, user.id, sessionId) : null
    if (!state?.operator) throw new AppError(403, 'operators.notOperator')
    if (!state.passed) throw new AppError(403, 'operators.factorRequired')
  })

  app.get(
    '/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first: what operators changed, on whom, from what to what',
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...refusals },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      return auditPage(app.db, request.query)
    },
  )
}
