import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod/mini'
import type { Database } from '../../../db/client'
import { qualified } from '../../../db/qualified'
import { sessions as authSessions, users } from '../../../db/schema/auth'
import {
  billingInvoices,
  billingPaymentIntents,
  billingPaymentMethods,
  billingSubscriptions,
} from '../../../db/schema/billing'
import { clientRecords } from '../../../db/schema/clients'
import { harmonizeSessions } from '../../../db/schema/harmonize'
import { supportMessages } from '../../../db/schema/support'
import { RUNNING_STATUSES } from '../../../domain/billing-plans'
import { formatMoney } from '../../../domain/format'
import {
  type CancelPlan,
  type Complimentary,
  type GrantComplimentary,
  MEMBER_PAGE_SIZE,
  MEMBER_SUPPORT_MESSAGES,
  type MemberDetail,
  type MemberRow,
  type MemberSearchQuery,
  type RefundRequest,
} from '../../../domain/members'
import { AppError } from '../../errors'
import type { Auth } from '../../plugins/auth'
import {
  accessChanged,
  accessSourceOf,
  currentComplimentary,
  endComplimentary,
  grantComplimentary,
  mayHaveSource,
  planStatusOf,
} from '../access/public'
import {
  type BillingDeps,
  cancelPlanFor,
  type RefundDone,
  recipientsOf,
  refundedOn,
  refundInvoice,
  resendInvoice,
} from '../billing/public'
import { type Actor, writeAudit } from './audit'
import { cursorOf, readCursor } from './cursor'

// The console's members: a list a page at a time, one member's page, and the changes an operator
// makes to them, each written to the audit log in the same transaction.

/** What the search matches: the index `user_search_idx` is on this very expression. */
const searchText = sql`(lower(${users.email}) || ' ' || lower(${users.name}))`

/** `%` and `_` typed by the operator are letters, not patterns. */
const likeEscaped = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)

// A page ends at its last member's sign-up time (to the microsecond, UTC, written the same way
// whatever the database's DateStyle) and id.
const cursorSchema = z.tuple([
  z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)),
  z.string().check(z.regex(/^[\w-]{1,64}$/)),
])

/** How many sessions the member has signed in now, on any device. */
const activeSessions = sql<number>`(select count(*)::int from ${authSessions}
  where ${qualified(authSessions.userId)} = ${qualified(users.id)}
    and ${qualified(authSessions.expiresAt)} > now())`

/**
 * A page of members, newest first, matching the search (any part of the e-mail or the name)
 * and the filters. Pages follow the sign-up time and id (`user_created_idx`), never an offset.
 */
export async function searchMembers(
  db: Database,
  query: MemberSearchQuery,
): Promise<{ members: MemberRow[]; next: string | null }> {
  const access = accessSourceOf(users.id)
  const planStatus = planStatusOf(users.id)
  const conditions: SQL[] = []
  if (query.q) conditions.push(sql`${searchText} like ${`%${likeEscaped(query.q)}%`}`)
  if (query.access) {
    conditions.push(mayHaveSource(users.id, query.access))
    conditions.push(
      query.access === 'none' ? sql`${access} is null` : sql`${access} = ${query.access}`,
    )
  }
  if (query.status) conditions.push(sql`${planStatus} = ${query.status}`)
  if (query.after) {
    const [at, id] = readCursor(query.after, cursorSchema)
    conditions.push(sql`(${users.createdAt}, ${users.id}) < (${at}::timestamptz, ${id})`)
  }
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      createdAt: users.createdAt,
      cursorAt: sql<string>`to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      access,
      planStatus,
      blockedAt: users.blockedAt,
    })
    .from(users)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(MEMBER_PAGE_SIZE + 1)
  const page = rows.slice(0, MEMBER_PAGE_SIZE)
  const last = page.at(-1)
  return {
    members: page.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      createdAt: row.createdAt.toISOString(),
      access: row.access,
      planStatus: row.planStatus,
      blocked: row.blockedAt !== null,
    })),
    next: rows.length > MEMBER_PAGE_SIZE && last ? cursorOf([last.cursorAt, last.id]) : null,
  }
}

/** Everything the console shows about one member; their clients' records stay theirs (a count). */
export async function memberDetail(db: Database, id: string): Promise<MemberDetail> {
  const [account] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      language: users.language,
      role: users.role,
      emailVerified: users.emailVerified,
      createdAt: users.createdAt,
      blockedAt: users.blockedAt,
      blockedReason: users.blockedReason,
      source: accessSourceOf(users.id),
      sessions: activeSessions,
    })
    .from(users)
    .where(eq(users.id, id))
  if (!account) throw new AppError(404, 'members.notFound')
  const [complimentary, plans, cards, invoices, payments, messages, [sessions], [clients]] =
    await Promise.all([
      currentComplimentary(db, id),
      db
        .select()
        .from(billingSubscriptions)
        .where(eq(billingSubscriptions.userId, id))
        .orderBy(desc(billingSubscriptions.createdAt), desc(billingSubscriptions.id)),
      db
        .select({ brand: billingPaymentMethods.brand, last4: billingPaymentMethods.last4 })
        .from(billingPaymentMethods)
        .where(eq(billingPaymentMethods.userId, id))
        .orderBy(desc(billingPaymentMethods.createdAt)),
      db
        .select({ invoice: billingInvoices, refunded: refundedOn(billingInvoices.id) })
        .from(billingInvoices)
        .where(eq(billingInvoices.userId, id))
        .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.id)),
      db
        .select()
        .from(billingPaymentIntents)
        .where(eq(billingPaymentIntents.userId, id))
        .orderBy(desc(billingPaymentIntents.createdAt), desc(billingPaymentIntents.id)),
      db
        .select({
          id: supportMessages.id,
          subject: supportMessages.subject,
          body: supportMessages.body,
          createdAt: supportMessages.createdAt,
        })
        .from(supportMessages)
        .where(eq(supportMessages.userId, id))
        .orderBy(desc(supportMessages.createdAt), desc(supportMessages.id))
        .limit(MEMBER_SUPPORT_MESSAGES),
      db.select({ n: count() }).from(harmonizeSessions).where(eq(harmonizeSessions.userId, id)),
      db.select({ n: count() }).from(clientRecords).where(eq(clientRecords.userId, id)),
    ])
  const plan = plans.find((row) => RUNNING_STATUSES.includes(row.status)) ?? plans[0]
  return {
    account: {
      id: account.id,
      email: account.email,
      name: account.name,
      language: account.language,
      role: account.role,
      emailVerified: account.emailVerified,
      createdAt: account.createdAt.toISOString(),
      sessions: Number(account.sessions),
      blocked: account.blockedAt
        ? { at: account.blockedAt.toISOString(), reason: account.blockedReason ?? '' }
        : null,
    },
    access: { hasAccess: account.source !== null, source: account.source, complimentary },
    plan: plan
      ? {
          plan: plan.plan,
          status: plan.status,
          currentPeriodEnd: plan.currentPeriodEnd.toISOString(),
          cancelAtPeriodEnd: plan.cancelAtPeriodEnd,
        }
      : null,
    cards,
    invoices: invoices.map(({ invoice, refunded }) => ({
      id: invoice.id,
      number: invoice.number,
      status: invoice.status,
      amount: invoice.total,
      currency: invoice.currency,
      amountPaid: invoice.amountPaid,
      refunded,
      sendsTo: recipientsOf(invoice),
      createdAt: invoice.createdAt.toISOString(),
    })),
    payments: payments.map((row) => ({
      id: row.id,
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      createdAt: row.createdAt.toISOString(),
    })),
    supportMessages: messages.map((message) => ({
      ...message,
      createdAt: message.createdAt.toISOString(),
    })),
    sessionsPlayed: sessions?.n ?? 0,
    clients: clients?.n ?? 0,
  }
}

/**
 * The member's account row, locked until the transaction ends: two operators acting on one
 * member at once take turns, and each audit entry's "before" is what the change replaced.
 */
async function lockMember(tx: Database, id: string) {
  const [member] = await tx
    .select({
      id: users.id,
      email: users.email,
      blockedAt: users.blockedAt,
      blockedReason: users.blockedReason,
    })
    .from(users)
    .where(eq(users.id, id))
    .for('update')
  if (!member) throw new AppError(404, 'members.notFound')
  return member
}

/**
 * The end of `day` (YYYY-MM-DD), UTC: the member may still play on the day the operator names,
 * and it ends as the next one begins. Refused unless that is still to come.
 */
function endOf(day: string): Date {
  const start = new Date(`${day}T00:00:00.000Z`)
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== day) {
    throw new AppError(400, 'members.endsOnFormat')
  }
  const end = new Date(start.getTime() + 86_400_000)
  if (end.getTime() <= Date.now()) throw new AppError(400, 'members.endsOnPast')
  return end
}

/** An operator's own access is not theirs to change from the console: another operator's is. */
function notThemselves(actor: Actor, memberId: string) {
  if (actor.id === memberId) throw new AppError(403, 'members.notYourself')
}

/** "Grant complimentary access": from now until the day given, or until ended. */
export async function grantComplimentaryAccess(
  db: Database,
  actor: Actor,
  memberId: string,
  grant: GrantComplimentary,
): Promise<Complimentary> {
  notThemselves(actor, memberId)
  const endsAt = grant.endsOn ? endOf(grant.endsOn) : null
  const granted = await db.transaction(async (tx) => {
    const member = await lockMember(tx, memberId)
    const given = await grantComplimentary(tx, {
      userId: member.id,
      reason: grant.reason,
      endsAt,
      by: actor.email,
    })
    await writeAudit(tx, actor, {
      action: 'members.complimentary.grant',
      member,
      before: { complimentary: null },
      after: { complimentary: { endsAt: given.endsAt } },
      reason: grant.reason,
    })
    return given
  })
  await accessChanged(db, memberId)
  return granted
}

/** Ends the member's complimentary access now. */
export async function endComplimentaryAccess(
  db: Database,
  actor: Actor,
  memberId: string,
  reason: string,
): Promise<void> {
  notThemselves(actor, memberId)
  await db.transaction(async (tx) => {
    const member = await lockMember(tx, memberId)
    const ended = await endComplimentary(tx, { userId: member.id, reason, by: actor.email })
    await writeAudit(tx, actor, {
      action: 'members.complimentary.end',
      member,
      before: { complimentary: { grantedAt: ended.grantedAt, endsAt: ended.endsAt } },
      after: { complimentary: null },
      reason,
    })
  })
  await accessChanged(db, memberId)
}

/**
 * Ends every session the member has, on every device (better-auth's own revocation, so the
 * sessions' cache forgets them too). They may sign in again.
 */
export async function signOutEverywhere(
  db: Database,
  auth: Auth,
  actor: Actor,
  memberId: string,
): Promise<void> {
  const member = await endSessions(db, auth, memberId)
  await writeAudit(db, actor, {
    action: 'members.sign-out-everywhere',
    member,
    before: { sessions: member.sessions },
    after: { sessions: 0 },
  })
}

async function endSessions(db: Database, auth: Auth, memberId: string) {
  const [member] = await db
    .select({
      id: users.id,
      email: users.email,
      sessions: activeSessions,
    })
    .from(users)
    .where(eq(users.id, memberId))
  if (!member) throw new AppError(404, 'members.notFound')
  const { internalAdapter } = await auth.$context
  await internalAdapter.deleteUserSessions(member.id)
  return { ...member, sessions: Number(member.sessions) }
}

/**
 * Blocks the account: no new session (server/plugins/auth.ts refuses one), and every session
 * it has ends now. Written before the sessions end, so none can begin in between.
 */
export async function blockMember(
  db: Database,
  auth: Auth,
  actor: Actor,
  memberId: string,
  reason: string,
): Promise<void> {
  notThemselves(actor, memberId)
  const blocked = await db.transaction(async (tx) => {
    const member = await lockMember(tx, memberId)
    if (member.blockedAt) return false
    const at = new Date()
    await tx
      .update(users)
      .set({ blockedAt: at, blockedReason: reason, updatedAt: at })
      .where(eq(users.id, member.id))
    await writeAudit(tx, actor, {
      action: 'members.block',
      member,
      before: { blocked: false },
      after: { blocked: true },
      reason,
    })
    return true
  })
  // Also when it was blocked already: a block whose sessions did not all end (a failure after
  // it was written) ends them when it is asked again.
  await endSessions(db, auth, memberId)
  if (!blocked) throw new AppError(409, 'members.alreadyBlocked')
}

/** Lets a blocked account sign in again. */
export async function unblockMember(
  db: Database,
  actor: Actor,
  memberId: string,
  reason: string,
): Promise<void> {
  notThemselves(actor, memberId)
  await db.transaction(async (tx) => {
    const member = await lockMember(tx, memberId)
    const since = member.blockedAt
    if (!since) throw new AppError(409, 'members.notBlocked')
    await tx
      .update(users)
      .set({ blockedAt: null, blockedReason: null, updatedAt: new Date() })
      .where(eq(users.id, member.id))
    await writeAudit(tx, actor, {
      action: 'members.unblock',
      member,
      before: { blocked: true, since: since.toISOString(), reason: member.blockedReason },
      after: { blocked: false },
      reason,
    })
  })
}

/** Cancels the member's running plan now or at its period's end, through the gateway. */
export async function cancelMemberPlan(
  deps: BillingDeps,
  actor: Actor,
  memberId: string,
  request: CancelPlan,
): Promise<void> {
  notThemselves(actor, memberId)
  const [member] = await deps.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.id, memberId))
  if (!member) throw new AppError(404, 'members.notFound')
  // Written as soon as the gateway has changed the plan: if syncing its answer fails after
  // that, the plan changed all the same, and a retry would find nothing left to cancel.
  await cancelPlanFor(deps, member.id, request.when, async (change) => {
    await writeAudit(deps.db, actor, {
      action:
        request.when === 'now' ? 'members.plan.cancel-now' : 'members.plan.cancel-at-period-end',
      member,
      before: change.before,
      after: change.after,
      reason: request.reason,
    })
  })
}

/**
 * Gives back part or all of a member's paid invoice, to the card that paid it. The same request
 * twice (its key) refunds once and is written to the audit log once. Plans and access do not
 * change: cancelling or granting access are actions of their own.
 */
export async function refundMember(
  deps: BillingDeps,
  actor: Actor,
  memberId: string,
  request: RefundRequest,
): Promise<{ refund: RefundDone['refund']; refunded: number }> {
  notThemselves(actor, memberId)
  const [member] = await deps.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.id, memberId))
  if (!member) throw new AppError(404, 'members.notFound')
  const done = await refundInvoice(
    deps,
    {
      userId: member.id,
      invoiceId: request.invoiceId,
      amount: request.amount,
      requestKey: request.requestKey,
    },
    // Written as soon as the gateway gave the money back, whatever the sync after it meets.
    async ({ refund, invoice, refundedBefore }) => {
      await writeAudit(deps.db, actor, {
        action: 'members.refund',
        member,
        before: { invoice: invoice.number, refunded: formatMoney(refundedBefore, 'en') },
        after: {
          invoice: invoice.number,
          refunded: formatMoney(refundedBefore + refund.amount, 'en'),
          refund: refund.id,
        },
        reason: request.reason,
      })
    },
  )
  return { refund: done.refund, refunded: done.refundedBefore + done.refund.amount }
}

/**
 * Mails one of the member's paid invoices again, to the addresses its first mail went to; the
 * audit entry is written with the queued mail, or neither is.
 */
export async function resendMemberInvoice(
  app: FastifyInstance,
  actor: Actor,
  memberId: string,
  invoiceId: string,
): Promise<{ to: string[] }> {
  const [member] = await app.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.id, memberId))
  if (!member) throw new AppError(404, 'members.notFound')
  return resendInvoice(app, member.id, invoiceId, async ({ number, to }) => {
    await writeAudit(app.db, actor, {
      action: 'members.invoice.resend',
      member,
      before: null,
      after: { invoice: number, to },
    })
  })
}
