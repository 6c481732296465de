import { and, desc, eq, inArray } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import {
  billingInvoices,
  billingPaymentIntents,
  billingPreferences,
  billingSubscriptions,
} from '../../../db/schema/billing'
import type { SubscriptionStatus } from '../../../domain/access'
import { FOUR_PAYMENTS_INSTALLMENTS, RUNNING_STATUSES } from '../../../domain/billing-plans'
import type {
  GatewayInvoice,
  GatewayPaymentIntent,
  GatewaySubscription,
} from '../../payments/gateway'

// How the gateway's plans and invoices become our rows (the sync in customers.ts writes what
// these return), and which of a user's plans is the current one.

export type SubscriptionRow = typeof billingSubscriptions.$inferSelect

const at = (seconds: number) => new Date(seconds * 1000)
const atOrNull = (seconds: number | null) => (seconds === null ? null : at(seconds))

/**
 * Our status for a plan (domain/access.ts): the gateway's, except that a first payment the bank is still answering is `pending`, and FOUR PAYMENTS that
 * ended after all its installments were paid is `paid`.
 */
export function planStatus(
  subscription: GatewaySubscription,
  invoices: readonly GatewayInvoice[],
  intents: readonly GatewayPaymentIntent[],
): SubscriptionStatus {
  const own = invoices.filter((invoice) => invoice.subscription === subscription.id)
  if (subscription.status === 'canceled' && subscription.metadata.plan === 'four_payments') {
    // Only the installments: a subscription upgraded to FOUR PAYMENTS paid months before them.
    const price = subscription.items.data[0]?.price
    const paid = own.filter(
      (invoice) => invoice.status === 'paid' && invoice.lines.data[0]?.price === price,
    ).length
    if (paid >= FOUR_PAYMENTS_INSTALLMENTS) return 'paid'
  }
  if (subscription.status === 'incomplete') {
    const latest = own.find((invoice) => invoice.id === subscription.latest_invoice)
    const charge = intents.find((intent) => intent.id === latest?.payment_intent)
    if (charge?.status === 'processing') return 'pending'
  }
  return subscription.status
}

export function subscriptionRow(
  userId: string,
  subscription: GatewaySubscription,
  status: SubscriptionStatus,
) {
  return {
    id: subscription.id,
    userId,
    priceId: subscription.items.data[0]?.price ?? subscription.metadata.price_id,
    plan: subscription.metadata.plan,
    status,
    gatewayStatus: subscription.status,
    currentPeriodStart: at(subscription.current_period_start),
    currentPeriodEnd: at(subscription.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    cancelAt: atOrNull(subscription.cancel_at),
    canceledAt: atOrNull(subscription.canceled_at),
    endedAt: atOrNull(subscription.ended_at),
    paused: subscription.status === 'paused',
    latestInvoiceId: subscription.latest_invoice,
    createdAt: at(subscription.created),
    syncedAt: new Date(),
  }
}

export function invoiceRow(
  userId: string,
  invoice: GatewayInvoice,
  intents: readonly GatewayPaymentIntent[],
) {
  const address = invoice.customer_address
  const charge = intents.find((intent) => intent.id === invoice.payment_intent)
  return {
    id: invoice.id,
    number: invoice.number,
    userId,
    subscriptionId: invoice.subscription,
    priceId: invoice.lines.data[0]?.price ?? null,
    status: invoice.status,
    billingReason: invoice.billing_reason,
    currency: invoice.currency,
    subtotal: invoice.subtotal,
    total: invoice.total,
    amountDue: invoice.amount_due,
    amountPaid: invoice.amount_paid,
    lines: invoice.lines.data.map((line) => ({
      description: line.description,
      amount: line.amount,
      proration: line.proration,
      periodStart: at(line.period.start).toISOString(),
      periodEnd: at(line.period.end).toISOString(),
    })),
    customerName: invoice.customer_name,
    customerEmail: invoice.customer_email,
    customerAddress: address
      ? {
          line1: address.line1,
          line2: address.line2,
          city: address.city,
          state: address.state,
          postalCode: address.postal_code,
          country: address.country,
        }
      : null,
    receiptEmail: invoice.receipt_email,
    pdfUrl: invoice.invoice_pdf ?? null,
    attemptCount: invoice.attempt_count,
    lastChargeStatus: charge?.status ?? null,
    lastChargeFailure:
      charge?.status === 'requires_payment_method'
        ? (charge.last_payment_error?.decline_code ?? charge.last_payment_error?.code ?? null)
        : null,
    checkSecret: charge?.status === 'requires_action' ? charge.client_secret : null,
    nextPaymentAttempt: atOrNull(invoice.next_payment_attempt),
    periodStart: at(invoice.period_start),
    periodEnd: at(invoice.period_end),
    paidAt: atOrNull(invoice.status_transitions.paid_at),
    createdAt: at(invoice.created),
    syncedAt: new Date(),
  }
}

/** The plan My Account is about: the newest running one, else the newest (spec core §4). */
export async function currentPlanRow(
  db: Database,
  userId: string,
): Promise<SubscriptionRow | null> {
  const rows = await db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.userId, userId))
    .orderBy(desc(billingSubscriptions.createdAt), desc(billingSubscriptions.id))
  return rows.find((row) => RUNNING_STATUSES.includes(row.status)) ?? rows[0] ?? null
}

/** Whether the member asked to be mailed before each monthly payment (off by default). */
export async function renewalRemindersOf(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ on: billingPreferences.renewalReminders })
    .from(billingPreferences)
    .where(eq(billingPreferences.userId, userId))
  return row?.on ?? false
}

/** Whether the user has a plan still running (a card it charges cannot be the last removed). */
export async function hasRunningPlan(db: Database, userId: string): Promise<boolean> {
  const plan = await currentPlanRow(db, userId)
  return Boolean(plan && RUNNING_STATUSES.includes(plan.status))
}

/**
 * Whether a charge of the member's plan waits for their check at the bank (3-D Secure): the
 * plan's first month, an open invoice paid from the page. Answered, it pays, so nothing else
 * is bought meanwhile.
 */
export async function hasChargeAwaitingCheck(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: billingInvoices.id })
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.userId, userId),
        eq(billingInvoices.status, 'open'),
        eq(billingInvoices.lastChargeStatus, 'requires_action'),
      ),
    )
    .limit(1)
  return Boolean(row)
}

/** Statuses of a one-time payment that is paid or may still be. */
const LIFETIME_STATUSES = ['processing', 'succeeded']

/**
 * Whether the user has a lifetime payment: a one-time payment (ONE PAYMENT, also bought as an
 * upgrade) that succeeded or is still with the bank. Nothing else is bought beside it.
 */
export async function hasLifetimePayment(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: billingPaymentIntents.id })
    .from(billingPaymentIntents)
    .where(
      and(
        eq(billingPaymentIntents.userId, userId),
        inArray(billingPaymentIntents.status, LIFETIME_STATUSES),
      ),
    )
    .limit(1)
  return Boolean(row)
}
