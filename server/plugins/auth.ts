import { AsyncLocalStorage } from 'node:async_hooks'
import { hash, verify } from '@node-rs/argon2'
import type { BetterAuthOptions } from 'better-auth'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError } from 'better-auth/api'
import { emailOTP } from 'better-auth/plugins'
import { eq } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { accounts, sessions, users, verifications } from '../../db/schema/auth'
import { CODE_VALID_MINUTES } from '../../domain/auth'
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../domain/i18n'
import type { Config } from '../config'
import { AppError } from '../errors'
import type { RenderedEmail } from '../mail/layout'
import type { KeyValueCache } from './cache'
import type { MailMessage } from './mail'
import { recordStorageRead, sessionAnswers } from './session-answers'

/** One-time codes: 6 digits, 10 minutes, 3 attempts (issue: accounts). */
export const OTP_TTL_SECONDS = CODE_VALID_MINUTES * 60
export const OTP_ATTEMPTS = 3
const THIRTY_DAYS_SECONDS = 30 * 24 * 60 * 60
/** A session used after this long since its last renewal is renewed for another 30 days. */
const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60

// OWASP's Argon2id row: 19 MiB, two passes, one lane.
const ARGON2_OPTIONS = {
  // Algorithm.Argon2id; the enum is a const enum our compiler settings cannot import.
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS)
export const verifyPassword = async ({
  hash: digest,
  password,
}: {
  hash: string
  password: string
}) => {
  try {
    return await verify(digest, password)
  } catch {
    // A malformed stored hash is a failed check, not a server error.
    return false
  }
}

export type CodePurpose = 'sign-up' | 'reset-password' | 'change-email'

/**
 * The messages better-auth's callbacks send. Their words belong to the auth feature
 * (server/features/auth/mail.ts), and a plugin never imports a feature, so server/app.ts passes
 * them in.
 */
export interface AuthMail {
  codeEmail(input: {
    language: Language
    purpose: CodePurpose
    code: string
    name?: string | null
  }): RenderedEmail
  passwordChangedEmail(input: {
    language: Language
    name?: string | null
    supportEmail?: string
  }): RenderedEmail
}

/** A signed-in user as the server sees it. */
export interface AuthUser {
  id: string
  name: string
  email: string
  language: Language
  avatarKey: string | null
  avatarUpdatedAt: Date | null
  /** As it was when the session began: the console checks the database itself (ADR 0029). */
  role: 'member' | 'operator'
}

export type Auth = ReturnType<typeof createAuth>

/** Who is signed in, and in which session: what a session cookie answers. */
interface SignedIn {
  user: Readonly<AuthUser>
  sessionId: string
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth
    /** The signed-in user of the request, or null for a visitor (looked up once per request). */
    getUser(request: FastifyRequest): Promise<Readonly<AuthUser> | null>
    /** The id of the request's session (better-auth's `session.id`), or null for a visitor. */
    getSessionId(request: FastifyRequest): Promise<string | null>
    /** The signed-in user, or HTTP 401 'Please sign in to continue.'. */
    requireUser(request: FastifyRequest): Promise<Readonly<AuthUser>>
  }
  interface FastifyContextConfig {
    /**
     * Reachable without signing in. Every other route under /api answers 401 to a visitor
     * before it reads the body.
     */
    public?: boolean
  }
}

const signInRequired = () => new AppError(401, 'auth.signInRequired')

/**
 * Who is asking, as services see it: the client address (for limits) and the headers
 * better-auth reads (its session cookie among them). Services never see the request itself.
 */
export interface Caller {
  ip: string
  headers: Headers
}

export function callerOf(request: FastifyRequest): Caller {
  return { ip: request.ip, headers: authHeaders(request) }
}

export function authHeaders(request: FastifyRequest): Headers {
  const headers = new Headers()
  for (const name of ['cookie', 'user-agent', 'accept-language']) {
    const value = request.headers[name]
    if (typeof value === 'string') headers.set(name, value)
  }
  headers.set('x-forwarded-for', request.ip)
  return headers
}

/** Copies the session cookies better-auth set onto our reply. */
export function forwardCookies(from: Headers | null | undefined, reply: FastifyReply) {
  const cookies = from?.getSetCookie() ?? []
  if (cookies.length > 0) reply.header('set-cookie', cookies)
}

/** Our view of better-auth's user record. */
export function toAuthUser(user: Record<string, unknown>): AuthUser {
  return {
    id: String(user.id),
    name: String(user.name),
    email: String(user.email),
    language: isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE,
    avatarKey: (user.avatarKey as string | null | undefined) ?? null,
    avatarUpdatedAt: user.avatarUpdatedAt ? new Date(user.avatarUpdatedAt as string) : null,
    role: user.role === 'operator' ? 'operator' : 'member',
  }
}

/**
 * better-auth runs our mail callbacks through `runInBackgroundOrAwait`, which logs what they
 * throw and carries on as if the message had gone. A message that could not be queued must fail
 * the change that caused it (so it rolls back and the person can try again): the callbacks leave
 * the error here, and `failOnUnsentMail` throws it again once better-auth has returned.
 */
const unsentMail = new AsyncLocalStorage<{ error?: unknown }>()

/** Runs a better-auth call and fails when a message it should have queued was not. */
export async function failOnUnsentMail<T>(call: () => Promise<T>): Promise<T> {
  const slot: { error?: unknown } = {}
  const result = await unsentMail.run(slot, call)
  if (slot.error !== undefined) throw slot.error
  return result
}

/** The user's language field, which better-auth's callback types do not know about. */
function languageField(user: object): Language {
  const value = (user as { language?: unknown }).language
  return isLanguage(value) ? value : DEFAULT_LANGUAGE
}

/**
 * better-auth's secondary storage over our cache, for sessions only: its one-time codes are
 * kept out (they live in the database alone, where their attempts are counted).
 */
/** Where an entry of better-auth's secondary storage lives in our cache. */
const storageKey = (key: string) => `auth:${key}`

function sessionStorage(cache: KeyValueCache): NonNullable<BetterAuthOptions['secondaryStorage']> {
  const isCode = (key: string) => key.startsWith('verification:')
  return {
    get: async (key: string) => {
      if (isCode(key)) return null
      const value = await cache.get(storageKey(key))
      recordStorageRead(key, value)
      return value
    },
    set: async (key: string, value: string, ttl?: number) => {
      if (!isCode(key)) await cache.set(storageKey(key), value, ttl)
    },
    delete: async (key: string) => {
      if (!isCode(key)) await cache.delete(storageKey(key))
    },
    getAndDelete: async (key: string) => {
      if (isCode(key)) return null
      const value = await cache.get(storageKey(key))
      await cache.delete(storageKey(key))
      return value
    },
    // Only better-auth's own rate limiter counts here, and it is off (our routes limit).
    increment: () => {
      throw new Error('better-auth rate limiting is off; nothing should count in the cache')
    },
  }
}

function createAuth(app: FastifyInstance, config: Config, mail: AuthMail) {
  const db = app.db
  const languageOf = async (email: string): Promise<Language> => {
    const [row] = await db
      .select({ language: users.language })
      .from(users)
      .where(eq(users.email, email.toLowerCase()))
    return isLanguage(row?.language) ? row.language : DEFAULT_LANGUAGE
  }
  const queueMail = async (message: MailMessage) => {
    try {
      await app.mailer.send(message)
    } catch (error) {
      const slot = unsentMail.getStore()
      if (slot && slot.error === undefined) slot.error = error
      throw error
    }
  }
  const sendCode = async (
    email: string,
    purpose: CodePurpose,
    code: string,
    language: Language,
  ) => {
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.email, email))
    await queueMail({ to: email, ...mail.codeEmail({ language, purpose, code, name: row?.name }) })
  }

  return betterAuth({
    appName: 'Harmonize',
    baseURL: config.publicUrl,
    secret: app.secrets.authSecret,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    // Our routes apply their own limits (keyed by IP and account) before calling in here.
    rateLimit: { enabled: false },
    // Its messages join our JSON log lines (with the request logger's redaction) instead of
    // being printed in colour between them.
    logger: {
      disabled: config.NODE_ENV === 'test',
      log: (level, message, ...details) =>
        app.log[level](
          { from: 'better-auth', details: details.length ? details : undefined },
          message,
        ),
    },
    advanced: {
      cookiePrefix: 'harmonize',
      useSecureCookies: config.publicUrl.startsWith('https://'),
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    // Signed-in sessions are read from the cache (memory, or Redis shared by every process)
    // instead of two database queries per request; the database keeps them across restarts
    // and answers for any the cache lacks. better-auth removes them from both on sign-out and
    // revocation, so those stay immediate (docs/decisions/0013-fast-requests.md).
    // Without a cache every server shares (PostgreSQL, no Redis), sessions are the database's
    // alone: another server's sign-out must end them here at once.
    ...(app.cacheScope === 'none' ? {} : { secondaryStorage: sessionStorage(app.cache) }),
    session: {
      expiresIn: THIRTY_DAYS_SECONDS,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
      storeSessionInDatabase: true,
    },
    // Codes stay in the database only: single-use checks and attempt counts need one truth.
    verification: { storeInDatabase: true },
    databaseHooks: {
      session: {
        create: {
          // An account an operator blocked gets no new session: the password was checked
          // before this, so saying so tells nothing to someone who does not hold it.
          before: async (session) => {
            const [row] = await db
              .select({ blockedAt: users.blockedAt })
              .from(users)
              .where(eq(users.id, session.userId))
            if (row?.blockedAt) {
              throw new APIError('FORBIDDEN', { code: 'ACCOUNT_BLOCKED', message: 'blocked' })
            }
          },
          // A sign-in that passed the check above just before a block was written, and whose
          // session came after the block ended the account's sessions, is ended here.
          after: async (session) => {
            const [row] = await db
              .select({ blockedAt: users.blockedAt })
              .from(users)
              .where(eq(users.id, session.userId))
            if (!row?.blockedAt) return
            const { internalAdapter } = await app.auth.$context
            await internalAdapter.deleteSession(session.token)
          },
        },
      },
    },
    user: {
      additionalFields: {
        language: { type: 'string', required: false, defaultValue: DEFAULT_LANGUAGE, input: true },
        signupCode: { type: 'string', required: false, input: true },
        avatarKey: { type: 'string', required: false, input: false },
        avatarUpdatedAt: { type: 'date', required: false, input: false },
        // Given and taken by the command line only (server/features/admin/operators.ts); read
        // here so the session's answer can offer the console's link without a query.
        role: { type: 'string', required: false, input: false, defaultValue: 'member' },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
      // No onExistingUserSignUp: our sign-up route never calls better-auth's sign-up; its job
      // writes the rows and mails the owner of a taken address (features/auth/service.ts).
      onPasswordReset: async ({ user }) => {
        const language = languageField(user)
        await queueMail({
          to: user.email,
          ...mail.passwordChangedEmail({
            language,
            name: user.name,
            supportEmail: config.SUPPORT_EMAIL,
          }),
        })
      },
    },
    emailVerification: { autoSignInAfterVerification: false },
    plugins: [
      emailOTP({
        otpLength: 6,
        expiresIn: OTP_TTL_SECONDS,
        allowedAttempts: OTP_ATTEMPTS,
        storeOTP: 'hashed',
        sendVerificationOnSignUp: true,
        overrideDefaultEmailVerification: true,
        changeEmail: { enabled: true },
        sendVerificationOTP: async ({ email, otp, type }, ctx) => {
          if (type === 'sign-in') return
          if (type === 'change-email') {
            // The new address has no account yet: write in the language of the one asking.
            const sessionUser = ctx?.context.session?.user as { language?: unknown } | undefined
            const language = isLanguage(sessionUser?.language)
              ? sessionUser.language
              : DEFAULT_LANGUAGE
            await sendCode(email, 'change-email', otp, language)
            return
          }
          const purpose = type === 'forget-password' ? 'reset-password' : 'sign-up'
          await sendCode(email, purpose, otp, await languageOf(email))
        },
      }),
    ],
  })
}

/**
 * Accounts through better-auth (credentials, sessions, one-time codes) on our own database.
 * better-auth's HTTP handler is not mounted: our account routes validate, rate-limit and check
 * the human check first, then call `app.auth.api.*` on the server.
 */
export const authPlugin = fp<{ config: Config; mail: AuthMail }>(
  async (app, { config, mail }) => {
    app.decorate('auth', createAuth(app, config, mail))
    // better-auth's answer for a cookie, kept while the session entries it read are unchanged
    // (session-answers.ts): sign-out and revocation delete them, so they still count at once.
    const answers = sessionAnswers<Readonly<SignedIn>>({
      getSession: async (cookie) => {
        // better-auth answers a storage it cannot read with a 500 of its own: a shared Redis
        // that is away is said as such (503, try again shortly), never as an error or a sign-out.
        if (!app.cache.ready()) throw new AppError(503, 'errors.storeUnavailable', 5)
        const { headers, response: found } = await app.auth.api
          .getSession({ headers: new Headers({ cookie }), returnHeaders: true })
          .catch((error: unknown) => {
            const cause = (error as { cause?: unknown }).cause
            throw cause instanceof AppError ? cause : error
          })
        if (!found) return null
        return {
          user: Object.freeze({
            user: Object.freeze(toAuthUser(found.user as Record<string, unknown>)),
            sessionId: found.session.id,
          }),
          expiresAt: new Date(found.session.expiresAt),
          setCookie: headers.getSetCookie(),
        }
      },
      readStorage: (key) => app.cache.get(storageKey(key)),
    })
    // Found once per request: the signed-in-by-default hook below, the access gate and the
    // handler all ask.
    const signedIn = new WeakMap<FastifyRequest, Promise<Readonly<SignedIn> | null>>()
    // A session in use is renewed by better-auth a day after its last renewal; the cookie it
    // sets then (30 more days) goes out with the answer, or the browser would drop the session
    // 30 days after signing in, however often it was used.
    const renewed = new WeakMap<FastifyRequest, string[]>()
    const getSignedIn = (request: FastifyRequest) => {
      let found = signedIn.get(request)
      if (!found) {
        found = answers(request.headers.cookie, (cookies) => renewed.set(request, cookies))
        signedIn.set(request, found)
      }
      return found
    }
    const getUser = async (request: FastifyRequest) => (await getSignedIn(request))?.user ?? null
    app.addHook('onSend', (request, reply, payload, done) => {
      const cookies = renewed.get(request)
      if (cookies) {
        // Before the route's own (a sign-out's, say), which must have the last word.
        const own = reply.getHeader('set-cookie')
        const owned = own === undefined ? [] : Array.isArray(own) ? own : [String(own)]
        reply.removeHeader('set-cookie')
        reply.header('set-cookie', [...cookies, ...owned])
      }
      done(null, payload)
    })
    const requireUser = async (request: FastifyRequest) => {
      const user = await getUser(request)
      if (!user) throw signInRequired()
      return user
    }
    app.decorate('getUser', getUser)
    app.decorate(
      'getSessionId',
      async (request: FastifyRequest) => (await getSignedIn(request))?.sessionId ?? null,
    )
    app.decorate('requireUser', requireUser)
    // Signed in by default: a route under /api that forgets to ask still cannot leak.
    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.routeOptions.config.public) return
      if (!request.routeOptions.url?.startsWith('/api/')) return
      await requireUser(request)
    })
  },
  { name: 'auth', dependencies: ['db', 'mail', 'cache'] },
)
