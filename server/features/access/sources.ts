import { type Column, count, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { qualified, sqlList } from '../../../db/qualified'
import { accessCodes, complimentaryAccess } from '../../../db/schema/access'
import { users } from '../../../db/schema/auth'
import { billingPaymentIntents, billingSubscriptions } from '../../../db/schema/billing'
import { ACCESS_SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../domain/access'
import { RUNNING_STATUSES } from '../../../domain/billing-plans'
import type { AccessSource } from '../../../domain/members'
import { complimentaryInForce } from './complimentary'

// The access rule (domain/access.ts hasAccess, with billing's choice of the current plan) as SQL,
// for the console to list, filter and count many members in one query. admin.int.test.ts holds
// it to the member's own answer. The rule's order is written once (sourceOf); what it reads
// comes either per member (subqueries, for a page of 50) or for everyone at once (joins, for
// the overview's counts on 100,000 members).

const q = qualified

/** What the rule reads of one member, each as an SQL expression. */
interface Facts {
  complimentary: SQL
  code: SQL
  planStatus: SQL
  plan: SQL
  paidOnce: SQL
}

/** The rule: complimentary access, an active code, a plan in an open status, a payment. */
const sourceOf = (facts: Facts): SQL<AccessSource | null> => sql<AccessSource | null>`case
  when ${facts.complimentary} then 'complimentary'
  when ${facts.code} then 'code'
  when ${facts.planStatus} in (${sqlList(ACCESS_SUBSCRIPTION_STATUSES)}) then ${facts.plan}
  when ${facts.paidOnce} then 'one_payment'
end`

const codeInForce = sql`${q(accessCodes.redeemedBy)} is not null and ${q(accessCodes.revokedAt)} is null`
const paid = sql`${q(billingPaymentIntents.status)} = 'succeeded'`
/** The current plan first: the newest running one, else the newest (billing's currentPlanRow). */
const currentFirst = sql`${q(billingSubscriptions.status)} in (${sqlList(RUNNING_STATUSES)}) desc,
  ${q(billingSubscriptions.createdAt)} desc, ${q(billingSubscriptions.id)} desc`

const currentPlan = (userId: Column, field: Column) =>
  sql`(select ${q(field)} from ${billingSubscriptions}
    where ${q(billingSubscriptions.userId)} = ${q(userId)} order by ${currentFirst} limit 1)`

/** The status of the user's current plan, or null when they never had one. */
export const planStatusOf = (userId: Column): SQL<SubscriptionStatus | null> =>
  currentPlan(userId, billingSubscriptions.status) as SQL<SubscriptionStatus | null>

/** What gives the user access now, or null when nothing does (one member at a time). */
export const accessSourceOf = (userId: Column): SQL<AccessSource | null> =>
  sourceOf({
    complimentary: sql`exists (select 1 from ${complimentaryAccess}
      where ${q(complimentaryAccess.userId)} = ${q(userId)} and ${complimentaryInForce})`,
    code: sql`exists (select 1 from ${accessCodes}
      where ${q(accessCodes.redeemedBy)} = ${q(userId)} and ${codeInForce})`,
    planStatus: planStatusOf(userId),
    plan: currentPlan(userId, billingSubscriptions.plan),
    paidOnce: sql`exists (select 1 from ${billingPaymentIntents}
      where ${q(billingPaymentIntents.userId)} = ${q(userId)} and ${paid})`,
  })

const holders = {
  complimentary: sql`select ${q(complimentaryAccess.userId)} from ${complimentaryAccess} where ${complimentaryInForce}`,
  code: sql`select ${q(accessCodes.redeemedBy)} from ${accessCodes} where ${codeInForce}`,
  plan: (plan: 'subscription' | 'four_payments') =>
    sql`select ${q(billingSubscriptions.userId)} from ${billingSubscriptions}
      where ${q(billingSubscriptions.plan)} = ${plan}
        and ${q(billingSubscriptions.status)} in (${sqlList(ACCESS_SUBSCRIPTION_STATUSES)})`,
  paid: sql`select ${q(billingPaymentIntents.userId)} from ${billingPaymentIntents} where ${paid}`,
}

/**
 * What every member with `source` satisfies, true of a few (codes are held by a tenth of the
 * members): beside accessSourceOf in a filter, the database checks the rule only for them.
 */
export function mayHaveSource(userId: Column, source: AccessSource | 'none'): SQL {
  const id = q(userId)
  switch (source) {
    case 'complimentary':
      return sql`${id} in (${holders.complimentary})`
    case 'code':
      return sql`${id} in (${holders.code})`
    case 'subscription':
    case 'four_payments':
      return sql`${id} in (${holders.plan(source)})`
    case 'one_payment':
      return sql`${id} in (${holders.paid})`
    case 'none':
      return sql`${id} not in (${holders.complimentary}) and ${id} not in (${holders.code})
        and ${id} not in (${holders.paid})`
  }
}

/**
 * Every member's current plan (billing's currentPlanRow, for everyone at once): a subquery with
 * `user_id`, `plan`, `price_id` and `status`.
 */
export const currentPlans = sql`(select distinct on (${q(billingSubscriptions.userId)})
    ${q(billingSubscriptions.userId)} as user_id, ${q(billingSubscriptions.plan)} as plan,
    ${q(billingSubscriptions.priceId)} as price_id, ${q(billingSubscriptions.status)} as status
  from ${billingSubscriptions}
  order by ${q(billingSubscriptions.userId)}, ${currentFirst})`

/** How many members each source gives access to, and how many have none, for everyone at once. */
export async function countAccessSources(db: Database): Promise<Map<AccessSource | null, number>> {
  const source = sourceOf({
    complimentary: sql`comp.user_id is not null`,
    code: sql`code.user_id is not null`,
    planStatus: sql`plan.status`,
    plan: sql`plan.plan`,
    paidOnce: sql`paid.user_id is not null`,
  })
  const rows = await db
    .select({ source, n: count() })
    .from(users)
    .leftJoin(
      sql`(select distinct user_id from (${holders.complimentary}) as c (user_id)) as comp`,
      sql`comp.user_id = ${q(users.id)}`,
    )
    .leftJoin(
      sql`(select distinct user_id from (${holders.code}) as k (user_id)) as code`,
      sql`code.user_id = ${q(users.id)}`,
    )
    .leftJoin(sql`${currentPlans} as plan`, sql`plan.user_id = ${q(users.id)}`)
    .leftJoin(
      sql`(select distinct user_id from (${holders.paid}) as p (user_id)) as paid`,
      sql`paid.user_id = ${q(users.id)}`,
    )
    .groupBy(sql`1`)
  return new Map(rows.map(({ source, n }) => [source, n]))
}
