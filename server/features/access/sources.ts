import { type Column, getTableName, type SQL, sql } from 'drizzle-orm'
import { accessCodes, complimentaryAccess } from '../../../db/schema/access'
import { billingPaymentIntents, billingSubscriptions } from '../../../db/schema/billing'
import { ACCESS_SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../domain/access'
import { RUNNING_STATUSES } from '../../../domain/billing-plans'
import type { AccessSource } from '../../../domain/members'

// The access rule (domain/access.ts hasAccess, with billing's choice of the current plan) as SQL
// over a user id column, for the console to list, filter and count many members in one query.
// admin.int.test.ts holds the two to the same answers.

/**
 * A column named with its table, always: inside a subquery an unqualified `"id"` would be the
 * subquery's own table's (Drizzle leaves the table out in a one-table select's fields).
 */
const q = (column: Column) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`

const list = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )

/** The current plan: the newest running one, else the newest (billing's currentPlanRow). */
const currentPlan = (userId: Column, field: Column) =>
  sql`(select ${q(field)} from ${billingSubscriptions}
    where ${q(billingSubscriptions.userId)} = ${q(userId)}
    order by ${q(billingSubscriptions.status)} in (${list(RUNNING_STATUSES)}) desc,
      ${q(billingSubscriptions.createdAt)} desc, ${q(billingSubscriptions.id)} desc
    limit 1)`

/** The status of the user's current plan, or null when they never had one. */
export const planStatusOf = (userId: Column): SQL<SubscriptionStatus | null> =>
  currentPlan(userId, billingSubscriptions.status) as SQL<SubscriptionStatus | null>

/** What gives the user access now, or null when nothing does. */
export const accessSourceOf = (
  userId: Column,
): SQL<AccessSource | null> => sql<AccessSource | null>`case
  when exists (select 1 from ${complimentaryAccess}
    where ${q(complimentaryAccess.userId)} = ${q(userId)}
      and ${q(complimentaryAccess.endedAt)} is null
      and (${q(complimentaryAccess.endsAt)} is null or ${q(complimentaryAccess.endsAt)} > now()))
    then 'complimentary'
  when exists (select 1 from ${accessCodes}
    where ${q(accessCodes.redeemedBy)} = ${q(userId)} and ${q(accessCodes.revokedAt)} is null)
    then 'code'
  when ${planStatusOf(userId)} in (${list(ACCESS_SUBSCRIPTION_STATUSES)})
    then ${currentPlan(userId, billingSubscriptions.plan)}
  when exists (select 1 from ${billingPaymentIntents}
    where ${q(billingPaymentIntents.userId)} = ${q(userId)}
      and ${q(billingPaymentIntents.status)} = 'succeeded')
    then 'one_payment'
end`
