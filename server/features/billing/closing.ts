import { and, eq, inArray, lte } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import {
  billingCustomers,
  billingInvoices,
  billingPaymentIntents,
  billingRefunds,
} from '../../../db/schema/billing'
import { keptInvoices } from '../../../db/schema/leaving'
import { KEPT_INVOICE_YEARS } from '../../../domain/leaving'
import { AppError } from '../../errors'
import { syncCustomer } from './customers'
import { withMemberLock } from './member-lock'
import { RETURNED_STATUSES } from './refund-rows'
import type { BillingDeps } from './service'

// What billing does when a member deletes their account (docs/decisions/0036): every plan ends
// at once at the provider and nothing can be charged again; then the invoices the law keeps
// are copied, detached from the account, before the account's rows go.

/** The provider's statuses of a plan that has ended and can charge nothing more. */
const ENDED_AT_PROVIDER = new Set(['canceled', 'incomplete_expired'])

/** Statuses of a one-time payment nobody finished: it can be given up without a charge. */
const UNFINISHED_PAYMENT = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
])

/**
 * Ends everything that could charge the member again, in their turn (no purchase can start in
 * between): every plan is cancelled now, crediting and refunding nothing (an operator may still
 * refund from the provider's records); open invoices are voided, unfinished one-time payments
 * given up, saved cards removed; then the member is synced, so the invoices copied next are as
 * the provider has them, and the customer is deleted at the provider. A charge still with the
 * bank refuses the deletion (409): it may yet succeed, and must land on an account that still
 * exists.
 */
export async function closeBillingForDeletion<T>(
  deps: BillingDeps,
  userId: string,
  /** Run next in the same turn: the deletion itself, so no purchase starts in between. */
  then: () => Promise<T>,
): Promise<T> {
  return withMemberLock(deps.db, userId, async () => {
    const [customer] = await deps.db
      .select({ customerId: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, userId))
    if (customer) await closeCustomer(deps, userId, customer.customerId)
    return then()
  })
}

async function closeCustomer(deps: BillingDeps, userId: string, customerId: string) {
  const { payments } = deps
  const intents = await payments.listPaymentIntents(customerId)
  if (
    (await paymentWithBank(deps.db, userId)) ||
    intents.some((intent) => intent.status === 'processing')
  ) {
    throw new AppError(409, 'leaving.paymentInProgress')
  }
  for (const subscription of await payments.listSubscriptions(customerId)) {
    if (!ENDED_AT_PROVIDER.has(subscription.status)) {
      await payments.cancelSubscription(subscription.id)
    }
  }
  // Read again: ending a plan may have settled some of its invoices already.
  for (const invoice of await payments.listInvoices(customerId)) {
    if (invoice.status === 'open') await payments.voidInvoice(invoice.id)
  }
  for (const intent of intents) {
    if (UNFINISHED_PAYMENT.has(intent.status)) await payments.cancelPaymentIntent(intent.id)
  }
  for (const method of await payments.listPaymentMethods(customerId)) {
    await payments.detachPaymentMethod(method.id)
  }
  // So the invoices copied by keepInvoices are the provider's final word (voided ones too:
  // invoice numbers run without gaps, so a void one is kept like the rest).
  await syncCustomer(deps, customerId)
  // Last: the sync above reads the customer. The provider keeps no billing details of theirs.
  await payments.deleteCustomer(customerId)
}

/**
 * Whether one of the member's charges is still with the bank, as last synced: a deletion is
 * refused then (it may yet succeed, and must land on an account that still exists).
 */
export async function paymentWithBank(db: Database, userId: string): Promise<boolean> {
  const [invoice] = await db
    .select({ id: billingInvoices.id })
    .from(billingInvoices)
    .where(
      and(eq(billingInvoices.userId, userId), eq(billingInvoices.lastChargeStatus, 'processing')),
    )
    .limit(1)
  const [payment] = await db
    .select({ id: billingPaymentIntents.id })
    .from(billingPaymentIntents)
    .where(
      and(eq(billingPaymentIntents.userId, userId), eq(billingPaymentIntents.status, 'processing')),
    )
    .limit(1)
  return Boolean(invoice || payment)
}

/** The end of the keeping period of an invoice issued at `issuedAt`. */
export function keepUntilOf(issuedAt: Date): Date {
  return new Date(Date.UTC(issuedAt.getUTCFullYear() + KEPT_INVOICE_YEARS + 1, 0, 1))
}

/**
 * Copies the member's invoices into `kept_invoice`, without anything that names the account
 * (its id, e-mail, the provider's customer): what was invoiced, to whom (the billing name and
 * address printed on it), when, and what was given back. Run in the transaction that deletes
 * the account. Answers how many were kept.
 */
export async function keepInvoices(tx: Database, userId: string): Promise<number> {
  const rows = await tx.select().from(billingInvoices).where(eq(billingInvoices.userId, userId))
  if (rows.length === 0) return 0
  const refunds = await tx
    .select({
      invoiceId: billingRefunds.invoiceId,
      amount: billingRefunds.amount,
      status: billingRefunds.status,
    })
    .from(billingRefunds)
    .where(
      and(
        eq(billingRefunds.userId, userId),
        inArray(
          billingRefunds.invoiceId,
          rows.map((row) => row.id),
        ),
      ),
    )
  const refunded = (invoiceId: string) =>
    refunds
      .filter((refund) => refund.invoiceId === invoiceId)
      .filter((refund) => (RETURNED_STATUSES as readonly string[]).includes(refund.status))
      .reduce((sum, refund) => sum + refund.amount, 0)
  const kept = rows.map((row) => ({
    id: row.id,
    number: row.number,
    status: row.status,
    billingReason: row.billingReason,
    currency: row.currency,
    subtotal: row.subtotal,
    total: row.total,
    amountPaid: row.amountPaid,
    amountRefunded: refunded(row.id),
    lines: row.lines,
    customerName: row.customerName,
    customerAddress: row.customerAddress,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    paidAt: row.paidAt,
    createdAt: row.createdAt,
    keepUntil: keepUntilOf(row.createdAt),
  }))
  await tx.insert(keptInvoices).values(kept).onConflictDoNothing()
  return kept.length
}

/** Deletes kept invoices whose keeping period is over; answers how many. */
export async function forgetExpiredInvoices(db: Database, now = new Date()): Promise<number> {
  const gone = await db
    .delete(keptInvoices)
    .where(lte(keptInvoices.keepUntil, now))
    .returning({ id: keptInvoices.id })
  return gone.length
}
