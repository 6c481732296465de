import type Stripe from 'stripe'
import { CARD_BRANDS, type CardBrand, PLANS, type Plan } from '../../domain/billing'
import type {
  GatewayAddress,
  GatewayCustomer,
  GatewayInvoice,
  GatewayPaymentIntent,
  GatewayPaymentMethod,
  GatewayPrice,
  GatewayProduct,
  GatewayRefund,
  GatewaySetupIntent,
  GatewaySubscription,
} from './gateway'

// Stripe's objects (as the SDK hands them over, in the pinned API version) as the contract's.
// The contract keeps Stripe's field names, so most fields pass through; what Stripe leaves
// null where the contract has none becomes the contract's empty value, and an object that
// cannot be one of ours (a price without a plan, a charge in another currency) is left out by
// the lists rather than passed on half-true.

/** The id of a field that is an id or, when expanded, the object. */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null
  return typeof value === 'string' ? value : value.id
}

export function toProduct(product: Stripe.Product): GatewayProduct {
  return {
    id: product.id,
    object: 'product',
    name: product.name,
    active: product.active,
    created: product.created,
  }
}

const isPlan = (value: string | undefined): value is Plan =>
  (PLANS as readonly (string | undefined)[]).includes(value)

/**
 * The price, or null when it is not one of our plans' prices: one made in the dashboard without
 * metadata[plan], in another currency, not monthly, or with an amount of its own.
 */
export function toPrice(price: Stripe.Price): GatewayPrice | null {
  const plan = price.metadata.plan
  if (!isPlan(plan) || price.currency !== 'usd' || price.unit_amount === null) return null
  const recurring = price.recurring
  if (recurring && (recurring.interval !== 'month' || plan === 'one_payment')) return null
  if (!recurring && plan !== 'one_payment') return null
  return {
    id: price.id,
    object: 'price',
    product: idOf(price.product) ?? '',
    nickname: price.nickname ?? '',
    unit_amount: price.unit_amount,
    currency: 'usd',
    active: price.active,
    created: price.created,
    type: recurring ? 'recurring' : 'one_time',
    recurring: recurring ? { interval: 'month', interval_count: recurring.interval_count } : null,
    metadata: { plan },
  }
}

/** An address field Stripe leaves empty is null, as the contract keeps an absent line. */
const blankToNull = (value: string | null | undefined) => (value ? value : null)

export function toAddress(address: Stripe.Address | null | undefined): GatewayAddress | null {
  if (!address) return null
  return {
    line1: address.line1 ?? '',
    line2: blankToNull(address.line2),
    city: blankToNull(address.city),
    state: blankToNull(address.state),
    postal_code: address.postal_code ?? '',
    country: address.country ?? '',
  }
}

export function toCustomer(customer: Stripe.Customer): GatewayCustomer {
  return {
    id: customer.id,
    object: 'customer',
    email: customer.email ?? '',
    name: customer.name ?? '',
    address: toAddress(customer.address),
    invoice_settings: {
      default_payment_method: idOf(customer.invoice_settings.default_payment_method),
    },
    // A customer made outside the app has no user: the sync reads the empty id as nobody's.
    metadata: { user_id: customer.metadata.user_id ?? '' },
    created: customer.created,
  }
}

const FUNDING = ['credit', 'debit', 'prepaid', 'unknown'] as const
const CARD_TYPES = ['debit', 'credit'] as const

export function toPaymentMethod(method: Stripe.PaymentMethod): GatewayPaymentMethod {
  const card = method.card
  if (method.type !== 'card' || !card) {
    throw new Error(`Payment method ${method.id} is a ${method.type}, not a card.`)
  }
  const brand = (CARD_BRANDS as readonly string[]).includes(card.brand)
    ? (card.brand as CardBrand)
    : 'unknown'
  const funding = (FUNDING as readonly string[]).includes(card.funding)
    ? (card.funding as GatewayPaymentMethod['card']['funding'])
    : 'unknown'
  const cardType = method.metadata?.card_type
  return {
    id: method.id,
    object: 'payment_method',
    type: 'card',
    customer: idOf(method.customer),
    card: {
      brand,
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      funding,
    },
    metadata: (CARD_TYPES as readonly (string | undefined)[]).includes(cardType)
      ? { card_type: cardType as (typeof CARD_TYPES)[number] }
      : {},
    created: method.created,
  }
}

const SETUP_STATUSES: readonly GatewaySetupIntent['status'][] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
]

const unknownStatus = (intent: Stripe.SetupIntent): never => {
  throw new Error(`Setup intent ${intent.id} has a status the app does not know: ${intent.status}.`)
}

/** A setup intent as the contract has it; a customer is always named (we make them so). */
export function toSetupIntent(intent: Stripe.SetupIntent): GatewaySetupIntent {
  const customer = idOf(intent.customer)
  if (!customer || !intent.client_secret) {
    throw new Error(`Setup intent ${intent.id} came back without its customer or secret.`)
  }
  const error = intent.last_setup_error
  const status = intent.status as GatewaySetupIntent['status']
  return {
    id: intent.id,
    object: 'setup_intent',
    customer,
    client_secret: intent.client_secret,
    status: SETUP_STATUSES.includes(status) ? status : unknownStatus(intent),
    payment_method: idOf(intent.payment_method),
    next_action: intent.next_action ? { type: intent.next_action.type } : null,
    last_setup_error: error
      ? {
          code: error.code ?? error.type,
          decline_code: error.decline_code || null,
          message: error.message ?? '',
        }
      : null,
    created: intent.created,
  }
}

/**
 * The charge, or null when it is not in dollars (none of ours is). One waiting for the member's
 * check at the bank stays `requires_action`, with its client secret for the page; one
 * authorized and not yet captured reads as `processing` (the app never asks for a separate
 * capture).
 */
export function toPaymentIntent(intent: Stripe.PaymentIntent): GatewayPaymentIntent | null {
  if (intent.currency !== 'usd') return null
  const { metadata } = intent
  let status: GatewayPaymentIntent['status']
  const lastError: GatewayPaymentIntent['last_payment_error'] = intent.last_payment_error
    ? {
        code: intent.last_payment_error.code ?? intent.last_payment_error.type,
        ...(intent.last_payment_error.decline_code
          ? { decline_code: intent.last_payment_error.decline_code }
          : {}),
        message: intent.last_payment_error.message ?? '',
      }
    : null
  switch (intent.status) {
    case 'requires_payment_method':
    case 'requires_confirmation':
    case 'processing':
    case 'succeeded':
    case 'canceled':
    case 'requires_action':
      status = intent.status as GatewayPaymentIntent['status']
      break
    case 'requires_capture':
      status = 'processing'
      break
    default:
      throw new Error(`Payment ${intent.id} has a status the app does not know: ${intent.status}.`)
  }
  return {
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    currency: 'usd',
    customer: idOf(intent.customer) ?? '',
    payment_method: idOf(intent.payment_method),
    status,
    receipt_email: intent.receipt_email,
    client_secret: intent.client_secret ?? '',
    last_payment_error: lastError,
    metadata: { price_id: metadata.price_id ?? '', user_id: metadata.user_id ?? '' },
    created: intent.created,
  }
}

const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'paused',
] as const

/**
 * When the plan ends by itself: its cancel_at, or, where Stripe leaves that empty on a plan run
 * by a schedule that cancels it, the end of the schedule's last phase (seen only when the
 * schedule was expanded).
 */
function endOf(subscription: Stripe.Subscription): number | null {
  if (subscription.cancel_at !== null) return subscription.cancel_at
  const schedule = subscription.schedule
  if (!schedule || typeof schedule === 'string' || schedule.end_behavior !== 'cancel') return null
  return schedule.phases.at(-1)?.end_date ?? null
}

/**
 * The plan, or null when it is not one the app made: its metadata names no plan of ours, or
 * lacks the user or the price, or it is in a state the app never puts a plan in (`trialing`).
 * Its periods are its first item's, where this API version keeps them.
 */
export function toSubscription(subscription: Stripe.Subscription): GatewaySubscription | null {
  const { plan, user_id: userId, price_id: priceId, attempt_id: attemptId } = subscription.metadata
  if (!isPlan(plan) || !userId || !priceId) return null
  const status = subscription.status
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(status)) return null
  const first = subscription.items.data[0]
  if (!first) return null
  return {
    id: subscription.id,
    object: 'subscription',
    customer: idOf(subscription.customer) ?? '',
    status: status as GatewaySubscription['status'],
    items: { data: subscription.items.data.map((item) => ({ id: item.id, price: item.price.id })) },
    billing_cycle_anchor: subscription.billing_cycle_anchor,
    current_period_start: first.current_period_start,
    current_period_end: first.current_period_end,
    cancel_at_period_end: subscription.cancel_at_period_end,
    cancel_at: endOf(subscription),
    canceled_at: subscription.canceled_at,
    ended_at: subscription.ended_at,
    default_payment_method: idOf(subscription.default_payment_method),
    latest_invoice: idOf(subscription.latest_invoice),
    metadata: {
      plan,
      user_id: userId,
      price_id: priceId,
      ...(attemptId ? { attempt_id: attemptId } : {}),
    },
    created: subscription.created,
  }
}

const INVOICE_STATUSES = ['open', 'paid', 'void', 'uncollectible'] as const
const BILLING_REASONS = [
  'subscription_create',
  'subscription_cycle',
  'subscription_update',
  'manual',
] as const

/** Whether a line is a proration, wherever Stripe says so for the line's kind of parent. */
const isProration = (line: Stripe.InvoiceLineItem) =>
  line.parent?.subscription_item_details?.proration ??
  line.parent?.invoice_item_details?.proration ??
  false

/**
 * The invoice, or null when it cannot be one of ours: in another currency, or a draft (only a
 * finalized invoice has a number; the app finalizes every invoice as it is made). Its charges
 * are read from `payments`, which must have been expanded for the invoice to name any; Stripe's
 * invoice has no copy address, so ours comes back from the metadata it travels in.
 */
export function toInvoice(invoice: Stripe.Invoice): GatewayInvoice | null {
  const status = invoice.status
  const reason = invoice.billing_reason
  if (invoice.currency !== 'usd' || invoice.number === null) return null
  if (!status || !(INVOICE_STATUSES as readonly string[]).includes(status)) return null
  if (!reason || !(BILLING_REASONS as readonly string[]).includes(reason)) return null
  const metadata = invoice.metadata ?? {}
  // Stripe may list them newest first; the contract keeps them in the order they were made.
  const intents = (invoice.payments?.data ?? [])
    .filter((payment) => payment.payment.type === 'payment_intent')
    .sort((a, b) => a.created - b.created)
    .map((payment) => idOf(payment.payment.payment_intent))
    .filter((id): id is string => id !== null)
  return {
    id: invoice.id,
    object: 'invoice',
    number: invoice.number,
    customer: idOf(invoice.customer) ?? '',
    subscription: idOf(invoice.parent?.subscription_details?.subscription),
    status: status as GatewayInvoice['status'],
    billing_reason: reason as GatewayInvoice['billing_reason'],
    currency: 'usd',
    subtotal: invoice.subtotal,
    total: invoice.total,
    amount_due: invoice.amount_due,
    amount_paid: invoice.amount_paid,
    lines: {
      data: invoice.lines.data.map((line) => ({
        id: line.id,
        description: line.description ?? '',
        amount: line.amount,
        price: idOf(line.pricing?.price_details?.price),
        proration: isProration(line),
        period: { start: line.period.start, end: line.period.end },
      })),
    },
    customer_name: invoice.customer_name ?? '',
    customer_email: invoice.customer_email ?? '',
    customer_address: toAddress(invoice.customer_address),
    receipt_email: metadata.receipt_email ?? null,
    payment_intent: intents.at(-1) ?? null,
    payment_intents: intents,
    attempt_count: invoice.attempt_count,
    next_payment_attempt: invoice.next_payment_attempt,
    status_transitions: {
      finalized_at: invoice.status_transitions.finalized_at ?? invoice.created,
      paid_at: invoice.status_transitions.paid_at,
      voided_at: invoice.status_transitions.voided_at,
    },
    period_start: invoice.period_start,
    period_end: invoice.period_end,
    metadata: {
      user_id: metadata.user_id ?? '',
      ...(metadata.ends_subscription ? { ends_subscription: metadata.ends_subscription } : {}),
    },
    created: invoice.created,
    ...(invoice.invoice_pdf ? { invoice_pdf: invoice.invoice_pdf } : {}),
  }
}

const REFUND_STATUSES: GatewayRefund['status'][] = [
  'pending',
  'requires_action',
  'succeeded',
  'failed',
  'canceled',
]

const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const

/**
 * A refund of one of our payments, or null when it is not ours (not in dollars, made in the
 * provider's dashboard without our user and invoice): the app lists only what it gave back.
 */
export function toRefund(refund: Stripe.Refund): GatewayRefund | null {
  const { metadata } = refund
  const paymentIntent = idOf(refund.payment_intent)
  if (refund.currency !== 'usd' || !paymentIntent) return null
  const status = REFUND_STATUSES.find((known) => known === refund.status)
  if (!status) {
    throw new Error(`Refund ${refund.id} has a status the app does not know: ${refund.status}.`)
  }
  const reason = REFUND_REASONS.find((known) => known === refund.reason) ?? null
  return {
    id: refund.id,
    object: 'refund',
    amount: refund.amount,
    currency: 'usd',
    payment_intent: paymentIntent,
    status,
    reason,
    // Ours when the app made it; a refund made in the provider's Dashboard has none.
    metadata: {
      ...(metadata?.user_id ? { user_id: metadata.user_id } : {}),
      ...(metadata?.invoice_id ? { invoice_id: metadata.invoice_id } : {}),
    },
    created: refund.created,
  }
}
