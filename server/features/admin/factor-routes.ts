import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import {
  factorCodeRequestSchema,
  factorSetUpSchema,
  factorStatusSchema,
  recoveryCodesSchema,
} from '../../../domain/operators'
import { AppError } from '../../errors'
import { clientKey } from '../../plugins/rate-limit'
import {
  confirmSetUp,
  type FactorUser,
  factorKey,
  factorStatus,
  isOperator,
  passSecondFactor,
  startSetUp,
} from './second-factor'

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
}
const CODE_TRIES = { limit: 5, windowMs: 15 * 60_000 }

/**
 * The operator's second factor (ADR 0029): its set-up and its check, for operators only, and
 * outside /api/admin/, which answers only once it is passed.
 */
export const factorRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = factorKey(app.secrets.authSecret)

  /** The operator asking, in their session; 403 for anyone else. */
  async function operatorOf(request: FastifyRequest): Promise<FactorUser & { sessionId: string }> {
    const user = await app.requireUser(request)
    const sessionId = await app.getSessionId(request)
    if (!sessionId || !(await isOperator(app.db, user.id))) {
      throw new AppError(403, 'operators.notOperator')
    }
    return { id: user.id, email: user.email, sessionId }
  }

  /** A code is a secret checked: 5 tries per operator and per address in 15 minutes. */
  async function countTry(request: FastifyRequest, operator: FactorUser) {
    await app.rateLimiter.consume(`factor:user:${operator.id}`, CODE_TRIES)
    await app.rateLimiter.consume(`factor:ip:${clientKey(request.ip)}`, CODE_TRIES)
  }

  app.get(
    '/operator-factor',
    {
      schema: {
        tags: ['operators'],
        summary: 'Whether the operator has set up the second factor, and passed it in this session',
        response: { 200: factorStatusSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const operator = await operatorOf(request)
      reply.header('cache-control', 'no-store')
      return factorStatus(app.db, operator.id, operator.sessionId)
    },
  )

  app.post(
    '/operator-factor/set-up',
    {
      schema: {
        tags: ['operators'],
        summary: 'A new authenticator key, as a link for a QR code and as text',
        response: { 200: factorSetUpSchema, ...errors },
      },
    },
    async (request, reply) => {
      const operator = await operatorOf(request)
      reply.header('cache-control', 'no-store')
      return startSetUp(app.db, key, operator)
    },
  )

  app.post(
    '/operator-factor/set-up/confirm',
    {
      schema: {
        tags: ['operators'],
        summary:
          'Confirms the new authenticator with a code from it; answers the recovery codes, once',
        body: factorCodeRequestSchema,
        response: { 200: recoveryCodesSchema, ...errors },
      },
    },
    async (request, reply) => {
      const operator = await operatorOf(request)
      await countTry(request, operator)
      reply.header('cache-control', 'no-store')
      return confirmSetUp(app.db, key, operator, operator.sessionId, request.body.code)
    },
  )

  app.post(
    '/operator-factor/verify',
    {
      schema: {
        tags: ['operators'],
        summary: 'Passes the second factor for this session with a code or a recovery code',
        body: factorCodeRequestSchema,
        response: { 200: factorStatusSchema, ...errors },
      },
    },
    async (request) => {
      const operator = await operatorOf(request)
      await countTry(request, operator)
      await passSecondFactor(app.db, key, operator, operator.sessionId, request.body.code)
      return factorStatus(app.db, operator.id, operator.sessionId)
    },
  )
}
