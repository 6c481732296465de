import { hkdfSync, randomInt } from 'node:crypto'
import { createChallenge, verifySolution } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { lt } from 'drizzle-orm'
import fp from 'fastify-plugin'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { captchaSolutions } from '../../db/schema/security'
import type { Config } from '../config'
import { clientKey } from './rate-limit'

/**
 * The proof of work (ALTCHA v2, deterministic mode). The server picks a secret counter, derives
 * PBKDF2-HMAC-SHA-256(salt, nonce ‖ counter) with CAPTCHA_COST iterations, and sends the first
 * half of that key; the browser must try counters 0, 1, 2… until one derives a matching key.
 *
 * Why PBKDF2/SHA-256 with CAPTCHA_COST as its iteration count (ALTCHA's own `cost`):
 * - every attempt is one native WebCrypto call that runs CAPTCHA_COST iterations, so the browser
 *   spends its time hashing, as a native bot would (SHA-256 with one round per attempt is ~30 µs
 *   of call overhead in Chromium against 3 µs in Node, so a bot would be 10× faster than a
 *   desktop browser and more than a phone);
 * - it needs no WASM and little memory (the Argon2/scrypt workers are ~45 KB each and can run a
 *   cheap phone out of memory), and the widget's PBKDF2 worker is 2.5 KB;
 * - the counter is drawn from COUNTER_MIN…COUNTER_MAX, so every visitor waits about the same
 *   time (a random key prefix would make some wait three times the average).
 * Measured at 100 000: one attempt takes 27–38 ms on a desktop core (Node and Chromium alike);
 * Node solves a challenge on one thread in 1.9–3.6 s, and the widget in Chromium with 2 workers
 * (2 cores) in 1.3–1.9 s. The widget runs up to 4 workers on a phone with ≤ 4 GB of memory and
 * one per core otherwise, so at 1.5–2.5× slower cores a phone takes about 1–2 s. Tests set
 * 1000 (a few milliseconds).
 * The server derives the key once per challenge (one attempt, 27–38 ms on the libuv pool, about
 * the cost of one password hash) and verifies with two HMACs, so a flood of bogus solutions
 * costs it nothing; the challenge endpoint belongs behind a rate limit like sign-in.
 */
export const CAPTCHA_ALGORITHM = 'PBKDF2/SHA-256'
const COUNTER_MIN = 50
const COUNTER_MAX = 100
/** How long a challenge can be solved and its solution used. */
export const CAPTCHA_TTL_MS = 10 * 60_000
/**
 * Used solutions are kept this long past their expiry before clean-up, so a process whose clock
 * runs behind cannot accept a solution another process already forgot.
 */
const CLOCK_SKEW_MS = 5 * 60_000
/** A real payload is about 700 characters; anything far larger is not worth parsing. */
const MAX_PAYLOAD_LENGTH = 4096

const hex = z.string().regex(/^(?:[0-9a-f]{2})+$/)

/** Exactly what we issue: a payload carrying anything else was not made from our challenge. */
const challengeParametersSchema = z.strictObject({
  algorithm: z.literal(CAPTCHA_ALGORITHM),
  nonce: hex,
  salt: hex,
  cost: z.number().int().positive(),
  keyLength: z.number().int().positive(),
  keyPrefix: hex,
  // Required: with it, verification is an HMAC instead of a key derivation.
  keySignature: hex,
  expiresAt: z.number().int().positive(),
})

/** The challenge the ALTCHA widget fetches. */
export const captchaChallengeSchema = z.strictObject({
  parameters: challengeParametersSchema,
  signature: hex,
})
export type CaptchaChallenge = z.infer<typeof captchaChallengeSchema>

/** What the widget hands to forms, base64-encoded: the challenge back plus the counter found. */
const payloadSchema = z.object({
  challenge: captchaChallengeSchema,
  solution: z.object({
    counter: z.number().int().nonnegative(),
    derivedKey: hex,
    time: z.number().optional(),
  }),
})

export interface CaptchaKeys {
  /** Signs the challenge parameters, so none can be changed. */
  signature: string
  /** Signs the expected derived key, so checking a solution needs no key derivation. */
  keySignature: string
}

/**
 * The two HMAC secrets of the human check, derived from AUTH_SECRET with HKDF and a label each,
 * so nothing new has to be stored and no other use of AUTH_SECRET shares a key with them.
 */
export function captchaKeys(authSecret: string): CaptchaKeys {
  const derive = (label: string) =>
    Buffer.from(hkdfSync('sha256', authSecret, '', `harmonize/captcha/${label}`, 32)).toString(
      'hex',
    )
  return { signature: derive('challenge-signature'), keySignature: derive('key-signature') }
}

/**
 * Creates a signed challenge of `cost` PBKDF2 iterations per attempt. `expiresAt` defaults to
 * CAPTCHA_TTL_MS from now; tests pass a past date to get an expired one.
 */
export async function createCaptchaChallenge(
  keys: CaptchaKeys,
  cost: number,
  expiresAt: Date = new Date(Date.now() + CAPTCHA_TTL_MS),
): Promise<CaptchaChallenge> {
  const challenge = await createChallenge({
    algorithm: CAPTCHA_ALGORITHM,
    cost,
    counter: randomInt(COUNTER_MIN, COUNTER_MAX + 1),
    deriveKey,
    expiresAt,
    hmacSignatureSecret: keys.signature,
    hmacKeySignatureSecret: keys.keySignature,
  })
  // Parsing our own output pins the shape the route promises and the payload check expects.
  return captchaChallengeSchema.parse(challenge)
}

/**
 * Checks a widget payload cryptographically: our signature, not expired, the right key found.
 * Returns what identifies the solution for the replay check, or null. Never throws on input.
 */
export async function checkCaptchaPayload(
  keys: CaptchaKeys,
  payload: unknown,
): Promise<{ signature: string; expiresAt: Date } | null> {
  if (typeof payload !== 'string' || payload.length === 0 || payload.length > MAX_PAYLOAD_LENGTH) {
    return null
  }
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'))
  } catch {
    return null
  }
  const parsed = payloadSchema.safeParse(decoded)
  if (!parsed.success) return null
  const { challenge, solution } = parsed.data
  try {
    const result = await verifySolution({
      challenge,
      solution,
      deriveKey,
      hmacSignatureSecret: keys.signature,
      hmacKeySignatureSecret: keys.keySignature,
    })
    if (!result.verified) return null
  } catch {
    return null
  }
  return {
    signature: challenge.signature,
    expiresAt: new Date(challenge.parameters.expiresAt * 1000),
  }
}

export interface Captcha {
  /**
   * True only for a valid, unexpired solution of a challenge we signed that was never used
   * before, in this or any other process: the first use records it in `captcha_solution`.
   * Database failures are thrown (they are our problem, not the visitor's).
   */
  verify(payload: string | undefined): Promise<boolean>
}

declare module 'fastify' {
  interface FastifyInstance {
    captcha: Captcha
  }
}

/**
 * The human check (ALTCHA, self-hosted proof of work): `GET /api/captcha/challenge` for the
 * widget and `app.captcha.verify()` for the routes that require a passed check.
 */
/** Generous for people (each form needs one), tight for a script asking in a loop. */
const CHALLENGES_PER_IP = { limit: 120, windowMs: 10 * 60_000 }

export const captchaPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const keys = captchaKeys(app.secrets.authSecret)

    const verify = async (payload: string | undefined): Promise<boolean> => {
      const solution = await checkCaptchaPayload(keys, payload)
      if (!solution) return false
      // The primary key makes this the replay check: a second insert of the same signature, by
      // any process, conflicts and returns no row.
      const inserted = await app.db
        .insert(captchaSolutions)
        .values(solution)
        .onConflictDoNothing()
        .returning({ signature: captchaSolutions.signature })
      if (inserted.length === 0) return false
      await app.db
        .delete(captchaSolutions)
        .where(lt(captchaSolutions.expiresAt, new Date(Date.now() - CLOCK_SKEW_MS)))
      return true
    }
    app.decorate('captcha', { verify })

    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/captcha/challenge',
      {
        config: { public: true },
        schema: {
          tags: ['accounts'],
          summary: 'A new proof-of-work challenge for the human check (ALTCHA widget format)',
          response: { 200: captchaChallengeSchema },
        },
      },
      async (request, reply) => {
        // Making a challenge costs the server a key derivation: cap it per client address.
        await app.rateLimiter.consume(`captcha:ip:${clientKey(request.ip)}`, CHALLENGES_PER_IP)
        // Each challenge is single-use; a cached one would be refused as a replay.
        reply.header('cache-control', 'no-store')
        return createCaptchaChallenge(keys, config.CAPTCHA_COST)
      },
    )
  },
  { name: 'captcha', dependencies: ['db', 'rate-limit'] },
)
