import type { FastifyInstance } from 'fastify'
import type { Language } from '../../domain/i18n'
import { buildUser } from './factories'

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

/**
 * A confirmed account and a signed-in session for it (see `buildUser` in ./factories, which
 * also makes unconfirmed users, access and media). `cookie` goes straight into an inject
 * call's `cookie` header.
 */
export async function createSignedInUser(
  app: FastifyInstance,
  overrides: TestAccountOverrides = {},
): Promise<{ user: TestAccount; cookie: string }> {
  const { user, session } = await buildUser(app, overrides)
  if (!session) throw new Error(`no session for ${user.email}`)
  const { id, email, password, name } = user
  return { user: { id, email, password, name }, cookie: session.header }
}
