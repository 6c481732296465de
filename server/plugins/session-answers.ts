import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'

// better-auth's getSession checks the cookie's signature with Web Crypto and builds an endpoint
// context on every call: about 300 µs of CPU, six times the rest of a signed-in read. Its answer
// for a cookie changes only when what it read changes, and everything it reads comes through
// the secondary storage we give it. So the answer is kept per cookie header, together with the
// storage entries better-auth read to give it, and it is believed again only while every one of
// those entries is unchanged in the shared cache: a sign-out, a revocation, a renewal or a
// change to the user rewrites or deletes the entry, in this process or another (Redis), and the
// next request asks better-auth again. Nothing here knows how better-auth names its keys or
// signs its cookies (docs/decisions/0020-public-apis-on-node-24.md).

/** What the secondary storage handed out during one getSession call. */
interface Reads {
  /** The first value each key gave. */
  values: Map<string, string | null>
  /**
   * A key gave two values in one call: something changed while better-auth was answering (a
   * sign-out between its read and its renewal), so the answer may rest on either.
   */
  moved: boolean
}

const reads = new AsyncLocalStorage<Reads>()

/** Called by the secondary storage's `get` with every value it returns. */
export function recordStorageRead(key: string, value: string | null): void {
  const current = reads.getStore()
  if (!current) return
  if (!current.values.has(key)) current.values.set(key, value)
  else if (current.values.get(key) !== value) current.moved = true
}

export interface SessionAnswer<User> {
  user: User
  /** When the session ends (better-auth's `session.expiresAt`). */
  expiresAt: Date
  /** Cookies better-auth set while answering: a renewed session's, for the browser. */
  setCookie?: string[]
}

interface Kept<User> {
  user: User
  /** Storage keys better-auth read for this answer, with the value each had. */
  read: Map<string, string | null>
  expiresAt: number
  /** When better-auth is asked again, whatever the storage says. */
  askAgainAt: number
}

/** Cookie headers whose answer is kept; more are asked of better-auth each time. */
const KEPT_ANSWERS = 10_000
/** Kept by a digest of the header: a client cannot make the memo hold its padded headers. */
const digest = (cookieHeader: string) => createHash('sha256').update(cookieHeader).digest('base64')
/**
 * better-auth renews a session that is used when it is due (a day after the last renewal), and
 * only a call of its own can do that: it is asked at least this often for each cookie.
 */
const ASK_AGAIN_AFTER_MS = 60_000

/**
 * `ask(cookieHeader, onCookies)` answers as `getSession` would: the user of a valid session, or
 * null; `onCookies` gets the cookies better-auth set when it was asked (a renewal). `getSession`
 * is better-auth's; `readStorage` reads an entry of its secondary storage as better-auth would
 * see it.
 */
export function sessionAnswers<User>(options: {
  getSession(cookieHeader: string): Promise<SessionAnswer<User> | null>
  readStorage(key: string): Promise<string | null>
}) {
  const kept = new LRUCache<string, Kept<User>>({ max: KEPT_ANSWERS })
  const stillTrue = async (answer: Kept<User>) => {
    const now = Date.now()
    if (answer.expiresAt <= now || answer.askAgainAt <= now) return false
    for (const [key, value] of answer.read) {
      if ((await options.readStorage(key)) !== value) return false
    }
    return true
  }
  return async function ask(
    cookieHeader: string | undefined,
    onCookies?: (setCookie: string[]) => void,
  ): Promise<User | null> {
    // Without a cookie there is no session to find.
    if (!cookieHeader) return null
    const key = digest(cookieHeader)
    const known = kept.get(key)
    if (known && (await stillTrue(known))) return known.user
    // Unless another request has kept a newer answer meanwhile.
    if (known && kept.get(key) === known) kept.delete(key)
    const read: Reads = { values: new Map(), moved: false }
    const answer = await reads.run(read, () => options.getSession(cookieHeader))
    if (!answer) return null
    if (answer.setCookie?.length) onCookies?.(answer.setCookie)
    // An empty entry read is as much part of the answer as a full one (better-auth reads
    // whether the user's sessions were revoked). But an answer for which every entry was empty
    // came from the database, and a later change there could not be seen here: not kept.
    if (!read.moved && [...read.values.values()].some((value) => value !== null)) {
      kept.set(key, {
        user: answer.user,
        read: read.values,
        expiresAt: answer.expiresAt.getTime(),
        askAgainAt: Date.now() + ASK_AGAIN_AFTER_MS,
      })
    }
    return answer.user
  }
}
