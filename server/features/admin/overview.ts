import { sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { sqlList } from '../../../db/qualified'
import { users } from '../../../db/schema/auth'
import {
  billingInvoices,
  billingPaymentIntents,
  billingPrices,
  billingRefunds,
} from '../../../db/schema/billing'
import { ACCESS_SOURCES, type Overview, SIGN_UP_DAYS } from '../../../domain/members'
import type { FailedJob } from '../../plugins/jobs'
import { countAccessSources, currentPlans } from '../access/public'
import { RETURNED_STATUSES } from '../billing/public'

/** The queues whose jobs are messages to members: a failed one is mail that gave up. */
export const MAIL_QUEUES: ReadonlySet<string> = new Set([
  'mail',
  'account.confirmation-code',
  'account.reset-code',
  'billing.invoice-mail',
])

/** Plans that bring money in every month: paid, or a refused charge still being retried. */
const RECURRING = ['active', 'past_due'] as const
/** A refused renewal the card provider is still retrying. */
const FAILED = ['past_due'] as const

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

/**
 * How the business stands now: members and where their access comes from, monthly recurring
 * revenue, the last 30 days' revenue, refused charges still owed, mail that gave up, and
 * sign-ups per day. A handful of queries, each over an index or one pass of a table.
 */
export async function overview(
  db: Database,
  failedJobs: () => Promise<FailedJob[]>,
): Promise<Overview> {
  const [sources, plans, [paidInvoices], [paidOnce], [refunded], signUps, jobs] = await Promise.all(
    [
      countAccessSources(db),
      db.execute(sql`select
        coalesce(sum(${billingPrices.unitAmount}) filter (where plans.status in (${sqlList(RECURRING)})), 0)::int as recurring,
        count(*) filter (where plans.status in (${sqlList(FAILED)}))::int as failed
      from ${currentPlans} as plans
      join ${billingPrices} on ${billingPrices.id} = plans.price_id`),
      db
        .select({ total: sql<number>`coalesce(sum(${billingInvoices.amountPaid}), 0)::int` })
        .from(billingInvoices)
        // A plan's invoices only: a ONE PAYMENT bought as an upgrade has an invoice too, and is
        // counted once, as the payment below.
        .where(
          sql`${billingInvoices.paidAt} >= now() - interval '30 days' and ${billingInvoices.subscriptionId} is not null`,
        ),
      db
        .select({ total: sql<number>`coalesce(sum(${billingPaymentIntents.amount}), 0)::int` })
        .from(billingPaymentIntents)
        .where(
          sql`${billingPaymentIntents.status} = 'succeeded' and ${billingPaymentIntents.createdAt} >= now() - interval '30 days'`,
        ),
      // Money given back in the same 30 days is not revenue.
      db
        .select({ total: sql<number>`coalesce(sum(${billingRefunds.amount}), 0)::int` })
        .from(billingRefunds)
        .where(
          sql`${billingRefunds.status} in (${sqlList(RETURNED_STATUSES)}) and ${billingRefunds.createdAt} >= now() - interval '30 days'`,
        ),
      // Days of UTC, whatever the database session's time zone.
      db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, (
        select count(*) from ${users}
        where ${users.createdAt} >= day::timestamp at time zone 'UTC'
          and ${users.createdAt} < (day + 1)::timestamp at time zone 'UTC'
      )::int as count
      from (
        select (now() at time zone 'UTC')::date - offset_days as day
        from generate_series(0, ${SIGN_UP_DAYS - 1}::int) as offset_days
      ) as days
      order by day`),
      failedJobs(),
    ],
  )
  const withAccess = Object.fromEntries(
    ACCESS_SOURCES.map((source) => [source, 0]),
  ) as Overview['withAccess']
  let members = 0
  for (const [source, n] of sources) {
    members += n
    if (source) withAccess[source] += n
  }
  const [money] = rowsOf<{ recurring: number; failed: number }>(plans)
  return {
    members,
    withAccess,
    currency: 'usd',
    monthlyRecurring: Number(money?.recurring ?? 0),
    revenueLast30Days:
      Number(paidInvoices?.total ?? 0) +
      Number(paidOnce?.total ?? 0) -
      Number(refunded?.total ?? 0),
    failedPayments: Number(money?.failed ?? 0),
    mailGaveUp: jobs.filter((job) => MAIL_QUEUES.has(job.queue)).length,
    signUps: rowsOf<{ day: string; count: number }>(signUps).map((row) => ({
      day: row.day,
      count: Number(row.count),
    })),
  }
}
