import { and, desc, eq } from 'drizzle-orm'
import { billingPaymentIntents, billingPrices } from '../../../db/schema/billing'
import type { Payment, PayOnceRequest } from '../../../domain/billing'
import type { Language } from '../../../domain/i18n'
import { AppError } from '../../errors'
import { translate } from '../../i18n'
import {
  assertUsableCard,
  customerIdFor,
  type Payer,
  refusalMessage,
  syncCustomer,
} from './customers'
import { withMemberLock } from './member-lock'
import { hasLifetimePayment, hasRunningPlan } from './plan-sync'
import type { BillingDeps } from './service'

/**
 * The user's one-time payments, newest first, as the pay screen shows them. With
 * `withoutReasons` (past the first few refusals: card-tries.ts), a refused payment says only
 * that the card was declined.
 */
export async function paymentsOf(
  deps: BillingDeps,
  userId: string,
  language: Language,
  { withoutReasons = false } = {},
): Promise<Payment[]> {
  const rows = await deps.db
    .select()
    .from(billingPaymentIntents)
    .where(eq(billingPaymentIntents.userId, userId))
    .orderBy(desc(billingPaymentIntents.createdAt), desc(billingPaymentIntents.id))
  return rows.map((row) => ({
    id: row.id,
    amount: row.amount,
    status: row.status,
    failure:
      row.status === 'requires_payment_method'
        ? translate(
            withoutReasons ? 'billing.cardDeclined' : refusalMessage(row.failureCode),
            language,
          )
        : null,
    createdAt: row.createdAt.toISOString(),
  }))
}

/**
 * Pays a ONE PAYMENT price with the card from the card field. Never charges twice: in the
 * member's turn (member-lock.ts) it checks that nothing is paid or under way and no plan runs,
 * then charges, with the attempt id as the provider's idempotency key, so a retried request
 * returns the first answer.
 */
export async function payOnce(
  deps: BillingDeps,
  payer: Payer,
  input: PayOnceRequest,
  language: Language,
): Promise<Payment> {
  const intent = await withMemberLock(deps.db, payer.id, async () => {
    const [price] = await deps.db
      .select()
      .from(billingPrices)
      .where(and(eq(billingPrices.id, input.priceId), eq(billingPrices.active, true)))
    if (!price) throw new AppError(404, 'billing.priceNotFound')
    if (price.plan !== 'one_payment') throw new AppError(400, 'billing.notOnePayment')
    if (await hasLifetimePayment(deps.db, payer.id)) throw new AppError(409, 'billing.alreadyPaid')
    // Monthly charges would go on beside a lifetime payment: the plan is upgraded instead.
    if (await hasRunningPlan(deps.db, payer.id)) throw new AppError(409, 'billing.useUpgrade')
    const customerId = await customerIdFor(deps, payer)
    await assertUsableCard(deps, payer.id, customerId, input.paymentMethodId)
    const created = await deps.payments.createPaymentIntent(
      {
        amount: price.unitAmount,
        currency: price.currency,
        customer: customerId,
        paymentMethod: input.paymentMethodId,
        receiptEmail: input.receiptEmail ?? null,
        metadata: { price_id: price.id, user_id: payer.id },
      },
      { idempotencyKey: `pay-${payer.id}-${input.attemptId}` },
    )
    await syncCustomer(deps, customerId)
    return created
  })
  // Refused outright by the bank: 'Payment failed' and the reason, at once.
  if (intent.status === 'requires_payment_method') {
    const error = intent.last_payment_error
    throw new AppError(402, refusalMessage(error?.decline_code ?? error?.code))
  }
  const made = (await paymentsOf(deps, payer.id, language)).find(
    (payment) => payment.id === intent.id,
  )
  if (!made) throw new Error(`payment ${intent.id} did not arrive in the payment table`)
  return made
}

/** The user's one-time payments as the access rule needs them (spec core §4), newest first. */
export async function paymentFactsFor(
  db: BillingDeps['db'],
  userId: string,
): Promise<{ id: string; status: string }[]> {
  return db
    .select({ id: billingPaymentIntents.id, status: billingPaymentIntents.status })
    .from(billingPaymentIntents)
    .where(eq(billingPaymentIntents.userId, userId))
    .orderBy(desc(billingPaymentIntents.createdAt), desc(billingPaymentIntents.id))
}
