import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { passHumanCheckIn } from '../../../tests/support/human-check'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'

// Whether an address has an account must not show in how long forgot-password or resend-code
// take to answer. Each endpoint is asked in pairs, one known and one unknown address back to
// back in a random order, and the differences within pairs are put to a signed-rank test
// (Wilcoxon), which needs no assumption about their shape. Pairing matters on a shared machine:
// a busy spell slows both answers of a pair alike, where comparing the two groups as wholes once
// read such a spell as a difference (CI, forgot-password, z = 3.36). The background work a
// request queues (more for a known address) runs 0.5 to 2 s later, on whichever request is
// being answered then, so it weighs on either kind alike.

const SAMPLES = 40

let environment: TestEnvironment
let app: FastifyInstance

beforeAll(async () => {
  environment = await createTestEnvironment()
  app = await environment.build()
})

afterAll(async () => {
  await app.close()
  await environment.destroy()
})

let requests = 0
/** A fresh client address per request, so per-address limits never answer instead. */
const nextAddress = () => {
  const n = ++requests
  return `10.${100 + Math.floor(n / 60000)}.${Math.floor(n / 250) % 240}.${(n % 250) + 1}`
}

const humanCheck = () => passHumanCheckIn(app)

/** An account, confirmed or not, made directly through better-auth. */
async function account(confirmed: boolean): Promise<string> {
  const email = `known-${randomBytes(6).toString('hex')}@example.com`
  await app.auth.api.signUpEmail({ body: { name: 'Known', email, password: 'Calm-Water-432' } })
  if (confirmed) {
    await app.database.executeSql('update "user" set email_verified = true where email = $1', [
      email,
    ])
  }
  return email
}

/** A fixed-seed generator of coin flips, so a failure can be replayed. */
function coins(seed = 42): () => boolean {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state >= 2 ** 30
  }
}

/**
 * The z score of the Wilcoxon signed-rank test on paired differences (normal approximation;
 * zero differences dropped, ties given mid-ranks). Positive when the first of each pair is slower.
 */
function signedRankZ(differences: number[]): number {
  const nonZero = differences.filter((d) => d !== 0).sort((x, y) => Math.abs(x) - Math.abs(y))
  const n = nonZero.length
  if (n === 0) return 0
  let positive = 0
  let tieCorrection = 0
  for (let i = 0; i < n; ) {
    let j = i
    while (j + 1 < n && Math.abs(nonZero[j + 1] ?? 0) === Math.abs(nonZero[i] ?? 0)) j++
    const rank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) if ((nonZero[k] ?? 0) > 0) positive += rank
    const tied = j - i + 1
    tieCorrection += tied ** 3 - tied
    i = j + 1
  }
  const mean = (n * (n + 1)) / 4
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieCorrection / 48)
  return (positive - mean) / sd
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function timed(url: string, email: string): Promise<number> {
  const payload = { email, humanCheck: await humanCheck() }
  const started = process.hrtime.bigint()
  const response = await app.inject({ method: 'POST', url, payload, remoteAddress: nextAddress() })
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6
  expect(response.statusCode).toBe(200)
  return elapsed
}

async function compare(url: string, confirmed: boolean) {
  const known: string[] = []
  for (let i = 0; i < SAMPLES; i++) known.push(await account(confirmed))
  // A few answers first, so the first measured ones do not pay for warming up.
  for (let i = 0; i < 5; i++) await timed(url, `warm-${i}@example.com`)
  const knownFirst = coins()
  const times = { known: [] as number[], unknown: [] as number[] }
  for (const email of known) {
    const unknown = `nobody-${randomBytes(6).toString('hex')}@example.com`
    if (knownFirst()) {
      times.known.push(await timed(url, email))
      times.unknown.push(await timed(url, unknown))
    } else {
      times.unknown.push(await timed(url, unknown))
      times.known.push(await timed(url, email))
    }
  }
  const z = signedRankZ(times.known.map((time, i) => time - (times.unknown[i] ?? 0)))
  console.info(
    `${url}: median ${median(times.known).toFixed(2)} ms for known addresses, ` +
      `${median(times.unknown).toFixed(2)} ms for unknown ones (${SAMPLES} pairs), z = ${z.toFixed(2)}`,
  )
  // |z| above 3.29 would mean the two differ with p < 0.001.
  expect(Math.abs(z)).toBeLessThan(3.29)
}

describe('answer times do not tell registered addresses apart', () => {
  it('forgot-password', () => compare('/api/account/forgot-password', true), 240_000)
  it('resend-code', () => compare('/api/account/resend-code', false), 240_000)
})

describe('the signed-rank test itself', () => {
  it('sees a real difference and ignores none', () => {
    const slower = Array.from({ length: 40 }, (_, i) => 100 + (i % 7) - (10 + (i % 5)))
    expect(signedRankZ(slower)).toBeGreaterThan(5)
    expect(signedRankZ(slower.map((d) => -d))).toBeLessThan(-5)
    const flip = coins(7)
    const noise = Array.from({ length: 40 }, (_, i) => (flip() ? 1 : -1) * (1 + (i % 9)))
    expect(Math.abs(signedRankZ(noise))).toBeLessThan(3.29)
    expect(signedRankZ([0, 0, 0])).toBe(0)
  })
})
