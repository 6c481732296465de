import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import {
  type FactorStatus,
  factorCodeRequestSchema,
  factorSetUpRequestSchema,
  factorSetUpSchema,
  factorStatusSchema,
  recoveryCodesSchema,
} from '../../../domain/operators'
import { AppError } from '../../errors'
import { clientKey } from '../../plugins/rate-limit'
import {
  confirmSetUp,
  consoleState,
  type FactorUser,
  factorKeys,
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
const TRIES = { limit: 5, windowMs: 15 * 60_000 }

/**
 * The operator's second factor (ADR 0029): its set-up and its check, for operators only, and
 * outside /api/admin/, which answers only once it is passed.
 */
export const factorRoutes: FastifyPluginAsyncZod = async (app) => {
  const keys = factorKeys(app.secrets.authSecret)

  /** The operator asking, in their session, and where they stand; 403 for anyone else. */
  async function operatorOf(
    request: FastifyRequest,
  ): Promise<FactorUser & { sessionId: string; status: FactorStatus }> {
    const user = await app.requireUser(request)
    const sessionId = await app.getSessionId(request)
    const state = sessionId ? await consoleState(app.db, user.id, sessionId) : null
    if (!sessionId || !state?.operator) throw new AppError(403, 'operators.notOperator')
    const status = { enrolled: state.enrolled, passed: state.passed }
    return { id: user.id, email: user.email, sessionId, status }
  }

  /**
   * A code or a password is a secret checked: 5 tries of each per operator and per address in
   * 15 minutes, counted before the check so that requests sent at once cannot pass the limit.
   * A right one gives the tries back, as a sign-in does: operators sharing an office's address
   * are not locked out by each other's daily codes, and guessing still meets the limit (another
   * operator's right code does not reset the operator being guessed). A refused one is logged,
   * so whoever runs the server can see guessing.
   */
  async function checked<T>(
    request: FastifyRequest,
    operator: FactorUser,
    what: 'code' | 'password',
    check: () => Promise<T>,
  ) {
    const keys = [
      `factor-${what}:user:${operator.id}`,
      `factor-${what}:ip:${clientKey(request.ip)}`,
    ]
    for (const key of keys) await app.rateLimiter.consume(key, TRIES)
    try {
      const passed = await check()
      await Promise.all(keys.map((key) => app.rateLimiter.reset(key)))
      return passed
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 400) {
        request.log.warn(
          { operator: operator.id, refused: error.messageKey },
          'operator factor refused',
        )
      }
      throw error
    }
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
      return operator.status
    },
  )

  app.post(
    '/operator-factor/set-up',
    {
      schema: {
        tags: ['operators'],
        summary: 'A new authenticator key, as a link for a QR code and as text (password again)',
        body: factorSetUpRequestSchema,
        response: { 200: factorSetUpSchema, ...errors },
      },
    },
    async (request, reply) => {
      const operator = await operatorOf(request)
      reply.header('cache-control', 'no-store')
      return checked(request, operator, 'password', () =>
        startSetUp(app.db, keys, operator, request.body.password),
      )
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
      reply.header('cache-control', 'no-store')
      return checked(request, operator, 'code', () =>
        confirmSetUp(app.db, keys, operator, operator.sessionId, request.body.code),
      )
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
      await checked(request, operator, 'code', () =>
        passSecondFactor(app.db, keys, operator, operator.sessionId, request.body.code),
      )
      // Passing needs a confirmed authenticator: both are true now.
      return { enrolled: true, passed: true }
    },
  )
}
