import { and, eq } from 'drizzle-orm'
import { billingCustomers, billingInvoices } from '../../../db/schema'
import { AppError } from '../../errors'
import { GatewayError, type GatewayRefund } from '../../payments/gateway'
import { syncCustomer } from './customers'
import { withMemberLock } from './member-lock'
import { refundedOn, writeRefunds } from './refund-rows'
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
 * own key is the gateway's idempotency key, so the same request sent twice (a double click, a
 * retry after a time-out) refunds once and answers that refund again. `done` is told once, as
 * soon as the gateway has given the money back, before the member's sync (which may fail and is
 * then retried by the event's job): the audit log never misses a refund made.
 */
export async function refundInvoice(
  deps: BillingDeps,
  input: { userId: string; invoiceId: string; amount: number; requestKey: string },
  done: (refund: RefundDone) => Promise<void>,
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
        refunded: refundedOn(billingInvoices.id),
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
    let refund: GatewayRefund
    try {
      refund = await payments.createRefund(
        { paymentIntent: charge, amount, metadata: { user_id: userId, invoice_id: invoiceId } },
        { idempotencyKey: `refund-${input.requestKey}` },
      )
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'charge_already_refunded') {
        throw new AppError(409, 'billing.refundNothingLeft')
      }
      if (error instanceof GatewayError && error.code === 'amount_too_large') {
        throw new AppError(409, 'billing.refundTooLarge')
      }
      throw error
    }
    const [isNew = false] = await writeRefunds(db, userId, [refund])
    const result: RefundDone = {
      refund: { id: refund.id, amount: refund.amount, status: refund.status },
      invoice: { id: invoice.id, number: invoice.number, amountPaid: invoice.amountPaid },
      refundedBefore: isNew ? invoice.refunded : invoice.refunded - refund.amount,
    }
    if (isNew) await done(result)
    await syncCustomer(deps, invoice.customerId)
    return result
  })
}
