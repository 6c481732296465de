import type { FastifyInstance } from 'fastify'
import { Secret, TOTP } from 'otpauth'
import { expect } from 'vitest'
import { addOperator } from '../../server/features/admin/public'
import { buildUser, TEST_PASSWORD } from './factories'

let addresses = 0

/** Makes the confirmed account with `email` an operator, as `npm run cli -- operators add` does. */
export async function makeOperator(app: FastifyInstance, email: string): Promise<void> {
  await addOperator(app.db, email)
}

/**
 * A new operator's session cookie, with the second factor set up and passed in it (through the
 * routes, as the console does) or not.
 */
export async function operatorCookie(
  app: FastifyInstance,
  { passed = true }: { passed?: boolean } = {},
): Promise<string> {
  const { user, session } = await buildUser(app)
  if (!session) throw new Error('no session')
  await addOperator(app.db, user.email)
  if (!passed) return session.header
  const post = (url: string, payload: object) =>
    app.inject({
      method: 'POST',
      url,
      remoteAddress: `10.31.0.${++addresses % 250}`,
      headers: { cookie: session.header },
      payload,
    })
  const { secret } = (await post('/api/operator-factor/set-up', { password: TEST_PASSWORD })).json()
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate()
  const confirmed = await post('/api/operator-factor/set-up/confirm', { code })
  expect(confirmed.statusCode).toBe(200)
  return session.header
}
