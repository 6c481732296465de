import { createHash } from 'node:crypto'
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import { billingCustomers, billingInvoices, billingRefunds } from '../../../db/schema'
import { AppError } from '../../errors'
import { GatewayError, type GatewayRefund } from '../../payments/gateway'
import { syncCustomer } from './customers'
import { withMemberLock } from './member-lock'
import { RETURNED_STATUSES, writeRefunds } from './refund-rows'
import type { BillingDeps } from './service'

// Money given back on a paid invoice, to the card that paid it (the console's Refund). Giving
// back changes neither the plan nor access: the operator ends those apart, if at all. The
// gateway refuses more than its charge took; our rows say how much is left to the console.

export interface RefundDone {
  refund: { id: string; amount: number; status: GatewayRefund['status'] }
  invoice: { id: string; number: string; amountPaid: number }
  /** Given back on the invoice before this refund. */
  refundedBefore: number
}

/**
 * Gives back `amount` cents of the member's paid invoice to the card that paid it. The request's
 * own key goes into the gateway's idempotency key, so the same request sent twice (a double
 * click, a retry after a time-out) refunds once and answers that refund again. `tell` runs once
 * per refund, in the transaction that records it, as soon as the gateway has given the money
 * back: the audit log never misses a refund made, nor holds one twice.
 */
export async function refundInvoice(
  deps: BillingDeps,
  input: { userId: string; invoiceId: string; amount: number; requestKey: string },
  tell: (refund: RefundDone) => Promise<void>,
): Promise<RefundDone> {
  const { db, payments } = deps
  const { userId, invoiceId, amount } = input
  return withMemberLock(db, userId, async () => {
    const [invoice] = await db
      .select({
        id: billingInvoices.id,
        number: billingInvoices.number,
        status: billingInvoices.status,
        amountPaid: billingInvoices.amountPaid,
        customerId: billingCustomers.customerId,
      })
      .from(billingInvoices)
      .innerJoin(billingCustomers, eq(billingCustomers.userId, billingInvoices.userId))
      .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.userId, userId)))
    if (!invoice) throw new AppError(404, 'billing.invoiceNotFound')
    if (invoice.status !== 'paid') throw new AppError(409, 'billing.refundNotPaid')
    // What is left is the gateway's to decide: a repeated request finds its refund made, which
    // a count of ours would take for a second one.
    const charge = (await payments.retrieveInvoice(invoiceId))?.payment_intent
    if (!charge) throw new AppError(409, 'billing.refundNotPaid')
    // The key is made from the member, the invoice, the amount and the page's own key: the same
    // request sent again is the same refund, and no key can name another invoice's refund.
    const idempotencyKey = `refund-${createHash('sha256')
      .update(JSON.stringify([userId, invoiceId, amount, input.requestKey]))
      .digest('base64url')}`
    let refund: GatewayRefund
    try {
      refund = await payments.createRefund(
        { paymentIntent: charge, amount, metadata: { user_id: userId, invoice_id: invoiceId } },
        { idempotencyKey },
      )
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'charge_already_refunded') {
        throw new AppError(409, 'billing.refundNothingLeft')
      }
      if (error instanceof GatewayError && error.code === 'amount_too_large') {
        throw new AppError(409, 'billing.refundTooLarge')
      }
      if (error instanceof GatewayError && error.code === 'charge_disputed') {
        throw new AppError(409, 'billing.refundDisputed')
      }
      throw error
    }
    if (
      refund.payment_intent !== charge ||
      refund.amount !== amount ||
      refund.metadata.invoice_id !== invoiceId
    ) {
      throw new Error(`The gateway answered refund ${refund.id} for another request.`)
    }
    // The row, and telling the caller (the audit entry), stand or fall together; a refund a
    // sync wrote first is told here all the same, once.
    const result = await db.transaction(async () => {
      await writeRefunds(db, userId, [refund])
      const [before] = await db
        .select({ amount: sql<number>`coalesce(sum(${billingRefunds.amount}), 0)::int` })
        .from(billingRefunds)
        .where(
          and(
            eq(billingRefunds.invoiceId, invoiceId),
            ne(billingRefunds.id, refund.id),
            inArray(billingRefunds.status, [...RETURNED_STATUSES]),
          ),
        )
      const done: RefundDone = {
        refund: { id: refund.id, amount: refund.amount, status: refund.status },
        invoice: { id: invoice.id, number: invoice.number, amountPaid: invoice.amountPaid },
        refundedBefore: before?.amount ?? 0,
      }
      const [first] = await db
        .update(billingRefunds)
        .set({ toldAt: sql`now()` })
        .where(and(eq(billingRefunds.id, refund.id), isNull(billingRefunds.toldAt)))
        .returning({ id: billingRefunds.id })
      if (first) await tell(done)
      return done
    })
    // The money went back and is recorded: a sync that fails now is the event's job to redo
    // (charge.refunded), and must not tell the operator the refund failed.
    await syncCustomer(deps, invoice.customerId).catch(() => undefined)
    return result
  })
}
