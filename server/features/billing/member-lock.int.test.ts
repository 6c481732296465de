import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { billingMemberLocks } from '../../../db/schema/billing'
import { apiCallsTo, billingCallsTo, memberWithCookie } from '../../../tests/support/api-calls'
import { setUpTestApp } from '../../../tests/support/test-app'
import { AppError } from '../../errors'
import { withMemberLock } from './member-lock'

// The member lease (member-lock.ts) on a real database: it lets one holder in at a time, runs
// out, is released when the work fails, and is entered again by the work that holds it.

const testApp = setUpTestApp()

const call = apiCallsTo(() => testApp.app)

const db = () => testApp.app.db

/** A held gate: `open()` lets whatever awaits `wait` go on. */
function gate() {
  let open = () => {}
  const wait = new Promise<void>((resolve) => {
    open = resolve
  })
  return { wait, open }
}

const busy = (error: unknown) =>
  error instanceof AppError && error.statusCode === 409 && error.messageKey === 'billing.memberBusy'

describe('the member lease', () => {
  it('lets one holder in at a time: the next waits for it, and one that cannot wait is refused', async () => {
    const { user } = await memberWithCookie(testApp.app)
    const order: string[] = []
    const first = gate()
    let firstIn = false
    const holder = withMemberLock(db(), user.id, async () => {
      firstIn = true
      order.push('first in')
      await first.wait
      order.push('first out')
    })
    await vi.waitFor(() => expect(firstIn).toBe(true))

    // Waiting a little is not enough while the first holds it.
    const impatient = await withMemberLock(db(), user.id, async () => 'in', { waitMs: 300 }).catch(
      (error: unknown) => error,
    )
    expect(busy(impatient)).toBe(true)

    const next = withMemberLock(db(), user.id, async () => {
      order.push('next in')
    })
    first.open()
    await Promise.all([holder, next])
    expect(order).toEqual(['first in', 'first out', 'next in'])
    // Released: nothing is left behind.
    expect(
      await db().select().from(billingMemberLocks).where(eq(billingMemberLocks.userId, user.id)),
    ).toEqual([])
  })

  it('is released when the work fails', async () => {
    const { user } = await memberWithCookie(testApp.app)
    const failed = await withMemberLock(db(), user.id, async () => {
      throw new Error('the provider is down')
    }).catch((error: unknown) => error)
    expect(failed).toEqual(new Error('the provider is down'))
    expect(await withMemberLock(db(), user.id, async () => 'free', { waitMs: 0 })).toBe('free')
  })

  it('runs out, so a process that died holding it keeps the member waiting for its lease only', async () => {
    const { user } = await memberWithCookie(testApp.app)
    const stuck = gate()
    let stuckIn = false
    // A long lease, renewed only well after this test: its time passes by hand below.
    const dead = withMemberLock(
      db(),
      user.id,
      async () => {
        stuckIn = true
        await stuck.wait
      },
      { leaseMs: 600_000 },
    )
    await vi.waitFor(() => expect(stuckIn).toBe(true))
    // The lease's time passes (as if its process had died holding it).
    await db()
      .update(billingMemberLocks)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(billingMemberLocks.userId, user.id))
    const taken = gate()
    let takenIn = false
    const next = withMemberLock(
      db(),
      user.id,
      async () => {
        takenIn = true
        await taken.wait
      },
      { waitMs: 0 },
    )
    await vi.waitFor(() => expect(takenIn).toBe(true))
    // The first holder ending late does not release the lease the next one took.
    stuck.open()
    await dead
    const [row] = await db()
      .select()
      .from(billingMemberLocks)
      .where(eq(billingMemberLocks.userId, user.id))
    expect(row).toBeDefined()
    const refused = await withMemberLock(db(), user.id, async () => 'in', { waitMs: 0 }).catch(
      (error: unknown) => error,
    )
    expect(busy(refused)).toBe(true)
    taken.open()
    await next
  })

  it('is renewed while its work runs, so an action longer than one lease keeps it', async () => {
    const { user } = await memberWithCookie(testApp.app)
    const long = gate()
    let inside = false
    const action = withMemberLock(
      db(),
      user.id,
      async () => {
        inside = true
        await long.wait
      },
      { leaseMs: 600 },
    )
    await vi.waitFor(() => expect(inside).toBe(true))
    const expiry = async () =>
      (
        await db()
          .select({ at: billingMemberLocks.expiresAt })
          .from(billingMemberLocks)
          .where(eq(billingMemberLocks.userId, user.id))
      )[0]?.at.getTime() ?? 0
    const first = await expiry()
    // Past the first lease's end, renewed (every 200 ms here), it is still the action's.
    await vi.waitFor(async () => expect(await expiry()).toBeGreaterThan(first + 600), {
      timeout: 10_000,
      interval: 50,
    })
    expect(Date.now()).toBeGreaterThan(first)
    const refused = await withMemberLock(db(), user.id, async () => 'in', { waitMs: 0 }).catch(
      (error: unknown) => error,
    )
    expect(busy(refused)).toBe(true)
    long.open()
    await action
  })

  it('is entered again by the work that holds it, and does not hold up another member', async () => {
    const one = await memberWithCookie(testApp.app)
    const other = await memberWithCookie(testApp.app)
    const inner = await withMemberLock(db(), one.user.id, () =>
      withMemberLock(
        db(),
        one.user.id,
        () => withMemberLock(db(), other.user.id, async () => 'both', { waitMs: 0 }),
        { waitMs: 0 },
      ),
    )
    expect(inner).toBe('both')
  })

  it('held by another action, makes a plan action wait and then answer 409 in the member’s language', async () => {
    const { user, cookie } = await memberWithCookie(testApp.app)
    await billingCallsTo(call).saveCard(cookie, '4242424242424242')
    const held = gate()
    let heldIn = false
    const holder = withMemberLock(db(), user.id, async () => {
      heldIn = true
      await held.wait
    })
    await vi.waitFor(() => expect(heldIn).toBe(true))
    const price = (await call('GET', '/api/billing/prices', cookie))
      .json()
      .prices.find((candidate: { plan: string }) => candidate.plan === 'subscription').id
    const [english, spanish] = await Promise.all(
      ['en', 'es'].map((language) =>
        call(
          'POST',
          '/api/billing/plan/start',
          cookie,
          { priceId: price, attemptId: randomUUID() },
          language,
        ),
      ),
    )
    held.open()
    await holder
    expect(english?.statusCode).toBe(409)
    expect(english?.json().message).toBe(
      'Another payment action is in progress. Please wait a moment and try again.',
    )
    expect(spanish?.statusCode).toBe(409)
    expect(spanish?.json().message).toBe(
      'Hay otra acción de pago en curso. Espera un momento y vuelve a intentarlo.',
    )
    // Nothing was started meanwhile.
    expect((await call('GET', '/api/billing/plan', cookie)).json().subscription).toBeNull()
  })
})
