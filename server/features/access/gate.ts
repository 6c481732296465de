import fp from 'fastify-plugin'
import { AppError } from '../../errors'
import { accessOf } from './service'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route serves paid content: without access (spec core §4) it answers 402
     * 'Sorry, no payment found yet.' before its handler runs.
     */
    paid?: boolean
  }
}

/**
 * The one access gate. A route opts in with `config: { paid: true }`; the rule itself is
 * `hasAccess` in domain/access.ts, fed from our own tables by `accessOf`.
 */
export const accessGatePlugin = fp(
  async (app) => {
    // Before the request is validated: without access the answer is 402, whatever was sent.
    // A callback, not an async function: every request passes here, and most leave at once.
    app.addHook('preValidation', (request, _reply, done) => {
      if (!request.routeOptions.config.paid) return done()
      app
        .requireUser(request)
        .then((user) => accessOf(app.db, user.id))
        .then(
          ({ hasAccess }) => done(hasAccess ? undefined : new AppError(402, 'access.noPayment')),
          (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
        )
    })
  },
  { name: 'access-gate', dependencies: ['auth'] },
)
