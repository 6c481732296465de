import { and, type Column, eq, isNotNull, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { qualified, sqlList } from '../../../db/qualified'
import { billingEvents, billingRefunds } from '../../../db/schema'
import type { GatewayRefund } from '../../payments/gateway'
import type { BillingDeps } from './service'

// Our rows of the refunds made on members' invoices: written from the gateway's answer to a
// refund and again by each sync of the member (customers.ts), and summed per invoice for the
// member's history and the console.

/** The statuses of money given back, or on its way: what counts against what is left. */
export const RETURNED_STATUSES = ['pending', 'requires_action', 'succeeded'] as const

/** Cents given back on an invoice (`invoiceId` a column of the outer query), 0 when none. */
export const refundedOn = (invoiceId: Column) =>
  sql<number>`(select coalesce(sum(${billingRefunds.amount}), 0)::int from ${billingRefunds}
    where ${billingRefunds.invoiceId} = ${qualified(invoiceId)}
    and ${billingRefunds.status} in (${sqlList(RETURNED_STATUSES)}))`

const rowOf = (userId: string, invoiceId: string, refund: GatewayRefund) => ({
  id: refund.id,
  userId,
  invoiceId,
  paymentIntentId: refund.payment_intent,
  amount: refund.amount,
  currency: refund.currency,
  status: refund.status,
  createdAt: new Date(refund.created * 1000),
  syncedAt: new Date(),
})

/**
 * Writes refunds as the gateway told them: new ones, and the status of those known. A refund
 * made at the provider names no invoice of ours: `invoiceOf` finds the invoice its payment paid,
 * and one on no invoice of the member's is left out.
 */
export async function writeRefunds(
  db: Database,
  userId: string,
  refunds: readonly GatewayRefund[],
  invoiceOf: (paymentIntent: string) => string | undefined = () => undefined,
): Promise<void> {
  for (const refund of refunds) {
    const invoiceId = refund.metadata.invoice_id ?? invoiceOf(refund.payment_intent)
    if (!invoiceId) continue
    const row = rowOf(userId, invoiceId, refund)
    await db
      .insert(billingRefunds)
      .values(row)
      .onConflictDoUpdate({
        target: billingRefunds.id,
        set: { status: row.status, amount: row.amount, syncedAt: row.syncedAt },
      })
  }
}

/**
 * The refunds of the member's payments that have one, as the gateway tells them now (a
 * `pending` refund becomes `succeeded` or `failed`): those made here, and those the provider
 * told of (`charge.refunded`, also for a refund made in its Dashboard). No call at all for a
 * member never refunded.
 */
export async function readRefunds(
  { db, payments }: BillingDeps,
  userId: string,
  customerId: string,
): Promise<GatewayRefund[]> {
  const charges = await db
    .select({ id: billingRefunds.paymentIntentId })
    .from(billingRefunds)
    .where(eq(billingRefunds.userId, userId))
    .union(
      db
        .select({ id: sql<string>`${billingEvents.paymentIntentId}` })
        .from(billingEvents)
        .where(
          and(
            eq(billingEvents.customerId, customerId),
            eq(billingEvents.type, 'charge.refunded'),
            isNotNull(billingEvents.paymentIntentId),
          ),
        ),
    )
  const lists = await Promise.all(charges.map(({ id }) => payments.listRefunds(id)))
  // A payment of this customer's is the member's: a refund of it made at the provider names
  // nobody, one made here names the member.
  return lists.flat().filter((refund) => (refund.metadata.user_id ?? userId) === userId)
}
