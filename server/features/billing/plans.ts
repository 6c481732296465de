import { and, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import {
  billingCustomers,
  billingInvoices,
  billingPaymentIntents,
  billingPreferences,
  billingPrices,
} from '../../../db/schema/billing'
import { ACCESS_SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../domain/access'
import { priceLabel, refusalReason, type SandboxPaymentCheckRequest } from '../../../domain/billing'
import {
  FOUR_PAYMENTS_INSTALLMENTS,
  type Invoice,
  type PlanActions,
  type PlanState,
  planActions,
  type ReactivatePlanRequest,
  RUNNING_STATUSES,
  type StartPlanRequest,
  type Subscription,
  type UpgradePreview,
} from '../../../domain/billing-plans'
import { AppError } from '../../errors'
import { GatewayError } from '../../payments/gateway'
import { customerIdFor, type Payer, syncCustomer } from './customers'
import { withMemberLock } from './member-lock'
import { chargesAgain } from './notices'
import { answerChargeCheck, giveUpUnansweredChecks } from './payments'
import {
  currentPlanRow,
  hasLifetimePayment,
  renewalRemindersOf,
  type SubscriptionRow,
} from './plan-sync'
import { refundedOn } from './refund-rows'
import type { BillingDeps } from './service'

// The monthly plans (SUBSCRIPTION and FOUR PAYMENTS) and invoices: what My Account shows and
// the actions on it. Every action runs in the member's turn (member-lock.ts): it checks that it
// is offered from rows read in that turn, goes to the gateway with no database transaction
// open, then syncs before the next action of the member may start. What is shown is read from
// our tables only.

type InvoiceRow = typeof billingInvoices.$inferSelect

const ENDED: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired', 'paid']

async function paidOnce(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: billingPaymentIntents.id })
    .from(billingPaymentIntents)
    .where(
      and(eq(billingPaymentIntents.userId, userId), eq(billingPaymentIntents.status, 'succeeded')),
    )
    .limit(1)
  return Boolean(row)
}

/**
 * The plan status the access rule reads: the current plan's. A plan that ended does not hide a
 * lifetime ONE PAYMENT bought before or after it (an upgrade ends the subscription).
 */
export async function planStatusFor(
  db: Database,
  userId: string,
): Promise<SubscriptionStatus | null> {
  const plan = await currentPlanRow(db, userId)
  if (!plan) return null
  // A lifetime ONE PAYMENT is never taken back by a plan that ended, failed or is paused.
  if (!ACCESS_SUBSCRIPTION_STATUSES.includes(plan.status) && (await paidOnce(db, userId)))
    return null
  return plan.status
}

const presentInvoice = (
  row: InvoiceRow,
  { refunded = 0, product = null, installment = null }: Partial<Invoice> = {},
): Invoice => ({
  id: row.id,
  number: row.number,
  status: row.status as Invoice['status'],
  total: row.total,
  currency: row.currency,
  createdAt: row.createdAt.toISOString(),
  paidAt: row.paidAt?.toISOString() ?? null,
  refunded,
  pdfUrl: `/api/billing/invoices/${row.id}/pdf`,
  product,
  installment,
})

async function presentPlan(db: Database, row: SubscriptionRow): Promise<Subscription> {
  const [price] = await db.select().from(billingPrices).where(eq(billingPrices.id, row.priceId))
  let installments: Subscription['installments'] = null
  if (row.plan === 'four_payments') {
    const [paid] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.subscriptionId, row.id),
          eq(billingInvoices.priceId, row.priceId),
          eq(billingInvoices.status, 'paid'),
        ),
      )
    installments = { paid: Number(paid?.count ?? 0), total: FOUR_PAYMENTS_INSTALLMENTS }
  }
  return {
    id: row.id,
    plan: row.plan,
    label: priceLabel(price?.nickname ?? row.plan.toUpperCase()),
    unitAmount: price?.unitAmount ?? 0,
    status: row.status,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cancelAt: row.cancelAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    paused: row.paused,
    installments,
  }
}

/** The newest open invoice: the one 'Pay Actual Invoice' pays. */
async function openInvoiceRow(db: Database, userId: string): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.userId, userId), eq(billingInvoices.status, 'open')))
    .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.number))
    .limit(1)
  return row ?? null
}

async function defaultCardOf(db: Database, userId: string): Promise<string | null> {
  const [customer] = await db
    .select({ card: billingCustomers.defaultPaymentMethodId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  return customer?.card ?? null
}

/** My Account's plan section: the plan, the open invoice, and which actions are offered. */
export async function planStateOf(deps: BillingDeps, userId: string): Promise<PlanState> {
  const row = await currentPlanRow(deps.db, userId)
  const subscription = row ? await presentPlan(deps.db, row) : null
  const open = await openInvoiceRow(deps.db, userId)
  const hasDefaultCard = Boolean(await defaultCardOf(deps.db, userId))
  const charging = open?.lastChargeStatus === 'processing'
  const lifetimePayment = await hasLifetimePayment(deps.db, userId)
  const installments = subscription?.installments
  const lifetime =
    subscription?.status === 'paid' ||
    (subscription?.plan === 'four_payments' &&
      installments !== null &&
      installments !== undefined &&
      installments.paid >= installments.total) ||
    (await paidOnce(deps.db, userId))
  const actions = planActions({
    subscription,
    hasOpenInvoice: Boolean(open),
    charging,
    hasDefaultCard,
    lifetimePayment,
  })
  return {
    subscription,
    openInvoice: open ? presentInvoice(open) : null,
    // Once a charge of the open invoice was refused; not while the bank is still answering.
    paymentFailed: open?.lastChargeStatus === 'requires_payment_method',
    refusal:
      open?.lastChargeStatus === 'requires_payment_method'
        ? refusalReason(open.lastChargeFailure)
        : null,
    lifetime,
    charging: charging || subscription?.status === 'pending',
    // Beside a lifetime payment, nothing of a plan is paid any more: its check is not offered.
    bankCheck:
      open?.lastChargeStatus === 'requires_action' && !lifetimePayment
        ? (open.checkSecret ?? null)
        : null,
    nextPaymentAttempt: open?.nextPaymentAttempt?.toISOString() ?? null,
    hasDefaultCard,
    renewalReminders: await renewalRemindersOf(deps.db, userId),
    // From the rows read above: this answer is polled while a charge is with the bank.
    remindable: row !== null && chargesAgain(row, installments?.paid ?? 0),
    actions,
  }
}

/** Turns the reminder before each monthly payment on or off; answers the plan as it now is. */
export async function setRenewalReminders(
  deps: BillingDeps,
  userId: string,
  on: boolean,
): Promise<PlanState> {
  await deps.db
    .insert(billingPreferences)
    .values({ userId, renewalReminders: on })
    .onConflictDoUpdate({
      target: billingPreferences.userId,
      set: { renewalReminders: on, updatedAt: new Date() },
    })
  return planStateOf(deps, userId)
}

/** Refuses an action My Account does not offer now (a stale screen, a crafted request). */
async function requireAction(deps: BillingDeps, userId: string, action: keyof PlanActions) {
  const state = await planStateOf(deps, userId)
  if (!state.actions[action]) throw new AppError(409, 'billing.actionUnavailable')
  return state
}

const customerOf = async (db: Database, userId: string) => {
  const [customer] = await db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  if (!customer) throw new AppError(409, 'billing.actionUnavailable')
  return customer.customerId
}

/**
 * A change the gateway refused because the plan moved on meanwhile (its clock, another
 * process): the screen is out of date, not broken.
 */
async function planChange<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'invalid_request_error') {
      throw new AppError(409, 'billing.actionUnavailable')
    }
    throw error
  }
}

/**
 * Starts FOUR PAYMENTS or the SUBSCRIPTION with the default card (Start Now, the subscribe
 * page, and Reactivate after a plan ended). In the member's turn; the attempt id is the
 * gateway's idempotency key, so a retried request starts one plan.
 */
export async function startPlan(
  deps: BillingDeps,
  payer: Payer,
  input: StartPlanRequest,
  action: 'startNow' | 'reactivate',
): Promise<PlanState> {
  await withMemberLock(deps.db, payer.id, async () => {
    const [price] = await deps.db
      .select()
      .from(billingPrices)
      .where(and(eq(billingPrices.id, input.priceId), eq(billingPrices.active, true)))
    if (!price) throw new AppError(404, 'billing.priceNotFound')
    if (price.plan === 'one_payment') throw new AppError(400, 'billing.notAPlan')
    // A lifetime payment, paid or still with the bank: nothing monthly beside it.
    await giveUpUnansweredChecks(deps, payer.id)
    if (await hasLifetimePayment(deps.db, payer.id)) throw new AppError(409, 'billing.alreadyPaid')
    const customerId = await customerIdFor(deps, payer)
    const state = await planStateOf(deps, payer.id)
    if (!state.hasDefaultCard) throw new AppError(409, 'billing.noDefaultCard')
    if (!state.actions[action]) {
      // The same try sent again, its first answer lost (a server stopped mid-request, a dropped
      // connection) after the plan it started was synced: that plan is its answer.
      const plans = await deps.payments.listSubscriptions(customerId)
      if (plans.some((plan) => plan.metadata.attempt_id === input.attemptId)) return
      const running = state.subscription && !ENDED.includes(state.subscription.status)
      throw new AppError(409, running ? 'billing.planRunning' : 'billing.actionUnavailable')
    }
    const card = await defaultCardOf(deps.db, payer.id)
    if (!card) throw new AppError(409, 'billing.noDefaultCard')
    await deps.payments.createSubscription(
      {
        customer: customerId,
        price: price.id,
        paymentMethod: card,
        installments: price.plan === 'four_payments' ? FOUR_PAYMENTS_INSTALLMENTS : null,
        metadata: {
          plan: price.plan,
          user_id: payer.id,
          price_id: price.id,
          attempt_id: input.attemptId,
        },
      },
      { idempotencyKey: `plan-${payer.id}-${input.attemptId}` },
    )
    await syncCustomer(deps, customerId)
  })
  return planStateOf(deps, payer.id)
}

async function updatePlan(
  deps: BillingDeps,
  userId: string,
  action: keyof PlanActions,
  change: (subscriptionId: string) => Promise<unknown>,
): Promise<PlanState> {
  await withMemberLock(deps.db, userId, async () => {
    const { subscription } = await requireAction(deps, userId, action)
    if (!subscription) throw new AppError(409, 'billing.actionUnavailable')
    await planChange(() => change(subscription.id))
    await syncCustomer(deps, await customerOf(deps.db, userId))
  })
  return planStateOf(deps, userId)
}

/** What an operator's cancellation changed: the plan before and after, for the audit log. */
export interface PlanCancellation {
  before: { status: SubscriptionStatus; cancelAtPeriodEnd: boolean }
  after: { status: SubscriptionStatus; cancelAtPeriodEnd: boolean }
}

/**
 * The console: ends the member's running plan (either monthly plan) now, or lets it run to the
 * end of the period it is in. In the member's turn, as their own actions are; the gateway's
 * answer is synced (and access told) before it returns.
 */
export async function cancelPlanFor(
  deps: BillingDeps,
  userId: string,
  when: 'now' | 'period-end',
  /** Told as soon as the gateway has made the change, before it is synced here. */
  changed: (change: PlanCancellation) => Promise<void>,
): Promise<void> {
  return withMemberLock(deps.db, userId, async () => {
    const plan = await currentPlanRow(deps.db, userId)
    if (!plan || !RUNNING_STATUSES.includes(plan.status)) {
      throw new AppError(409, 'billing.noRunningPlan')
    }
    if (when === 'period-end' && plan.cancelAtPeriodEnd) {
      throw new AppError(409, 'billing.alreadyEnding')
    }
    const answer = await planChange(() =>
      when === 'now'
        ? deps.payments.cancelSubscription(plan.id)
        : deps.payments.updateSubscription(plan.id, { cancelAtPeriodEnd: true }),
    )
    // The gateway's word on the plan now, whatever the sync below meets.
    await changed({
      before: { status: plan.status, cancelAtPeriodEnd: plan.cancelAtPeriodEnd },
      after: {
        status: when === 'now' ? 'canceled' : plan.status,
        cancelAtPeriodEnd: answer.cancel_at_period_end,
      },
    })
    await syncCustomer(deps, await customerOf(deps.db, userId))
  })
}

/** Cancel Renewal: the plan runs to the end of the period it is in, then ends. */
export const cancelRenewal = (deps: BillingDeps, userId: string) =>
  updatePlan(deps, userId, 'cancelRenewal', (id) =>
    deps.payments.updateSubscription(id, { cancelAtPeriodEnd: true }),
  )

/**
 * Reactivate: a renewal cancelled but not yet ended simply goes on; a plan that ended is
 * started again on the chosen price.
 */
export function reactivate(
  deps: BillingDeps,
  payer: Payer,
  input: ReactivatePlanRequest,
): Promise<PlanState> {
  // One turn for the choice and what it does (both re-check inside it).
  return withMemberLock(deps.db, payer.id, async () => {
    const state = await requireAction(deps, payer.id, 'reactivate')
    if (state.subscription?.cancelAtPeriodEnd && !ENDED.includes(state.subscription.status)) {
      return updatePlan(deps, payer.id, 'reactivate', (id) =>
        deps.payments.updateSubscription(id, { cancelAtPeriodEnd: false }),
      )
    }
    if (!input.priceId) throw new AppError(400, 'billing.choosePrice')
    return startPlan(
      deps,
      payer,
      { priceId: input.priceId, attemptId: input.attemptId },
      'reactivate',
    )
  })
}

/** Pause: nothing is charged and no session opens until Resume. */
export const pausePlan = (deps: BillingDeps, userId: string) =>
  updatePlan(deps, userId, 'pause', (id) => deps.payments.pauseSubscription(id))

/** Resume: within the month paid for, at once; after it, once the new month's charge is paid. */
export const resumePlan = (deps: BillingDeps, userId: string) =>
  updatePlan(deps, userId, 'resume', (id) => deps.payments.resumeSubscription(id))

/**
 * An upgrade's target: FOUR PAYMENTS or ONE PAYMENT, on sale, from an active subscription of a
 * member with no lifetime payment (it would be bought twice, or FOUR PAYMENTS beside it).
 */
async function upgradeTarget(deps: BillingDeps, userId: string, priceId: string) {
  if (await hasLifetimePayment(deps.db, userId)) throw new AppError(409, 'billing.alreadyPaid')
  const state = await requireAction(deps, userId, 'upgrade')
  const [price] = await deps.db
    .select()
    .from(billingPrices)
    .where(and(eq(billingPrices.id, priceId), eq(billingPrices.active, true)))
  if (!price) throw new AppError(404, 'billing.priceNotFound')
  if (price.plan === 'subscription') throw new AppError(400, 'billing.notAnUpgrade')
  if (!state.subscription) throw new AppError(409, 'billing.actionUnavailable')
  return { price, subscriptionId: state.subscription.id }
}

/** What moving to `priceId` would charge now, with the unused part of this month credited. */
export async function previewUpgrade(
  deps: BillingDeps,
  userId: string,
  priceId: string,
): Promise<UpgradePreview> {
  const { price, subscriptionId } = await upgradeTarget(deps, userId, priceId)
  return deps.payments.previewUpgrade(subscriptionId, { price: price.id })
}

/**
 * /upgrade-plan: from the monthly subscription to FOUR PAYMENTS (its months start today) or ONE
 * PAYMENT (the subscription ends once paid), the unused part of this month credited, charged
 * to the default card now.
 */
export async function upgradePlan(
  deps: BillingDeps,
  payer: Payer,
  input: StartPlanRequest,
): Promise<PlanState> {
  await withMemberLock(deps.db, payer.id, async () => {
    const customerId = await customerOf(deps.db, payer.id)
    await giveUpUnansweredChecks(deps, payer.id)
    const { price, subscriptionId } = await upgradeTarget(deps, payer.id, input.priceId)
    if (!(await defaultCardOf(deps.db, payer.id))) throw new AppError(409, 'billing.noDefaultCard')
    try {
      await planChange(() =>
        deps.payments.upgradeSubscription(
          subscriptionId,
          {
            price: price.id,
            installments: price.plan === 'four_payments' ? FOUR_PAYMENTS_INSTALLMENTS : null,
          },
          { idempotencyKey: `upgrade-${payer.id}-${input.attemptId}` },
        ),
      )
    } catch (error) {
      // Failed half-way (a time-out after the charge was made): what the provider did is read
      // back now, so a ONE PAYMENT already paid blocks the member's next attempt.
      await syncCustomer(deps, customerId).catch(() => {})
      throw error
    }
    await syncCustomer(deps, customerId)
  })
  return planStateOf(deps, payer.id)
}

/** Pay Actual Invoice: charges the open invoice to the default card now, in the member's turn. */
export async function payOpenInvoice(
  deps: BillingDeps,
  userId: string,
  invoiceId: string,
): Promise<PlanState> {
  await withMemberLock(deps.db, userId, async () => {
    const [invoice] = await deps.db
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.userId, userId)))
    if (!invoice) throw new AppError(404, 'billing.invoiceNotFound')
    if (invoice.status !== 'open') throw new AppError(409, 'billing.actionUnavailable')
    // Paid, an invoice of a plan that never started would start it beside a lifetime payment.
    await giveUpUnansweredChecks(deps, userId)
    if (await hasLifetimePayment(deps.db, userId)) {
      throw new AppError(409, 'billing.actionUnavailable')
    }
    const card = await defaultCardOf(deps.db, userId)
    if (!card) throw new AppError(409, 'billing.noDefaultCard')
    try {
      await deps.payments.payInvoice(invoiceId, { paymentMethod: card })
    } catch (error) {
      // Paid or voided meanwhile: the screen is out of date, not broken.
      if (error instanceof GatewayError && error.code === 'invoice_not_open') {
        throw new AppError(409, 'billing.actionUnavailable')
      }
      if (error instanceof GatewayError && error.code === 'invoice_payment_in_progress') {
        throw new AppError(409, 'billing.invoiceBeingPaid')
      }
      throw error
    }
    await syncCustomer(deps, await customerOf(deps.db, userId))
  })
  return planStateOf(deps, userId)
}

/**
 * The plan read again from the provider once the bank's check of the open invoice's charge ran
 * in Stripe's page, so the page follows the charge with the bank without waiting for the
 * webhook. Asks the provider only while our record still waits for that check.
 */
export async function planChecked(
  deps: BillingDeps,
  userId: string,
  { mayAskProvider }: { mayAskProvider: () => Promise<boolean> },
): Promise<PlanState> {
  const open = await openInvoiceRow(deps.db, userId)
  if (open?.lastChargeStatus === 'requires_action' && (await mayAskProvider())) {
    await syncCustomer(deps, await customerOf(deps.db, userId))
  }
  return planStateOf(deps, userId)
}

/**
 * The member's answer on the sandbox bank's check of the open invoice's charge (Stripe.js runs
 * the bank's own in Stripe mode): confirmed, the charge goes to the bank; failed, it is
 * refused, in the member's words. Only the check the member's own plan state offers.
 */
export async function answerSandboxPlanCheck(
  deps: BillingDeps,
  userId: string,
  input: SandboxPaymentCheckRequest,
): Promise<PlanState> {
  await answerChargeCheck(deps, userId, input, async () => {
    const { bankCheck } = await planStateOf(deps, userId)
    return bankCheck !== null && bankCheck === input.clientSecret
      ? customerOf(deps.db, userId)
      : null
  })
  return planStateOf(deps, userId)
}

/**
 * The user's invoices, newest first (the invoices table), each with the plan it charged for and,
 * for FOUR PAYMENTS, which of the four it is.
 */
export async function invoicesOf(db: Database, userId: string): Promise<Invoice[]> {
  const rows = await db
    .select({
      invoice: billingInvoices,
      refunded: refundedOn(billingInvoices.id),
      nickname: billingPrices.nickname,
      plan: billingPrices.plan,
    })
    .from(billingInvoices)
    .leftJoin(billingPrices, eq(billingPrices.id, billingInvoices.priceId))
    .where(eq(billingInvoices.userId, userId))
    .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.number))
  // An installment's number: its place among the plan's invoices on that price, oldest first.
  // A voided one charged nothing and is not counted.
  const installmentNumber = new Map<string, number>()
  const counted = new Map<string, number>()
  for (const row of [...rows].reverse()) {
    if (row.plan !== 'four_payments' || row.invoice.status === 'void') continue
    const plan = `${row.invoice.subscriptionId}|${row.invoice.priceId}`
    const number = (counted.get(plan) ?? 0) + 1
    counted.set(plan, number)
    installmentNumber.set(row.invoice.id, number)
  }
  return rows.map((row) => {
    const number = installmentNumber.get(row.invoice.id)
    return presentInvoice(row.invoice, {
      refunded: row.refunded,
      product: row.nickname ? priceLabel(row.nickname) : null,
      installment:
        number !== undefined && number <= FOUR_PAYMENTS_INSTALLMENTS
          ? { number, total: FOUR_PAYMENTS_INSTALLMENTS }
          : null,
    })
  })
}

/** One of the user's own invoices; another user's reads as missing. */
export async function ownInvoice(db: Database, userId: string, id: string): Promise<InvoiceRow> {
  const [row] = await db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.id, id), eq(billingInvoices.userId, userId)))
  if (!row) throw new AppError(404, 'billing.invoiceNotFound')
  return row
}
