import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { users } from '../../db/schema/auth'
import type { Language } from '../../domain/i18n'

export interface TestAccount {
  id: string
  email: string
  password: string
  name: string
}

export interface TestAccountOverrides {
  email?: string
  password?: string
  name?: string
  language?: Language
}

/** A fresh address each call, so tests in one file never collide. */
function uniqueEmail(): string {
  return `member-${randomBytes(6).toString('hex')}@example.test`
}

/**
 * A confirmed account and a signed-in session for it, made through better-auth's server API
 * (no UI, no human check, no mailed code): sign up, mark the address confirmed, sign in.
 * `cookie` goes straight into an inject call's `cookie` header.
 */
export async function createSignedInUser(
  app: FastifyInstance,
  overrides: TestAccountOverrides = {},
): Promise<{ user: TestAccount; cookie: string }> {
  const email = (overrides.email ?? uniqueEmail()).toLowerCase()
  const password = overrides.password ?? 'Harmony-Test-42!'
  const name = overrides.name ?? 'Test Member'
  await app.auth.api.signUpEmail({
    body: { name, email, password, language: overrides.language ?? 'en' },
  })
  const [row] = await app.db
    .update(users)
    .set({ emailVerified: true })
    .where(eq(users.email, email))
    .returning({ id: users.id })
  if (!row) throw new Error(`sign-up did not create ${email}`)
  const { headers } = await app.auth.api.signInEmail({
    body: { email, password },
    returnHeaders: true,
  })
  // Each Set-Cookie starts with `name=value`; the attributes after it are for the browser.
  const cookie = headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  if (!cookie) throw new Error(`signing in ${email} set no cookie`)
  return { user: { id: row.id, email, password, name }, cookie }
}
