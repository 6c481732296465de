import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { passHumanCheckIn } from '../../../tests/support/human-check'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'

// Whether an address has an account must not show in how long forgot-password or resend-code
// take to answer. Each endpoint is asked for known and unknown addresses in a shuffled order,
// and the two sets of answer times are compared with a rank test (Mann–Whitney U), which needs
// no assumption about their shape and shrugs off the odd slow answer of a busy machine. The
// background work a request queues (more for a known address) runs a random moment later, so
// it lands on later requests of either kind alike.

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

/** Deterministic shuffle (a fixed-seed generator), so a failure can be replayed. */
function shuffled<T>(items: T[], seed = 42): T[] {
  const out = [...items]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

/** The z score of the Mann–Whitney U test (normal approximation, ties given mid-ranks). */
function mannWhitneyZ(a: number[], b: number[]): number {
  const all = [
    ...a.map((value) => ({ value, a: true })),
    ...b.map((value) => ({ value, a: false })),
  ]
  all.sort((x, y) => x.value - y.value)
  const ranks = new Array<number>(all.length)
  for (let i = 0; i < all.length; ) {
    let j = i
    while (j + 1 < all.length && all[j + 1]?.value === all[i]?.value) j++
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1
    i = j + 1
  }
  const rankSumA = all.reduce((sum, entry, i) => sum + (entry.a ? (ranks[i] ?? 0) : 0), 0)
  const n1 = a.length
  const n2 = b.length
  const u = rankSumA - (n1 * (n1 + 1)) / 2
  const mean = (n1 * n2) / 2
  const sd = Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12)
  return (u - mean) / sd
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function compare(url: string, confirmed: boolean) {
  const known: string[] = []
  for (let i = 0; i < SAMPLES; i++) known.push(await account(confirmed))
  const plan = shuffled([
    ...known.map((email) => ({ email, known: true })),
    ...Array.from({ length: SAMPLES }, () => ({
      email: `nobody-${randomBytes(6).toString('hex')}@example.com`,
      known: false,
    })),
  ])
  // A few answers first, so the first measured ones do not pay for warming up.
  for (let i = 0; i < 5; i++) {
    await app.inject({
      method: 'POST',
      url,
      payload: { email: `warm-${i}@example.com`, humanCheck: await humanCheck() },
      remoteAddress: nextAddress(),
    })
  }
  const times = { known: [] as number[], unknown: [] as number[] }
  for (const step of plan) {
    const payload = { email: step.email, humanCheck: await humanCheck() }
    const started = process.hrtime.bigint()
    const response = await app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: nextAddress(),
    })
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6
    expect(response.statusCode).toBe(200)
    ;(step.known ? times.known : times.unknown).push(elapsed)
  }
  const z = mannWhitneyZ(times.known, times.unknown)
  console.info(
    `${url}: median ${median(times.known).toFixed(2)} ms for known addresses, ` +
      `${median(times.unknown).toFixed(2)} ms for unknown ones (n = ${SAMPLES} each), z = ${z.toFixed(2)}`,
  )
  // |z| above 3.29 would mean the two differ with p < 0.001.
  expect(Math.abs(z)).toBeLessThan(3.29)
}

describe('answer times do not tell registered addresses apart', () => {
  it('forgot-password', () => compare('/api/account/forgot-password', true), 240_000)
  it('resend-code', () => compare('/api/account/resend-code', false), 240_000)
})

describe('the rank test itself', () => {
  it('sees a real difference and ignores none', () => {
    const slow = Array.from({ length: 40 }, (_, i) => 120 + (i % 7))
    const fast = Array.from({ length: 40 }, (_, i) => 12 + (i % 5))
    expect(mannWhitneyZ(slow, fast)).toBeGreaterThan(5)
    const same = Array.from({ length: 40 }, (_, i) => 10 + (i % 9))
    expect(Math.abs(mannWhitneyZ(same, shuffled(same, 7)))).toBeLessThan(0.5)
  })
})
