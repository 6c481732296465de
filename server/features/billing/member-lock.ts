import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { billingMemberLocks } from '../../../db/schema/billing'
import { AppError } from '../../errors'

// One money action at a time per member: Pay now, the plan actions, the card changes and the
// syncs from the provider each run whole before the next one of the same member starts, and
// decide inside their turn from rows read then. Two tabs, a double click or a script get one
// charge, and the second action sees what the first did.
//
// The lock is a lease row in our own table, not a database lock held by a transaction: an
// action calls the provider (a remote HTTP API in production) while it holds it, and no
// database transaction may stay open across such a call (it would hold a connection and its row
// locks for as long as the provider takes). The lease is taken by one committed statement,
// renewed while its action runs, released by deleting it, and runs out by itself when nobody
// renews it: a process killed while holding it keeps the member waiting MEMBER_LOCK_LEASE_MS at
// most, however long its action would have taken.

/**
 * How long a lease lasts unless renewed: its holder renews it every third of this while its
 * action runs (the provider's calls may take up to 80 s: Stripe's SDK's time-out).
 */
export const MEMBER_LOCK_LEASE_MS = 30_000

/** How long an action waits for the member's other action before answering 409. */
export const MEMBER_LOCK_WAIT_MS = 10_000

/** How often a waiting action asks again. */
const POLL_MS = 100

interface Lease {
  userId: string
  holder: string
  /** False once released: work left running after it (a promise nobody awaited) is not in it. */
  held: boolean
}

/**
 * The leases the running code holds. An action holds its member's lease while the provider
 * reports what it did (the sandbox calls our event handler from inside the call, and that
 * handler syncs): taking the lease again there would wait for itself, so it is entered again.
 */
const holding = new AsyncLocalStorage<readonly Lease[]>()

export interface MemberLockOptions {
  /** How long to wait for the lease (default MEMBER_LOCK_WAIT_MS). */
  waitMs?: number
  /** How long the lease lasts (default MEMBER_LOCK_LEASE_MS). */
  leaseMs?: number
}

/** Takes the member's lease when it is free or ran out; true when this holder has it now. */
async function take(db: Database, lease: Lease, leaseMs: number): Promise<boolean> {
  const until = sql`now() + make_interval(secs => ${leaseMs / 1000})`
  const taken = await db
    .insert(billingMemberLocks)
    .values({ userId: lease.userId, holder: lease.holder, expiresAt: until })
    .onConflictDoUpdate({
      target: billingMemberLocks.userId,
      set: { holder: lease.holder, expiresAt: until },
      setWhere: sql`${billingMemberLocks.expiresAt} <= now()`,
    })
    .returning({ holder: billingMemberLocks.holder })
  return taken.length > 0
}

/**
 * Runs `work` holding the member's lease: one at a time per member, across every process on the
 * database. Waits for another holder up to `waitMs`, then answers 409 `billing.memberBusy`.
 * Inside work that already holds this member's lease, runs at once. The lease is released
 * however `work` ends. Never call it inside a database transaction: the lease would not be
 * seen by others until that transaction commits.
 */
export async function withMemberLock<T>(
  db: Database,
  userId: string,
  work: () => Promise<T>,
  { waitMs = MEMBER_LOCK_WAIT_MS, leaseMs = MEMBER_LOCK_LEASE_MS }: MemberLockOptions = {},
): Promise<T> {
  const held = (holding.getStore() ?? []).filter((lease) => lease.held)
  if (held.some((lease) => lease.userId === userId)) return work()
  const lease: Lease = { userId, holder: randomUUID(), held: false }
  const deadline = Date.now() + waitMs
  while (!(await take(db, lease, leaseMs))) {
    const left = deadline - Date.now()
    if (left <= 0) throw new AppError(409, 'billing.memberBusy')
    await sleep(Math.min(POLL_MS, left))
  }
  lease.held = true
  const renewal = setInterval(() => {
    void db
      .update(billingMemberLocks)
      .set({ expiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
      .where(
        and(eq(billingMemberLocks.userId, userId), eq(billingMemberLocks.holder, lease.holder)),
      )
      // A renewal that fails is tried again at the next tick; the lease holds until then.
      .catch(() => {})
  }, leaseMs / 3)
  renewal.unref()
  try {
    return await holding.run([...held, lease], work)
  } finally {
    clearInterval(renewal)
    lease.held = false
    // Only our own lease: one that ran out and was taken by another action stays theirs.
    await db
      .delete(billingMemberLocks)
      .where(
        and(eq(billingMemberLocks.userId, userId), eq(billingMemberLocks.holder, lease.holder)),
      )
  }
}
