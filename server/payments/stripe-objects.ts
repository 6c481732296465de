import type Stripe from 'stripe'
import { CARD_BRANDS, type CardBrand, PLANS, type Plan } from '../../domain/billing'
import type {
  GatewayAddress,
  GatewayCustomer,
  GatewayPaymentIntent,
  GatewayPaymentMethod,
  GatewayPrice,
  GatewayProduct,
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

/** Why a charge waits for the member: the app has no way yet to finish a bank's own check. */
const AUTHENTICATION_REQUIRED = {
  code: 'authentication_required',
  message:
    'The bank asked for its own authentication (3-D Secure) of this payment, which the app cannot complete yet.',
}

/**
 * The charge, or null when it is not in dollars (none of ours is). A charge waiting for the
 * bank's own authentication reads as refused with `authentication_required`, as Stripe refuses
 * such a charge made without the member; one authorized and not yet captured reads as
 * `processing` (the app never asks for a separate capture).
 */
export function toPaymentIntent(intent: Stripe.PaymentIntent): GatewayPaymentIntent | null {
  if (intent.currency !== 'usd') return null
  const { metadata } = intent
  let status: GatewayPaymentIntent['status']
  let lastError: GatewayPaymentIntent['last_payment_error'] = intent.last_payment_error
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
      status = intent.status as GatewayPaymentIntent['status']
      break
    case 'requires_action':
      status = 'requires_payment_method'
      lastError = AUTHENTICATION_REQUIRED
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
    last_payment_error: lastError,
    metadata: {
      price_id: metadata.price_id ?? '',
      user_id: metadata.user_id ?? '',
      ...(metadata.invoice ? { invoice: metadata.invoice } : {}),
      ...(metadata.manual === 'true' ? { manual: 'true' as const } : {}),
    },
    created: intent.created,
  }
}
