// Test data made straight on a built app: users, sessions, access and media. Vitest calls these
// with the app it built; Playwright reaches the same functions in the e2e server's process
// through the harness port (tests/e2e/support/serve.ts). Only the sign-up tests go through the
// forms and the mailed code; everything else starts here, in milliseconds instead of seconds.
import { createHmac } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { mediaFiles, users } from '../../db/schema'
import type { OperatorMedia } from '../../domain/harmonize'
import type { Language } from '../../domain/i18n'
import { createCodes, redeemCode } from '../../server/features/access/service'
import { addMedia, removeMedia } from '../../server/features/harmonize/media'
import { failOnUnsentMail } from '../../server/plugins/auth'
import { TEST_PASSWORD, uniqueEmail } from './identities'

export { TEST_PASSWORD, uniqueEmail }

export interface UserOptions {
  email?: string
  name?: string
  password?: string
  language?: Language
  /**
   * false: signed up the way a visitor is (better-auth's sign-up, which mails a code) and left
   * unconfirmed, with no session. Default true: confirmed, no mail sent.
   */
  confirmed?: boolean
  /** true: an access code is made and redeemed for the user, which opens the panels. */
  access?: boolean
  /** The session's cookie outlives the browser (the 'Remember me' box). Default false. */
  rememberMe?: boolean
}

export interface TestUser {
  id: string
  email: string
  password: string
  name: string
  language: Language
}

/** One cookie of a session, as a browser would store it. */
export interface TestCookie {
  name: string
  value: string
  /** Seconds to live; absent for a cookie that ends with the browser. */
  maxAge?: number
}

export interface TestSession {
  cookies: TestCookie[]
  /** The cookies as one `cookie` request header, for `app.inject`. */
  header: string
}

// better-auth stores one Argon2id hash per password; hashing the shared test password once per
// process instead of once per user saves ~70 ms a user (more on a busy machine).
const hashes = new Map<string, Promise<string>>()

async function authContext(app: FastifyInstance) {
  return app.auth.$context
}

/**
 * A user in the app's database. Confirmed users are written through better-auth's own adapter
 * (the rows its sign-up would write, without the mail) and come with a signed-in session;
 * unconfirmed ones go through its sign-up, so the confirmation code really is mailed.
 */
export async function buildUser(
  app: FastifyInstance,
  options: UserOptions = {},
): Promise<{ user: TestUser; session: TestSession | null }> {
  const email = (options.email ?? uniqueEmail()).toLowerCase()
  const password = options.password ?? TEST_PASSWORD
  const name = options.name ?? 'Test Member'
  const language = options.language ?? 'en'
  let id: string
  if (options.confirmed === false) {
    await failOnUnsentMail(() =>
      app.auth.api.signUpEmail({ body: { name, email, password, language } }),
    )
    const [row] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, email))
    if (!row) throw new Error(`sign-up did not create ${email}`)
    id = row.id
  } else {
    const context = await authContext(app)
    let hash = hashes.get(password)
    if (!hash) {
      hash = context.password.hash(password)
      hashes.set(password, hash)
    }
    const created = await context.internalAdapter.createUser(
      { email, name, emailVerified: true, language },
      { method: 'email-password' },
    )
    await context.internalAdapter.linkAccount({
      userId: created.id,
      providerId: 'credential',
      accountId: created.id,
      password: await hash,
    })
    id = created.id
  }
  const user: TestUser = { id, email, password, name, language }
  if (options.access) await grantAccess(app, user.id)
  const session =
    options.confirmed === false ? null : await createSession(app, user.id, options.rememberMe)
  return { user, session }
}

/**
 * A signed-in session for a confirmed user, made the way better-auth's sign-in makes one: a
 * session row and its token in a cookie signed with the app's secret. No password check, no
 * human check, no rate limit: tests of those go through the sign-in route.
 */
export async function createSession(
  app: FastifyInstance,
  userId: string,
  rememberMe = false,
): Promise<TestSession> {
  const [row] = await app.db
    .select({ confirmed: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId))
  if (!row) throw new Error(`no user ${userId}`)
  // The app refuses to sign in an unconfirmed address; a test must not get past that unseen.
  if (!row.confirmed) throw new Error(`user ${userId} has not confirmed the address`)
  const context = await authContext(app)
  const session = await context.internalAdapter.createSession(userId, !rememberMe)
  // better-call's signed cookie: value, a dot, the base64 HMAC-SHA256 of the value, URI-encoded.
  const signed = (value: string) =>
    encodeURIComponent(
      `${value}.${createHmac('sha256', context.secret).update(value).digest('base64')}`,
    )
  const cookies: TestCookie[] = [
    {
      name: context.authCookies.sessionToken.name,
      value: signed(session.token),
      ...(rememberMe ? { maxAge: context.sessionConfig.expiresIn } : {}),
    },
  ]
  if (!rememberMe) {
    cookies.push({ name: context.authCookies.dontRememberToken.name, value: signed('true') })
  }
  return { cookies, header: cookies.map(({ name, value }) => `${name}=${value}`).join('; ') }
}

/** A fresh access code (what the operator command makes), not yet redeemed. */
export async function createAccessCode(app: FastifyInstance): Promise<string> {
  const [code] = await createCodes(app.db, 1, 'test factory')
  if (!code) throw new Error('no access code was made')
  return code
}

/** Opens the panels for the user: a fresh access code redeemed through the access service. */
export async function grantAccess(app: FastifyInstance, userId: string): Promise<string> {
  const code = await createAccessCode(app)
  await redeemCode(app.db, userId, code)
  return code
}

export interface MediaOptions {
  /** File name; a backing track's key gets the `WH_BackingTrack` marker. Kept unique by the caller. */
  name: string
  data: Buffer
  /** The panel it belongs to; null: every panel's. */
  panelId: string | null
  backing?: boolean
}

/** A media file stored and recorded through the media service, as the operator command adds it. */
export async function buildMedia(
  app: FastifyInstance,
  options: MediaOptions,
): Promise<OperatorMedia> {
  return addMedia(app.db, app.storage, options)
}

/** Re-assigns media files to another panel (or to every panel, with null). */
export async function moveMedia(
  app: FastifyInstance,
  keys: string[],
  panelId: string | null,
): Promise<void> {
  if (keys.length === 0) return
  await app.db.update(mediaFiles).set({ panelId }).where(inArray(mediaFiles.key, keys))
}

/** Removes media files and their bytes. */
export async function destroyMedia(app: FastifyInstance, keys: string[]): Promise<void> {
  for (const key of keys) await removeMedia(app.db, app.storage, key)
}
