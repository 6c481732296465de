import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { GatewayError } from './gateway'
import { MAX_CLOCK_STEP_SECONDS, poll, stripeTestClocks } from './stripe-clocks'

// How the Stripe gateway waits for a test clock, against a Stripe that answers what a test
// wants: what the sandbox's server never does (a clock that fails, or never gets ready). The
// advances themselves run against the sandbox in the contract suite.

const DAY = 86_400

/** A Stripe whose customer lives on `clock_one`, which answers `statuses` one read at a time. */
function stripeWith(statuses: Stripe.TestHelpers.TestClock.Status[], testClock: string | null) {
  let frozen = 1_800_000_000
  const reads: string[] = []
  const advances: number[] = []
  const stripe = {
    customers: {
      retrieve: async () => ({ id: 'cus_one', object: 'customer', test_clock: testClock }),
    },
    testHelpers: {
      testClocks: {
        retrieve: async (id: string) => {
          const status =
            statuses.length > 1 ? (statuses.shift() ?? 'ready') : (statuses[0] ?? 'ready')
          reads.push(status)
          return { id, object: 'test_helpers.test_clock', frozen_time: frozen, status }
        },
        advance: async (_id: string, params: { frozen_time: number }) => {
          advances.push(params.frozen_time)
          frozen = params.frozen_time
          return {}
        },
      },
    },
  }
  return { stripe: stripe as unknown as Stripe, reads, advances }
}

describe("the Stripe gateway's test clocks", () => {
  it('advances in steps of at most 31 days, waiting after each until the clock is ready', async () => {
    const { stripe, reads, advances } = stripeWith(
      ['ready', 'advancing', 'advancing', 'ready', 'advancing', 'ready', 'ready'],
      'clock_one',
    )
    const time = await stripeTestClocks(stripe).testClocks.advanceClock('cus_one', 40 * DAY)
    expect(advances).toEqual([1_800_000_000 + MAX_CLOCK_STEP_SECONDS, 1_800_000_000 + 40 * DAY])
    expect(time).toBe(1_800_000_000 + 40 * DAY)
    expect(reads).toEqual(['ready', 'advancing', 'advancing', 'ready', 'advancing', 'ready'])
  })

  it('fails clearly on a clock that failed, or that is still advancing at the limit', async () => {
    const failed = stripeWith(['ready', 'internal_failure'], 'clock_one')
    await expect(
      stripeTestClocks(failed.stripe).testClocks.advanceClock('cus_one', DAY),
    ).rejects.toThrow("Stripe's test clock clock_one failed to advance (internal_failure)")

    const slow = stripeWith(['ready', 'advancing'], 'clock_one')
    await expect(
      stripeTestClocks(slow.stripe, { readyTimeoutMs: 200 }).testClocks.advanceClock(
        'cus_one',
        DAY,
      ),
    ).rejects.toThrow("Stripe's test clock clock_one was still advancing after 0.2 s")
  })

  it('refuses a customer without a clock with a GatewayError', async () => {
    const { stripe, advances } = stripeWith(['ready'], null)
    const error = await stripeTestClocks(stripe)
      .testClocks.advanceClock('cus_one', DAY)
      .catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ code: 'customer_without_test_clock' })
    expect(advances).toEqual([])
  })

  it('polls with a growing delay and gives up at its limit', async () => {
    const times: number[] = []
    const answer = await poll(async () => {
      times.push(Date.now())
      return times.length === 4 ? 'done' : null
    }, 5_000)
    expect(answer).toBe('done')
    const waits = times.slice(1).map((time, index) => time - (times[index] ?? 0))
    expect(waits[2]).toBeGreaterThan(waits[0] ?? 0)
    expect(await poll(async () => null, 100)).toBeNull()
  })
})
