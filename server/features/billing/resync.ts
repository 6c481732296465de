import { asc, eq, lt } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { users } from '../../../db/schema/auth'
import { billingCustomers } from '../../../db/schema/billing'
import { AppError } from '../../errors'
import type { RateLimiter } from '../../plugins/rate-limit'
import { syncCustomer } from './customers'
import { queueNoticesBeforeCharges } from './notices'
import type { BillingDeps } from './service'

// Syncing from the provider without an event: the operator's `billing sync`, and the daily
// pass over members not synced for a day, so a webhook that never arrived heals by itself.

/** How long a member may go without a sync before the daily pass syncs them. */
export const STALE_AFTER_MS = 24 * 60 * 60_000

/** How often the pass over members not synced for a day runs. */
const RESYNC_EVERY_SECONDS = 3600

/** How often a worker looks for the hourly pass: it is queued an hour ahead. */
const RESYNC_POLLING_SECONDS = 60

/** Members synced per pass; the rest wait for the next (the oldest go first). */
const PASS_SIZE = 500

interface Member {
  customerId: string
  userId: string
}

async function membersOf(
  deps: BillingDeps,
  which: { email: string } | { all: true } | { staleBefore: Date },
): Promise<Member[]> {
  const select = deps.db
    .select({ customerId: billingCustomers.customerId, userId: billingCustomers.userId })
    .from(billingCustomers)
    .innerJoin(users, eq(users.id, billingCustomers.userId))
  if ('email' in which) {
    const rows = await select.where(eq(users.email, which.email.trim().toLowerCase()))
    if (rows.length === 0) throw new AppError(404, 'billing.customerNotFound')
    return rows
  }
  if ('all' in which) return select.orderBy(asc(billingCustomers.syncedAt))
  return select
    .where(lt(billingCustomers.syncedAt, which.staleBefore))
    .orderBy(asc(billingCustomers.syncedAt))
    .limit(PASS_SIZE)
}

/**
 * Re-reads members from the provider and writes our tables: one member by e-mail, every member,
 * or those not synced since `staleBefore`. Answers how many were synced. Without `failed`, the
 * first member that fails stops it with their error (the operator's command shows it); with it,
 * each failure is handed to it and the others still go (the hourly pass: one member whose turn
 * is taken, or whom the provider does not answer for, must not keep every other from healing).
 */
export async function resyncCustomers(
  deps: BillingDeps,
  which: { email: string } | { all: true } | { staleBefore: Date },
  failed?: (member: Member, error: unknown) => void,
): Promise<{ synced: number }> {
  let synced = 0
  for (const member of await membersOf(deps, which)) {
    try {
      await syncCustomer(deps, member.customerId)
      synced += 1
    } catch (error) {
      if (!failed) throw error
      failed(member, error)
    }
  }
  return { synced }
}

/** How often a page that polls while a charge is with the bank may sync the member itself. */
export const CATCH_UP_EVERY_MS = 5_000

/** Settings of the billing routes for tests. */
export interface BillingOptions {
  /**
   * Replaces CATCH_UP_EVERY_MS: a test that waits for a catch-up (a webhook that never comes)
   * need not wait five seconds for each.
   */
  catchUpEveryMs?: number
  /**
   * Replaces RESYNC_POLLING_SECONDS: a test that makes the hourly pass due need not wait a
   * minute for its worker to look.
   */
  resyncPollingSeconds?: number
}

/**
 * Syncs a member from the provider without waiting for its webhook, at most once every few
 * seconds across servers (the shared rate-limit counter): for the pages a member watches while
 * a payment is under way, so a late or lost webhook never leaves them waiting. True when it
 * synced.
 */
export async function catchUp(
  deps: BillingDeps,
  limiter: Pick<RateLimiter, 'hit'>,
  userId: string,
  everyMs = CATCH_UP_EVERY_MS,
): Promise<boolean> {
  const { count } = await limiter.hit(`billing-catch-up:${userId}`, everyMs)
  if (count > 1) return false
  const [row] = await deps.db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  if (!row) return false
  try {
    // Not waited for: a member whose payment action is running is synced by it.
    await syncCustomer(deps, row.customerId, { waitMs: 0 })
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 409) return false
    throw error
  }
  return true
}

/** How often a member's page may ask the provider again after a bank check ran in it. */
export const SYNCS_AFTER_CHECKS = { limit: 10, windowMs: 60_000 }

/**
 * Whether the member's page may have the provider asked again now that the bank's check ran in
 * it (Stripe mode): a few times a minute, enough for every check a member makes, too few for a
 * page to keep the provider busy.
 */
export async function mayAskAfterCheck(
  limiter: Pick<RateLimiter, 'hit'>,
  userId: string,
): Promise<boolean> {
  const { count } = await limiter.hit(`billing-after-check:${userId}`, SYNCS_AFTER_CHECKS.windowMs)
  return count <= SYNCS_AFTER_CHECKS.limit
}

/**
 * Every hour, members not synced for a day are synced: a webhook that never came heals; and
 * members whose next charge is near are mailed what falls due before it (notices.ts). Each
 * server schedules the pass; one job an hour runs it, whichever server takes it.
 */
export async function scheduleResyncPass(
  app: FastifyInstance,
  deps: BillingDeps,
  pollingIntervalSeconds = RESYNC_POLLING_SECONDS,
): Promise<void> {
  const nextPass = () => ({
    at: new Date(Date.now() + RESYNC_EVERY_SECONDS * 1000),
    once: { key: 'billing.resync', perSeconds: RESYNC_EVERY_SECONDS },
  })
  const resync = await app.jobs.define<{ pass: 'stale' }>(
    'billing.resync',
    {
      retryLimit: 3,
      retryDelaySeconds: 60,
      expireInSeconds: 15 * 60,
      pollingIntervalSeconds,
      describe: () => '',
    },
    async () => {
      // Each pass queues the next: whatever fails in this one, the chain of passes goes on (a
      // pass that threw before queuing it would end the chain in the failed jobs for good).
      try {
        await resyncCustomers(
          deps,
          { staleBefore: new Date(Date.now() - STALE_AFTER_MS) },
          (member, error) =>
            app.log.error(
              { err: error, userId: member.userId, customerId: member.customerId },
              'billing resync of a member failed; the next pass tries again',
            ),
        )
        await queueNoticesBeforeCharges(app)
      } finally {
        await resync.send({ pass: 'stale' }, nextPass())
      }
    },
  )
  app.addHook('onReady', async () => {
    await resync.send({ pass: 'stale' }, nextPass())
  })
}
