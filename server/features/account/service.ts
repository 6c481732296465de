import { APIError } from 'better-auth/api'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../../db/client'
import type { Language } from '../../../domain/i18n'
import { AppError } from '../../errors'
import type { Auth, AuthUser, Caller } from '../../plugins/auth'
import type { RateLimiter, Rule } from '../../plugins/rate-limit'
import {
  LIMITS as AUTH_LIMITS,
  callAuth,
  consumeMailLimits,
  inTransaction,
  ipKey,
  type SetCookies,
} from '../auth/public'

const MINUTE = 60_000

/** Limits on changes to a signed-in account. */
export const LIMITS = {
  passwordChangesPerUser: { limit: 5, windowMs: 15 * MINUTE },
  emailChangesPerUser: { limit: 5, windowMs: 60 * MINUTE },
} satisfies Record<string, Rule>

/** What the account services work with; `accountDeps(app)` gives them. */
export interface AccountDeps {
  db: Database
  auth: FastifyInstance['auth']
  rateLimiter: RateLimiter
}

export function accountDeps(app: FastifyInstance): AccountDeps {
  return { db: app.db, auth: app.auth, rateLimiter: app.rateLimiter }
}

/** Changes the password of the signed-in user and signs out their other sessions. */
export async function changePassword(
  deps: AccountDeps,
  caller: Caller,
  user: AuthUser,
  input: { currentPassword: string; newPassword: string },
): Promise<SetCookies> {
  await deps.rateLimiter.consume(`password-change:${user.id}`, LIMITS.passwordChangesPerUser)
  const { headers } = await callAuth(() =>
    deps.auth.api.changePassword({
      body: { ...input, revokeOtherSessions: true },
      headers: caller.headers,
      returnHeaders: true,
    }),
  )
  return headers
}

/** Sends a code to the new address; the change happens when that code comes back. */
export async function requestEmailChange(
  deps: AccountDeps,
  caller: Caller,
  user: AuthUser,
  input: { newEmail: string },
) {
  if (input.newEmail === user.email) throw new AppError(400, 'auth.sameEmail')
  await deps.rateLimiter.consume(`email-change:${user.id}`, LIMITS.emailChangesPerUser)
  // The code goes to an address the account does not own yet: limited per address like every
  // other mail, or a few accounts could flood a stranger's inbox (5 each per hour).
  await consumeMailLimits(deps.rateLimiter, caller, input.newEmail)
  await callAuth(() =>
    inTransaction(deps.db, () =>
      deps.auth.api.requestEmailChangeEmailOTP({
        body: { newEmail: input.newEmail },
        headers: caller.headers,
      }),
    ),
  )
}

/** Switches the account to the new address once its code is confirmed. */
export async function confirmEmailChange(
  deps: AccountDeps,
  caller: Caller,
  user: AuthUser,
  input: { newEmail: string; code: string },
): Promise<SetCookies> {
  if (input.newEmail === user.email) throw new AppError(400, 'auth.sameEmail')
  await deps.rateLimiter.consume(ipKey(caller, 'code'), AUTH_LIMITS.codeChecksPerIp)
  try {
    const { headers } = await callAuth(() =>
      deps.auth.api.changeEmailEmailOTP({
        body: { newEmail: input.newEmail, otp: input.code },
        headers: caller.headers,
        returnHeaders: true,
      }),
    )
    return headers
  } catch (error) {
    // "Email already in use" after a valid code: someone took the address meanwhile.
    if (error instanceof APIError) throw new AppError(400, 'auth.emailUnavailable')
    throw error
  }
}

/**
 * Remembers the interface language, so e-mails are written in it. Through better-auth, which
 * also updates the signed-in sessions it keeps in the cache.
 */
export async function setLanguage(auth: Auth, user: AuthUser, language: Language) {
  const { internalAdapter } = await auth.$context
  await internalAdapter.updateUser(user.id, { language, updatedAt: new Date() })
}
