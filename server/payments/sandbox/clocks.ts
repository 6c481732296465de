import { sql } from 'drizzle-orm'
import { GatewayError, type RequestOptions } from '../gateway'
import type { StoredCustomer } from './plans'
import { missing, nowSeconds, type SandboxStore, sandboxData, sandboxId } from './store'

// The sandbox's test clocks, as Stripe's test-clock API has them: a clock that customers are made
// on, moved forward as one, whose customers' renewals, retries and ends run as it passes them.
//
// The sandbox's time does not stand still as Stripe's does. A Stripe clock is frozen: its time
// moves only when it is advanced. Here every customer's time is real time plus an offset (so the
// plans' jobs run at real moments), and a clock is only that offset: its customers take it when
// they are made on it, and advancing the clock advances each of them by the difference. So a
// clock's `frozen_time` is real now plus its offset, and goes on moving between two advances.

/** A clock as the store keeps it; its time is computed when it is read. */
interface StoredTestClock {
  id: string
  object: 'test_clock'
  name: string | null
  created: number
  status: 'ready' | 'advancing' | 'internal_failure'
  sandbox: {
    /** The offset from real time of the clock and of every customer on it. */
    advanced_seconds: number
    /** While advancing: the offset it is moving its customers to. */
    target_seconds?: number
  }
}

/** A test clock as the sandbox answers it, its times read now. */
export interface SandboxTestClock {
  id: string
  object: 'test_clock'
  name: string | null
  created: number
  /** Real now plus the clock's offset: it runs on between advances, unlike Stripe's. */
  frozen_time: number
  status: StoredTestClock['status']
  /** While advancing, where to (Stripe's `status_details.advancing.target_frozen_time`). */
  target_frozen_time: number | null
}

const publicClock = (clock: StoredTestClock, now = nowSeconds()): SandboxTestClock => ({
  id: clock.id,
  object: 'test_clock',
  name: clock.name,
  created: clock.created,
  frozen_time: now + clock.sandbox.advanced_seconds,
  status: clock.status,
  target_frozen_time:
    clock.sandbox.target_seconds === undefined ? null : now + clock.sandbox.target_seconds,
})

/**
 * Stripe takes seconds to advance a clock. The sandbox takes at least this long, so whoever
 * advances one must wait for `ready` as on Stripe, rather than find it ready by luck.
 */
const ADVANCING_AT_LEAST_MS = 100

const refused = (message: string) => new GatewayError('invalid_request_error', message)

/** Stripe's refusal of a frozen_time that is not after the clock's. */
export const notForward = (from: number) =>
  refused(
    `The frozen_time must be after the test clock's current frozen time (${from}): a test clock only moves forward.`,
  )

export const advancingRefusal = (id: string) =>
  refused(
    `The test clock ${id} is advancing: wait until its status is ready before advancing it or adding customers to it.`,
  )

export function sandboxClocks(context: {
  store: SandboxStore
  /** Moves a customer's own offset by `seconds` and runs what became due (plans.advanceClock). */
  advanceCustomer(customer: string, seconds: number): Promise<number>
}) {
  const { store } = context

  async function stored(id: string): Promise<StoredTestClock> {
    const clock = await store.retrieve<StoredTestClock>(id, 'test_clock')
    if (!clock) throw missing('test_clock', id)
    return clock
  }

  const customersOn = (clock: string) =>
    store.listAll<StoredCustomer>(
      'customer',
      sql`${sandboxData}->'sandbox'->>'test_clock' = ${clock}`,
    )

  /** Brings each customer of the clock to its target offset, then marks the clock ready. */
  async function run(id: string, target: number): Promise<SandboxTestClock> {
    await new Promise((resolve) => setTimeout(resolve, ADVANCING_AT_LEAST_MS))
    try {
      // Each customer to the clock's new offset rather than by the step, so the clock and its
      // customers stay on one time even if one of them was left behind by a failed advance.
      for (const customer of await customersOn(id)) {
        await context.advanceCustomer(
          customer.id,
          Math.max(0, target - (customer.sandbox?.advanced_seconds ?? 0)),
        )
      }
    } catch (error) {
      const failed = await store.change<StoredTestClock>(id, 'test_clock', (current) => ({
        ...current,
        status: 'internal_failure',
      }))
      if (!failed) throw error
      return publicClock(failed)
    }
    const ready = await store.change<StoredTestClock>(id, 'test_clock', (current) => ({
      ...current,
      status: 'ready',
      sandbox: { advanced_seconds: target },
    }))
    if (!ready) throw missing('test_clock', id)
    return publicClock(ready)
  }

  return {
    /** A new clock whose time is `frozenTime` now; Stripe allows a time past or future. */
    async create(
      input: { frozenTime: number; name: string | null },
      options?: RequestOptions,
    ): Promise<SandboxTestClock> {
      const id = sandboxId('clock')
      const now = nowSeconds()
      const clock = await store.create<StoredTestClock>(
        'test_clock',
        id,
        () => ({
          id,
          object: 'test_clock',
          name: input.name,
          created: now,
          status: 'ready',
          sandbox: { advanced_seconds: input.frozenTime - now },
        }),
        options,
      )
      return publicClock(clock)
    },

    async retrieve(id: string): Promise<SandboxTestClock | null> {
      const clock = await store.retrieve<StoredTestClock>(id, 'test_clock')
      return clock ? publicClock(clock) : null
    },

    /** Every clock, newest first. */
    async list(): Promise<SandboxTestClock[]> {
      const now = nowSeconds()
      return (await store.listAll<StoredTestClock>('test_clock')).map((clock) =>
        publicClock(clock, now),
      )
    },

    /** The offset a customer made on the clock starts with; an advancing clock takes none. */
    async offsetForNewCustomer(id: string): Promise<number> {
      const clock = await stored(id)
      if (clock.status === 'advancing') throw advancingRefusal(id)
      return clock.sandbox.advanced_seconds
    },

    /**
     * Starts moving the clock to `to` (a frozen_time) or `by` seconds, as Stripe's advance does:
     * the clock is `advancing` at once, which is answered, and `done` settles once every
     * customer on it has been advanced and has run what became due, the clock `ready` again
     * (`internal_failure` if that failed). Refused for a time that is not after the clock's.
     */
    async advance(
      id: string,
      step: { to: number } | { by: number },
    ): Promise<{ clock: SandboxTestClock; done: Promise<SandboxTestClock> }> {
      const now = nowSeconds()
      let target = 0
      let refusal = null as GatewayError | null
      const claimed = await store.change<StoredTestClock>(id, 'test_clock', (current) => {
        if (current.status === 'advancing') {
          refusal = advancingRefusal(id)
          return current
        }
        const from = now + current.sandbox.advanced_seconds
        const to = 'to' in step ? step.to : from + step.by
        if (to <= from) {
          refusal = notForward(from)
          return current
        }
        target = current.sandbox.advanced_seconds + (to - from)
        return {
          ...current,
          status: 'advancing',
          sandbox: { ...current.sandbox, target_seconds: target },
        }
      })
      if (!claimed) throw missing('test_clock', id)
      if (refusal) throw refusal
      return { clock: publicClock(claimed, now), done: run(id, target) }
    },
  }
}

export type SandboxClocks = ReturnType<typeof sandboxClocks>
