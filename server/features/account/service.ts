import { APIError } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { users } from '../../../db/schema/auth'
import type { Language } from '../../../domain/i18n'
import { AppError } from '../../errors'
import type { MessageKey } from '../../i18n'
import { type AuthUser, authHeaders, forwardCookies, toAuthUser } from '../../plugins/auth'
import type { Rule } from '../../plugins/rate-limit'
import { redeemSignupCode } from '../access/service'

const MINUTE = 60_000

/** Limits on what sends mail or checks a secret; keys are per IP and per account. */
export const LIMITS = {
  mailPerIp: { limit: 10, windowMs: 60 * MINUTE },
  mailPerAddress: { limit: 3, windowMs: 15 * MINUTE },
  signInPerIp: { limit: 30, windowMs: 15 * MINUTE },
  codeChecksPerIp: { limit: 20, windowMs: 15 * MINUTE },
  passwordChangesPerUser: { limit: 5, windowMs: 15 * MINUTE },
  emailChangesPerUser: { limit: 5, windowMs: 60 * MINUTE },
} satisfies Record<string, Rule>

/** Failed sign-ins for one account: answers slow down after SLOW_AFTER, stop after REFUSE_AFTER. */
export const FAILED_SIGN_INS = { slowAfter: 3, refuseAfter: 5, windowMs: 15 * MINUTE, stepMs: 400 }

type Context = { app: FastifyInstance; request: FastifyRequest; reply: FastifyReply }

const BETTER_AUTH_ERRORS: Record<string, { status: number; message: MessageKey }> = {
  INVALID_EMAIL_OR_PASSWORD: { status: 401, message: 'auth.incorrectCredentials' },
  INVALID_OTP: { status: 400, message: 'auth.codeInvalid' },
  OTP_EXPIRED: { status: 400, message: 'auth.codeExpired' },
  TOO_MANY_ATTEMPTS: { status: 400, message: 'auth.codeTooManyAttempts' },
  INVALID_PASSWORD: { status: 400, message: 'auth.currentPasswordIncorrect' },
  SESSION_NOT_FRESH: { status: 403, message: 'auth.sessionNotFresh' },
  // A code for an address that has no pending sign-up behaves like a wrong code.
  USER_NOT_FOUND: { status: 400, message: 'auth.codeInvalid' },
}

/** Runs a better-auth call and turns its known refusals into messages for the user. */
async function callAuth<T>(call: () => Promise<T>, fallback?: MessageKey): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof APIError) {
      const code = String((error.body as { code?: string } | undefined)?.code ?? '')
      const known = BETTER_AUTH_ERRORS[code]
      if (known) throw new AppError(known.status, known.message)
      if (fallback) throw new AppError(400, fallback)
    }
    throw error
  }
}

async function requireHumanCheck({ app }: Context, payload: string) {
  if (!(await app.captcha.verify(payload))) throw new AppError(400, 'validation.humanCheck')
}

const ipKey = (request: FastifyRequest, name: string) => `${name}:ip:${request.ip}`

/** Everything that e-mails a code needs a passed human check and stays within the mail limits. */
async function guardMailSending(context: Context, input: { email: string; humanCheck: string }) {
  await requireHumanCheck(context, input.humanCheck)
  await context.app.rateLimiter.consume(ipKey(context.request, 'mail'), LIMITS.mailPerIp)
  await context.app.rateLimiter.consume(`mail:address:${input.email}`, LIMITS.mailPerAddress)
}

/**
 * Registers an account and e-mails a confirmation code. Answers the same whether or not the
 * address is taken (better-auth's duplicate path hashes anyway and we mail the owner instead).
 */
export async function signUp(
  context: Context,
  input: {
    name: string
    email: string
    password: string
    code?: string
    language: Language
    humanCheck: string
  },
) {
  const { app, request } = context
  await guardMailSending(context, input)
  await callAuth(() =>
    app.auth.api.signUpEmail({
      body: {
        name: input.name,
        email: input.email,
        password: input.password,
        language: input.language,
        signupCode: input.code || undefined,
      },
      headers: authHeaders(request),
    }),
  )
}

/** Confirms a new account's address with the e-mailed code. */
export async function confirmSignUp(context: Context, input: { email: string; code: string }) {
  const { app, request } = context
  await app.rateLimiter.consume(ipKey(request, 'code'), LIMITS.codeChecksPerIp)
  await callAuth(
    () => app.auth.api.verifyEmailOTP({ body: { email: input.email, otp: input.code } }),
    'auth.codeInvalid',
  )
  await redeemSignupCode(app.db, input.email)
}

/** Sends a new confirmation code to an unconfirmed account; silent for any other address. */
export async function resendConfirmation(
  context: Context,
  input: { email: string; humanCheck: string },
) {
  const { app } = context
  await guardMailSending(context, input)
  const [user] = await app.db
    .select({ verified: users.emailVerified })
    .from(users)
    .where(eq(users.email, input.email))
  if (!user || user.verified) return
  await app.auth.api.sendVerificationOTP({
    body: { email: input.email, type: 'email-verification' },
  })
}

/**
 * Signs in with e-mail and password. Failed attempts for one account first slow the answers
 * down, then are refused for a while; the session lasts 30 days with "remember me", else until
 * the browser closes.
 */
export async function signIn(
  context: Context,
  input: { email: string; password: string; rememberMe?: boolean; humanCheck: string },
): Promise<AuthUser> {
  const { app, request, reply } = context
  await requireHumanCheck(context, input.humanCheck)
  await app.rateLimiter.consume(ipKey(request, 'sign-in'), LIMITS.signInPerIp)
  const failuresKey = `sign-in:failures:${input.email}`
  const failures = await app.rateLimiter.peek(failuresKey)
  if (failures.count >= FAILED_SIGN_INS.refuseAfter) {
    throw new AppError(429, 'auth.tooManySignIns', Math.ceil(failures.resetInMs / 1000))
  }
  try {
    const { headers, response } = await callAuth(() =>
      app.auth.api.signInEmail({
        body: {
          email: input.email,
          password: input.password,
          rememberMe: input.rememberMe ?? false,
        },
        headers: authHeaders(request),
        returnHeaders: true,
      }),
    )
    await app.rateLimiter.reset(failuresKey)
    forwardCookies(headers, reply)
    return toAuthUser(response.user as Record<string, unknown>)
  } catch (error) {
    if (error instanceof AppError && error.messageKey === 'auth.incorrectCredentials') {
      const { count } = await app.rateLimiter.hit(failuresKey, FAILED_SIGN_INS.windowMs)
      if (count > FAILED_SIGN_INS.slowAfter) {
        const delay = (count - FAILED_SIGN_INS.slowAfter) * FAILED_SIGN_INS.stepMs
        await new Promise((resolve) => setTimeout(resolve, delay))
      }
    }
    if (
      error instanceof APIError &&
      (error.body as { code?: string })?.code === 'EMAIL_NOT_VERIFIED'
    ) {
      // The password was right: telling them to confirm leaks nothing.
      throw new AppError(403, 'auth.emailNotVerified')
    }
    throw error
  }
}

/** Ends the current session. */
export async function signOut({ app, request, reply }: Context) {
  const { headers } = await app.auth.api.signOut({
    headers: authHeaders(request),
    returnHeaders: true,
  })
  forwardCookies(headers, reply)
}

/** E-mails a reset code when the address has an account; answers the same either way. */
export async function forgotPassword(
  context: Context,
  input: { email: string; humanCheck: string },
) {
  const { app } = context
  await guardMailSending(context, input)
  await app.auth.api.requestPasswordResetEmailOTP({ body: { email: input.email } })
}

/** Sets a new password with the e-mailed code; every session of the account ends. */
export async function resetPassword(
  context: Context,
  input: { email: string; code: string; password: string; humanCheck: string },
) {
  const { app, request } = context
  await requireHumanCheck(context, input.humanCheck)
  await app.rateLimiter.consume(ipKey(request, 'code'), LIMITS.codeChecksPerIp)
  await callAuth(
    () =>
      app.auth.api.resetPasswordEmailOTP({
        body: { email: input.email, otp: input.code, password: input.password },
      }),
    'auth.codeInvalid',
  )
}

/** Changes the password of the signed-in user and signs out their other sessions. */
export async function changePassword(
  context: Context,
  user: AuthUser,
  input: { currentPassword: string; newPassword: string },
) {
  const { app, request, reply } = context
  await app.rateLimiter.consume(`password-change:${user.id}`, LIMITS.passwordChangesPerUser)
  const { headers } = await callAuth(() =>
    app.auth.api.changePassword({
      body: { ...input, revokeOtherSessions: true },
      headers: authHeaders(request),
      returnHeaders: true,
    }),
  )
  forwardCookies(headers, reply)
}

/** Sends a code to the new address; the change happens when that code comes back. */
export async function requestEmailChange(
  context: Context,
  user: AuthUser,
  input: { newEmail: string },
) {
  const { app, request } = context
  if (input.newEmail === user.email) throw new AppError(400, 'auth.sameEmail')
  await app.rateLimiter.consume(`email-change:${user.id}`, LIMITS.emailChangesPerUser)
  await callAuth(() =>
    app.auth.api.requestEmailChangeEmailOTP({
      body: { newEmail: input.newEmail },
      headers: authHeaders(request),
    }),
  )
}

/** Switches the account to the new address once its code is confirmed. */
export async function confirmEmailChange(
  context: Context,
  user: AuthUser,
  input: { newEmail: string; code: string },
) {
  const { app, request, reply } = context
  if (input.newEmail === user.email) throw new AppError(400, 'auth.sameEmail')
  await app.rateLimiter.consume(ipKey(request, 'code'), LIMITS.codeChecksPerIp)
  try {
    const { headers } = await callAuth(() =>
      app.auth.api.changeEmailEmailOTP({
        body: { newEmail: input.newEmail, otp: input.code },
        headers: authHeaders(request),
        returnHeaders: true,
      }),
    )
    forwardCookies(headers, reply)
  } catch (error) {
    // "Email already in use" after a valid code: someone took the address meanwhile.
    if (error instanceof APIError) throw new AppError(400, 'auth.emailUnavailable')
    throw error
  }
}

/** Remembers the interface language, so e-mails are written in it. */
export async function setLanguage({ app }: Context, user: AuthUser, language: Language) {
  await app.db.update(users).set({ language, updatedAt: new Date() }).where(eq(users.id, user.id))
}
