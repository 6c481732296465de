import Stripe from 'stripe'
import { GatewayError, type TestClocks } from './gateway'
import { derivedKey } from './idempotency'
import { idOf } from './stripe-objects'
import { asGatewayError, call, orNull } from './stripe-requests'

// Stripe's test clocks, for the Stripe gateway in test mode. Each customer is made on a clock of
// its own, so `billing advance` moves one member's time (renewals, retries, ends) and nobody
// else's. Stripe advances a clock in the background and answers at once: the gateway waits
// until the clock is ready again before answering. Stripe also refuses to advance a clock past
// two intervals of its shortest subscription (two months here, or two years without one), so a
// long advance goes in steps of 31 days, within two of any month.

/** The longest single advance sent to Stripe. */
export const MAX_CLOCK_STEP_SECONDS = 31 * 86_400

/** How long one advance may take at Stripe before the gateway stops waiting for it. */
const READY_TIMEOUT_MS = 120_000
/** How long a clock made by an earlier try under the same key may take to be listed. */
const FIND_TIMEOUT_MS = 10_000
/** The first wait between two reads; each next one is half again as long, up to the last. */
const FIRST_POLL_MS = 50
const LAST_POLL_MS = 2_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Reads until `read` answers something (not null), waiting a little longer between reads each
 * time; null once `timeoutMs` has passed.
 */
export async function poll<T>(read: () => Promise<T | null>, timeoutMs: number): Promise<T | null> {
  const deadline = Date.now() + timeoutMs
  let delay = FIRST_POLL_MS
  for (;;) {
    const answer = await read()
    if (answer !== null) return answer
    const left = deadline - Date.now()
    if (left <= 0) return null
    await sleep(Math.min(delay, left))
    delay = Math.min(delay * 1.5, LAST_POLL_MS)
  }
}

export function stripeTestClocks(
  stripe: Stripe,
  { readyTimeoutMs = READY_TIMEOUT_MS }: { readyTimeoutMs?: number } = {},
) {
  const clocks = stripe.testHelpers.testClocks

  /** The clock once it is ready; one that failed, or still advancing at the limit, is an error. */
  async function ready(id: string): Promise<Stripe.TestHelpers.TestClock> {
    const clock = await poll(async () => {
      const now = await call(() => clocks.retrieve(id))
      if (now.status === 'internal_failure') {
        throw new Error(
          `Stripe's test clock ${id} failed to advance (internal_failure): its customer's time can no longer be moved; a new customer gets a new clock.`,
        )
      }
      return now.status === 'ready' ? now : null
    }, readyTimeoutMs)
    if (!clock) {
      throw new Error(
        `Stripe's test clock ${id} was still advancing after ${readyTimeoutMs / 1000} s. The advance goes on at Stripe; another one would wait for it, then move the clock further.`,
      )
    }
    return clock
  }

  /** The customer's clock, or null for a customer made without one. */
  async function clockOf(customerId: string): Promise<string | null> {
    const customer = await orNull(() => stripe.customers.retrieve(customerId))
    if (!customer || customer.deleted) {
      throw new GatewayError('resource_missing', `No such customer: '${customerId}'`)
    }
    return idOf(customer.test_clock ?? null)
  }

  /** The newest clock of this name, for a clock made by an earlier try that cannot be replayed. */
  async function named(name: string): Promise<string | null> {
    return call(async () => {
      for await (const clock of clocks.list({ limit: 100 })) {
        if (clock.name === name) return clock.id
      }
      return null
    })
  }

  /** The customer's time: its clock's frozen time, or real time for one without a clock. */
  async function nowOf(customerId: string): Promise<number> {
    const id = await clockOf(customerId)
    if (!id) return Math.floor(Date.now() / 1000)
    return (await call(() => clocks.retrieve(id))).frozen_time
  }

  const testClocks: TestClocks = {
    nowOf,
    async advanceClock(customerId, seconds) {
      const id = await clockOf(customerId)
      if (!id) {
        throw new GatewayError(
          'customer_without_test_clock',
          `Customer ${customerId} is not on a test clock, so its time cannot be moved: it was made before the gateway made customers on test clocks.`,
        )
      }
      // A clock still advancing (an earlier call that stopped waiting) is waited for first.
      let clock = await ready(id)
      let left = seconds
      // At least one step: a time that is not after the clock's is Stripe's to refuse.
      do {
        const step = Math.min(left, MAX_CLOCK_STEP_SECONDS)
        const params = { frozen_time: clock.frozen_time + step }
        // A retry of this step is done once; a clock never comes back to the same time.
        await call(() =>
          clocks.advance(id, params, {
            idempotencyKey: derivedKey('test-clock-advance', id, params),
          }),
        )
        clock = await ready(id)
        left -= step
      } while (left > 0)
      return clock.frozen_time
    },
  }

  return {
    testClocks,
    nowOf,

    /**
     * A clock for a new customer of the user, frozen at now and named after the user. The key
     * is the user's, not the moment's, so a retried creation makes one clock; a retry in
     * another second asks for another frozen_time under that key, which Stripe refuses, and the
     * clock the first try made is found by its name instead.
     */
    async clockFor(userId: string): Promise<string> {
      const name = `user ${userId}`
      const idempotencyKey = derivedKey('test-clock', userId, { name })
      try {
        const clock = await clocks.create(
          { frozen_time: Math.floor(Date.now() / 1000), name },
          { idempotencyKey },
        )
        return clock.id
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeIdempotencyError)) throw asGatewayError(error)
      }
      // The first try may still be running: its clock is listed once it is made.
      const found = await poll(() => named(name), FIND_TIMEOUT_MS)
      if (!found) {
        throw new Error(
          `A test clock for user ${userId} was asked for under ${idempotencyKey} before, but none named "${name}" can be found.`,
        )
      }
      return found
    },
  }
}
