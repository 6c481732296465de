import { APIError } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../../db/client'
import { users } from '../../../db/schema/auth'
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../../domain/i18n'
import { AppError } from '../../errors'
import type { MessageKey } from '../../i18n'
import {
  type AuthUser,
  type Caller,
  failOnUnsentMail,
  hashPassword,
  toAuthUser,
} from '../../plugins/auth'
import type { Captcha } from '../../plugins/captcha'
import type { Queue } from '../../plugins/jobs'
import { clientKey, type RateLimiter, type Rule } from '../../plugins/rate-limit'
import { sealer } from '../../sealer'
import { redeemSignupCode } from '../access/public'
import { accountExistsEmail } from './mail'

const MINUTE = 60_000

/** Limits on what sends mail or checks a secret; keys are per IP and per account. */
export const LIMITS = {
  mailPerIp: { limit: 10, windowMs: 60 * MINUTE },
  // Per address and client, so a stranger asking for codes to someone's address does not use
  // up the owner's own requests; and per address overall, so many clients cannot flood it.
  mailPerAddressAndClient: { limit: 3, windowMs: 15 * MINUTE },
  mailPerAddress: { limit: 10, windowMs: 60 * MINUTE },
  signInPerIp: { limit: 30, windowMs: 15 * MINUTE },
  codeChecksPerIp: { limit: 20, windowMs: 15 * MINUTE },
} satisfies Record<string, Rule>

/**
 * Password guesses for one account (docs/decisions/0004-hardening-before-billing.md). Each
 * attempt is counted before it is checked, so parallel guesses past the limit are refused
 * unchecked. Counted per account and address, so a stranger's guesses do not lock the owner
 * out from their own address; and per account across addresses, to bound a spread-out attack.
 * A password reset or a confirmed e-mailed code lifts both for the owner.
 */
export const SIGN_IN_GUARD = {
  perAccountAndAddress: { limit: 5, windowMs: 15 * MINUTE },
  perAccount: { limit: 50, windowMs: 15 * MINUTE },
  /** Answers slow down after this many attempts from one address, by `stepMs` each… */
  slowAfter: 3,
  stepMs: 400,
  /** …but never by more than this. */
  maxDelayMs: 2_000,
} as const

/** How long the answer to the `attempt`-th sign-in from one address to one account waits. */
export function signInDelayMs(attempt: number): number {
  const { slowAfter, stepMs, maxDelayMs } = SIGN_IN_GUARD
  return Math.min(maxDelayMs, Math.max(0, attempt - slowAfter) * stepMs)
}

/** Background work that e-mails codes, so every answer takes the same time (see below). */
export interface AuthQueues {
  resetCode: Queue<{ email: string }>
  confirmationCode: Queue<{ email: string }>
  signUp: Queue<SignUpJob>
}

/**
 * A sign-up as the request leaves it for its job: what was typed, the password already hashed
 * and sealed (`sealedHash`), never the password itself.
 */
export interface SignUpJob {
  email: string
  name: string
  language: Language
  signupCode: string | null
  sealedHash: string
}

/** The sealer of sign-up jobs' password hashes: a queued job is kept for days. */
const signUpSealer = (app: Pick<FastifyInstance, 'secrets'>) =>
  sealer<string>(app.secrets.authSecret, 'sign-up queue')

/** What the sign-up and sign-in services work with; `app` provides all but the queues. */
export interface AuthDeps {
  db: Database
  auth: FastifyInstance['auth']
  rateLimiter: RateLimiter
  captcha: Captcha
  queues: AuthQueues
  /** Seals a password hash for the sign-up queue. */
  sealHash: (hash: string) => string
}

/** The deps of an app whose queues are defined (`defineAuthJobs`). */
export function authDeps(app: FastifyInstance, queues: AuthQueues): AuthDeps {
  const { close } = signUpSealer(app)
  return {
    db: app.db,
    auth: app.auth,
    rateLimiter: app.rateLimiter,
    captcha: app.captcha,
    queues,
    sealHash: close,
  }
}

/** Session cookies better-auth set, for the route to pass on to the browser. */
export type SetCookies = Headers

const BETTER_AUTH_ERRORS: Record<string, { status: number; message: MessageKey }> = {
  INVALID_EMAIL_OR_PASSWORD: { status: 401, message: 'auth.incorrectCredentials' },
  INVALID_OTP: { status: 400, message: 'auth.codeInvalid' },
  OTP_EXPIRED: { status: 400, message: 'auth.codeExpired' },
  TOO_MANY_ATTEMPTS: { status: 400, message: 'auth.codeTooManyAttempts' },
  INVALID_PASSWORD: { status: 400, message: 'auth.currentPasswordIncorrect' },
  SESSION_NOT_FRESH: { status: 403, message: 'auth.sessionNotFresh' },
  // server/plugins/auth.ts refuses a session to an account an operator blocked.
  ACCOUNT_BLOCKED: { status: 403, message: 'auth.accountBlocked' },
  // A code for an address that has no pending sign-up behaves like a wrong code.
  USER_NOT_FOUND: { status: 400, message: 'auth.codeInvalid' },
}

const refusalCode = (error: APIError) =>
  String((error.body as { code?: string } | undefined)?.code ?? '')

/**
 * A better-auth refusal as a message for the user. Its own English text never reaches anyone:
 * an unknown refusal becomes `fallback` (or a generic sentence). Anything else is rethrown.
 */
export function asUserError(error: unknown, fallback?: MessageKey): never {
  if (!(error instanceof APIError) || error.statusCode >= 500) throw error
  const known = BETTER_AUTH_ERRORS[refusalCode(error)]
  if (known) throw new AppError(known.status, known.message)
  throw new AppError(400, fallback ?? 'errors.badRequest')
}

/** Runs a better-auth call with its refusals turned into messages for the user. */
export async function callAuth<T>(call: () => Promise<T>, fallback?: MessageKey): Promise<T> {
  try {
    return await call()
  } catch (error) {
    asUserError(error, fallback)
  }
}

/**
 * Runs a better-auth call in one transaction with everything it writes, mail included: the
 * account change and its message are kept together or not at all. A refusal still commits,
 * because it may have counted a wrong code against the code's attempts, and rolling that back
 * would allow unlimited guesses.
 */
export async function inTransaction<T>(db: Database, call: () => Promise<T>): Promise<T> {
  const outcome = await db.transaction(async () => {
    try {
      return { value: await failOnUnsentMail(call) }
    } catch (error) {
      if (error instanceof APIError || error instanceof AppError) return { refusal: error }
      throw error
    }
  })
  if ('refusal' in outcome) throw outcome.refusal
  return outcome.value
}

async function requireHumanCheck(captcha: Captcha, payload: string) {
  if (!(await captcha.verify(payload))) throw new AppError(400, 'validation.humanCheck')
}

/** The limiter key of `name` for one client address (IPv6 by /64). */
export const ipKey = (caller: Caller, name: string) => `${name}:ip:${clientKey(caller.ip)}`
const signInKeys = (caller: Caller, email: string) => ({
  pair: `sign-in:account-ip:${email}:${clientKey(caller.ip)}`,
  account: `sign-in:account:${email}`,
})

const mailKeys = (caller: Caller, email: string) => [
  { key: ipKey(caller, 'mail'), rule: LIMITS.mailPerIp },
  { key: `mail:address:${email}:${clientKey(caller.ip)}`, rule: LIMITS.mailPerAddressAndClient },
  { key: `mail:address:${email}`, rule: LIMITS.mailPerAddress },
]

/**
 * Counts one message to `email` against the mail limits, or refuses it (429). Every route that
 * mails an address someone typed goes through here, so the per-address limits hold across all
 * of them: a stranger cannot flood one inbox by mixing sign-ups, resets and e-mail changes.
 */
export async function consumeMailLimits(rateLimiter: RateLimiter, caller: Caller, email: string) {
  for (const { key, rule } of mailKeys(caller, email)) await rateLimiter.consume(key, rule)
}

/** Everything that e-mails a code needs a passed human check and stays within the mail limits. */
async function guardMailSending(
  deps: AuthDeps,
  caller: Caller,
  input: { email: string; humanCheck: string },
) {
  await requireHumanCheck(deps.captcha, input.humanCheck)
  await consumeMailLimits(deps.rateLimiter, caller, input.email)
}

/** Lifts the sign-in limits of an account for the owner, who just proved it by code. */
async function liftSignInLimits({ rateLimiter }: AuthDeps, caller: Caller, email: string) {
  const keys = signInKeys(caller, email)
  await Promise.all([rateLimiter.reset(keys.pair), rateLimiter.reset(keys.account)])
}

/**
 * The work behind forgot-password and resend-code, done in the background. Whether an address
 * has an account decides how much work there is (a code, a message); done in the request, that
 * difference showed in the answer time and told which addresses are registered. The request
 * only queues this job, the same for every address.
 */
export async function defineAuthJobs(app: FastifyInstance): Promise<AuthQueues> {
  const retries = {
    retryLimit: 5,
    retryDelaySeconds: 10,
    expireInSeconds: 120,
    // The code then arrives a second or two later, which nobody waiting for a mail notices.
    startWithin: { minSeconds: 0.5, maxSeconds: 2 },
  }
  const resetCode = await app.jobs.define<{ email: string }>(
    'account.reset-code',
    { ...retries, describe: (job) => job.email },
    async ({ email }) => {
      // better-auth does nothing for an address without an account.
      await app.db.transaction(() =>
        failOnUnsentMail(() => app.auth.api.requestPasswordResetEmailOTP({ body: { email } })),
      )
    },
  )
  const confirmationCode = await app.jobs.define<{ email: string }>(
    'account.confirmation-code',
    { ...retries, describe: (job) => job.email },
    async ({ email }) => {
      await app.db.transaction(async () => {
        const [user] = await app.db
          .select({ verified: users.emailVerified })
          .from(users)
          .where(eq(users.email, email))
        if (!user || user.verified) return
        await failOnUnsentMail(() =>
          app.auth.api.sendVerificationOTP({ body: { email, type: 'email-verification' } }),
        )
      })
    },
  )
  const seal = signUpSealer(app)
  const signUp = await app.jobs.define<SignUpJob>(
    'account.sign-up',
    { ...retries, describe: (job) => job.email },
    async (job) => {
      let creating = false
      try {
        await app.db.transaction(() =>
          failOnUnsentMail(async () => {
            const context = await app.auth.$context
            const found = await context.internalAdapter.findUserByEmail(job.email)
            if (found) return mailOwner(app, found.user)
            creating = true
            // The rows better-auth's own sign-up writes, with the hash the request made.
            const created = await context.internalAdapter.createUser(
              {
                email: job.email,
                name: job.name,
                language: job.language,
                signupCode: job.signupCode,
                emailVerified: false,
              },
              { method: 'email-password' },
            )
            await context.internalAdapter.linkAccount({
              userId: created.id,
              providerId: 'credential',
              accountId: created.id,
              password: seal.open(job.sealedHash),
            })
            await app.auth.api.sendVerificationOTP({
              body: { email: job.email, type: 'email-verification' },
            })
          }),
        )
      } catch (error) {
        // Two sign-ups of one new address at once: the other job made the account and mailed
        // its code, so this one has nothing left to do. Any other failure is tried again.
        if (creating && (await hasAccount(app.db, job.email))) return
        throw error
      }
    },
  )
  return { resetCode, confirmationCode, signUp }
}

async function hasAccount(db: Database, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email))
  return Boolean(row)
}

/**
 * A sign-up for an address that has an account: an unconfirmed owner gets a fresh code, a
 * confirmed one a note that someone tried (the form must not say the address is taken).
 */
async function mailOwner(
  app: FastifyInstance,
  user: { email: string; name: string; emailVerified: boolean },
) {
  if (!user.emailVerified) {
    await app.auth.api.sendVerificationOTP({
      body: { email: user.email, type: 'email-verification' },
    })
    return
  }
  const language = (user as { language?: unknown }).language
  await app.mailer.send({
    to: user.email,
    ...accountExistsEmail({
      language: isLanguage(language) ? language : DEFAULT_LANGUAGE,
      name: user.name,
    }),
  })
}

/**
 * Registers an account and e-mails a confirmation code, through a job. Whether the address is
 * taken must not show in the answer or its time (an outside probe told registered addresses by
 * 27 against 36 ms): the request does the same for every address, the costly part included (it
 * hashes the password), and queues one job; the job creates the account and mails its code, or
 * mails the owner of a taken address instead.
 */
export async function signUp(
  deps: AuthDeps,
  caller: Caller,
  input: {
    name: string
    email: string
    password: string
    code?: string
    language: Language
    humanCheck: string
  },
) {
  await guardMailSending(deps, caller, input)
  const hash = await hashPassword(input.password)
  await deps.queues.signUp.send({
    email: input.email,
    name: input.name,
    language: input.language,
    signupCode: input.code || null,
    sealedHash: deps.sealHash(hash),
  })
}

/** Confirms a new account's address with the e-mailed code. */
export async function confirmSignUp(
  deps: AuthDeps,
  caller: Caller,
  input: { email: string; code: string },
) {
  await deps.rateLimiter.consume(ipKey(caller, 'code'), LIMITS.codeChecksPerIp)
  await callAuth(
    () =>
      inTransaction(deps.db, async () => {
        await deps.auth.api.verifyEmailOTP({ body: { email: input.email, otp: input.code } })
        await redeemSignupCode(deps.db, input.email)
      }),
    'auth.codeInvalid',
  )
  await liftSignInLimits(deps, caller, input.email)
}

/** Sends a new confirmation code to an unconfirmed account; silent for any other address. */
export async function resendConfirmation(
  deps: AuthDeps,
  caller: Caller,
  input: { email: string; humanCheck: string },
) {
  await guardMailSending(deps, caller, input)
  await deps.queues.confirmationCode.send({ email: input.email })
}

/**
 * For an unconfirmed account whose password was right: a new code, when the mail limits allow
 * one. True when one was queued.
 */
async function sendCodeOnSignIn(deps: AuthDeps, caller: Caller, email: string): Promise<boolean> {
  const { rateLimiter } = deps
  const keys = mailKeys(caller, email)
  // Looked at first and counted only when a code goes: a refused one must not use up the
  // address's budget for the mails it does want (a reset, say).
  const counts = await Promise.all(keys.map(({ key }) => rateLimiter.peek(key)))
  if (counts.some(({ count }, i) => count >= (keys[i]?.rule.limit ?? 0))) return false
  await Promise.all(keys.map(({ key, rule }) => rateLimiter.hit(key, rule.windowMs)))
  await deps.queues.confirmationCode.send({ email })
  return true
}

/**
 * Signs in with e-mail and password. Attempts on one account first slow the answers down,
 * then are refused for a while (SIGN_IN_GUARD); the session lasts 30 days with "remember me",
 * else until the browser closes.
 */
export async function signIn(
  deps: AuthDeps,
  caller: Caller,
  input: { email: string; password: string; rememberMe?: boolean; humanCheck: string },
): Promise<{ user: AuthUser; cookies: SetCookies }> {
  const { rateLimiter } = deps
  await requireHumanCheck(deps.captcha, input.humanCheck)
  await rateLimiter.consume(ipKey(caller, 'sign-in'), LIMITS.signInPerIp)
  const keys = signInKeys(caller, input.email)
  const { perAccountAndAddress, perAccount } = SIGN_IN_GUARD
  const [pair, account] = await Promise.all([
    rateLimiter.hit(keys.pair, perAccountAndAddress.windowMs),
    rateLimiter.hit(keys.account, perAccount.windowMs),
  ])
  if (pair.count > perAccountAndAddress.limit || account.count > perAccount.limit) {
    const wait = pair.count > perAccountAndAddress.limit ? pair.resetInMs : account.resetInMs
    throw new AppError(429, 'auth.tooManySignIns', Math.max(1, Math.ceil(wait / 1000)))
  }
  const delay = signInDelayMs(pair.count)
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: input.rememberMe ?? false },
      headers: caller.headers,
      returnHeaders: true,
    })
    await liftSignInLimits(deps, caller, input.email)
    return { user: toAuthUser(response.user as Record<string, unknown>), cookies: headers }
  } catch (error) {
    if (error instanceof APIError && refusalCode(error) === 'EMAIL_NOT_VERIFIED') {
      // The password was right, so saying what is missing leaks nothing; and it says whether a
      // new code is really on its way.
      await liftSignInLimits(deps, caller, input.email)
      const sent = await sendCodeOnSignIn(deps, caller, input.email)
      throw new AppError(403, sent ? 'auth.emailNotVerifiedCodeSent' : 'auth.emailNotVerified')
    }
    asUserError(error)
  }
}

/** Ends the current session. */
export async function signOut(deps: Pick<AuthDeps, 'auth'>, caller: Caller): Promise<SetCookies> {
  const { headers } = await deps.auth.api.signOut({ headers: caller.headers, returnHeaders: true })
  return headers
}

/** E-mails a reset code when the address has an account; answers the same either way. */
export async function forgotPassword(
  deps: AuthDeps,
  caller: Caller,
  input: { email: string; humanCheck: string },
) {
  await guardMailSending(deps, caller, input)
  await deps.queues.resetCode.send({ email: input.email })
}

/** Sets a new password with the e-mailed code; every session of the account ends. */
export async function resetPassword(
  deps: AuthDeps,
  caller: Caller,
  input: { email: string; code: string; password: string; humanCheck: string },
) {
  await requireHumanCheck(deps.captcha, input.humanCheck)
  await deps.rateLimiter.consume(ipKey(caller, 'code'), LIMITS.codeChecksPerIp)
  await callAuth(
    () =>
      inTransaction(deps.db, () =>
        deps.auth.api.resetPasswordEmailOTP({
          body: { email: input.email, otp: input.code, password: input.password },
        }),
      ),
    'auth.codeInvalid',
  )
  await liftSignInLimits(deps, caller, input.email)
}
