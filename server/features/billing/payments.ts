import { and, desc, eq } from 'drizzle-orm'
import {
  billingCustomers,
  billingInvoices,
  billingPaymentIntents,
  billingPrices,
} from '../../../db/schema/billing'
import type {
  Payment,
  PaymentCheckedRequest,
  PayOnceRequest,
  PayOnceResponse,
  SandboxPaymentCheckRequest,
} from '../../../domain/billing'
import type { Language } from '../../../domain/i18n'
import { AppError } from '../../errors'
import { translate } from '../../i18n'
import { GatewayError, paymentIntentOfSecret } from '../../payments/gateway'
import {
  assertUsableCard,
  customerIdFor,
  type Payer,
  refusalMessage,
  syncCustomer,
} from './customers'
import { withMemberLock } from './member-lock'
import { hasChargeAwaitingCheck, hasLifetimePayment, hasRunningPlan } from './plan-sync'
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
    // Refused, or refused at the bank's check and then cancelled so it cannot be tried again.
    failure:
      row.status === 'requires_payment_method' || (row.status === 'canceled' && row.failureCode)
        ? translate(
            withoutReasons ? 'billing.cardDeclined' : refusalMessage(row.failureCode),
            language,
          )
        : null,
    createdAt: row.createdAt.toISOString(),
  }))
}

/**
 * A one-time payment whose bank check (3-D Secure) nobody answered, because the member closed
 * the page, is given up before anything else is bought: left waiting, it could still be
 * confirmed later, beside the new purchase. One answered meanwhile is with the bank now, stays,
 * and counts as the lifetime payment it is. Run in the member's turn (member-lock.ts).
 */
export async function giveUpUnansweredChecks(deps: BillingDeps, userId: string): Promise<void> {
  const waiting = await deps.db
    .select({ id: billingPaymentIntents.id })
    .from(billingPaymentIntents)
    .where(
      and(
        eq(billingPaymentIntents.userId, userId),
        eq(billingPaymentIntents.status, 'requires_action'),
      ),
    )
  if (waiting.length === 0) return
  // An invoice's charge (ONE PAYMENT bought as an upgrade) is the invoice's to keep: its
  // check stays offered on My Subscription, and Stripe cancels no charge an invoice made.
  const invoiceCharges = new Set(
    (
      await deps.db
        .select({ secret: billingInvoices.checkSecret })
        .from(billingInvoices)
        .where(and(eq(billingInvoices.userId, userId), eq(billingInvoices.status, 'open')))
    ).map(({ secret }) => (secret ? paymentIntentOfSecret(secret) : null)),
  )
  const givenUp = waiting.filter(({ id }) => !invoiceCharges.has(id))
  if (givenUp.length === 0) return
  for (const { id } of givenUp) {
    try {
      await deps.payments.cancelPaymentIntent(id, { idempotencyKey: `give-up-${id}` })
    } catch (error) {
      if (!(error instanceof GatewayError && error.code === 'payment_intent_unexpected_state')) {
        throw error
      }
    }
  }
  const [customer] = await deps.db
    .select({ id: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  if (customer) await syncCustomer(deps, customer.id)
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
): Promise<PayOnceResponse> {
  const intent = await withMemberLock(deps.db, payer.id, async () => {
    const [price] = await deps.db
      .select()
      .from(billingPrices)
      .where(and(eq(billingPrices.id, input.priceId), eq(billingPrices.active, true)))
    if (!price) throw new AppError(404, 'billing.priceNotFound')
    if (price.plan !== 'one_payment') throw new AppError(400, 'billing.notOnePayment')
    await giveUpUnansweredChecks(deps, payer.id)
    if (await hasLifetimePayment(deps.db, payer.id)) throw new AppError(409, 'billing.alreadyPaid')
    // Monthly charges would go on beside a lifetime payment: the plan is upgraded instead.
    if (await hasRunningPlan(deps.db, payer.id)) throw new AppError(409, 'billing.useUpgrade')
    // A plan's charge waiting for the member's check would pay it beside this one.
    if (await hasChargeAwaitingCheck(deps.db, payer.id)) {
      throw new AppError(409, 'billing.planChargeAwaitingCheck')
    }
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
  // The secret lets the page run the bank's check of this payment, and only that: it is sent
  // only while the check is asked for.
  return {
    payment: made,
    clientSecret: intent.status === 'requires_action' ? intent.client_secret : null,
  }
}

/**
 * The payment read again from the provider once the bank's check ran in Stripe's page, so
 * the page follows it with the bank at once rather than when the webhook comes. Only the
 * member's own, and only while our record still waits for the check (nothing to ask else).
 */
export async function paymentChecked(
  deps: BillingDeps,
  payer: Payer,
  input: PaymentCheckedRequest,
  language: Language,
  { mayAskProvider }: { mayAskProvider: () => Promise<boolean> },
): Promise<PayOnceResponse> {
  const [own] = await deps.db
    .select({ status: billingPaymentIntents.status, customerId: billingCustomers.customerId })
    .from(billingPaymentIntents)
    .innerJoin(billingCustomers, eq(billingCustomers.userId, billingPaymentIntents.userId))
    .where(
      and(
        eq(billingPaymentIntents.id, input.paymentId),
        eq(billingPaymentIntents.userId, payer.id),
      ),
    )
  if (!own) throw new AppError(404, 'billing.paymentNotFound')
  if (own.status === 'requires_action' && (await mayAskProvider())) {
    await syncCustomer(deps, own.customerId)
  }
  const payment = (await paymentsOf(deps, payer.id, language)).find(
    (made) => made.id === input.paymentId,
  )
  if (!payment) throw new Error(`payment ${input.paymentId} is not in the payment table`)
  return { payment, clientSecret: null }
}

/**
 * The member's answer on the sandbox bank's check of a charge (Stripe.js runs the bank's own in
 * Stripe mode), in the member's turn, for a check `ownCustomer` finds to be the member's own (it
 * answers their customer, or null). The member is synced whatever came of it. A refused check
 * is a 402 in the member's words; one no longer asked for (given up because something else was
 * bought, or answered in another tab), a 409.
 */
export async function answerChargeCheck(
  deps: BillingDeps,
  userId: string,
  input: SandboxPaymentCheckRequest,
  ownCustomer: () => Promise<string | null>,
): Promise<void> {
  const field = deps.payments.cardField
  if (!field) throw new AppError(404, 'billing.sandboxOnly')
  const answered = await withMemberLock(deps.db, userId, async () => {
    const customerId = await ownCustomer()
    if (!customerId) throw new AppError(404, 'billing.paymentNotFound')
    try {
      return await field.authenticateCardPayment(input)
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'payment_intent_unexpected_state') {
        throw new AppError(409, 'billing.checkOver')
      }
      throw error
    } finally {
      await syncCustomer(deps, customerId)
    }
  })
  if (answered.status === 'requires_payment_method') {
    throw new AppError(402, 'billing.paymentAuthenticationFailed')
  }
}

/** The sandbox bank's check of a ONE PAYMENT: only the member's own payment, by its secret. */
export async function answerSandboxPaymentCheck(
  deps: BillingDeps,
  payer: Payer,
  input: SandboxPaymentCheckRequest,
  language: Language,
): Promise<PayOnceResponse> {
  const id = paymentIntentOfSecret(input.clientSecret)
  await answerChargeCheck(deps, payer.id, input, async () => {
    const [own] = await deps.db
      .select({ id: billingPaymentIntents.id })
      .from(billingPaymentIntents)
      .where(and(eq(billingPaymentIntents.id, id), eq(billingPaymentIntents.userId, payer.id)))
    const intent = own ? await deps.payments.retrievePaymentIntent(id) : null
    return intent?.client_secret === input.clientSecret ? intent.customer : null
  })
  const payment = (await paymentsOf(deps, payer.id, language)).find((made) => made.id === id)
  if (!payment) throw new Error(`payment ${id} is not in the payment table`)
  return { payment, clientSecret: null }
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
