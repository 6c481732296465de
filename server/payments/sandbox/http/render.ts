import { createHash } from 'node:crypto'
import type Stripe from 'stripe'
import type {
  GatewayAddress,
  GatewayCustomer,
  GatewayPaymentIntent,
  GatewayPaymentMethod,
  GatewayPrice,
  GatewayProduct,
} from '../../gateway'

// The sandbox's objects in the shapes of the pinned API version, typed with the SDK's own types
// so that a field Stripe sends and the sandbox forgot fails the type check. Where the sandbox
// keeps nothing of a field (taxes, shipping, Connect) it holds what Stripe sends for an object
// that never used it, mostly null.

/**
 * The SDK types a decimal amount as its own Decimal class, which it makes on arrival from the
 * string Stripe sends; on the wire the field is that string.
 */
export type WirePrice = Omit<Stripe.Price, 'unit_amount_decimal'> & {
  unit_amount_decimal: string | null
}

/** A stable value made from an id, for fields Stripe fills with its own random letters. */
const digestOf = (id: string, length: number) =>
  createHash('sha256').update(id).digest('base64url').slice(0, length)

export function renderProduct(product: GatewayProduct): Stripe.Product {
  return {
    id: product.id,
    object: 'product',
    active: product.active,
    created: product.created,
    default_price: null,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name: product.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    // The sandbox does not keep when a product last changed; its products never change.
    updated: product.created,
    url: null,
  }
}

export function renderPrice(price: GatewayPrice): WirePrice {
  return {
    id: price.id,
    object: 'price',
    active: price.active,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: { ...price.metadata },
    nickname: price.nickname,
    product: price.product,
    recurring: price.recurring
      ? {
          interval: price.recurring.interval,
          interval_count: price.recurring.interval_count,
          meter: null,
          trial_period_days: null,
          usage_type: 'licensed',
        }
      : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: price.type,
    unit_amount: price.unit_amount,
    unit_amount_decimal: String(price.unit_amount),
  }
}

const renderAddress = (address: GatewayAddress): Stripe.Address => ({
  city: address.city,
  country: address.country,
  line1: address.line1,
  line2: address.line2,
  postal_code: address.postal_code,
  state: address.state,
})

export function renderCustomer(customer: GatewayCustomer): Stripe.Customer {
  return {
    id: customer.id,
    object: 'customer',
    address: customer.address ? renderAddress(customer.address) : null,
    balance: 0,
    created: customer.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    // The sandbox keeps an e-mail or name never given as an empty string; Stripe sends null.
    email: customer.email || null,
    // Stripe gives each customer a prefix of its own for invoice numbers; the sandbox numbers
    // invoices for the whole account (HZ-…), so this is only the field's shape.
    invoice_prefix: digestOf(customer.id, 8).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: customer.invoice_settings.default_payment_method,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: { ...customer.metadata },
    name: customer.name || null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  }
}

/** The brand as Stripe spells it for people (`display_brand`). */
const DISPLAY_BRANDS: Record<GatewayPaymentMethod['card']['brand'], string> = {
  visa: 'visa',
  mastercard: 'mastercard',
  amex: 'american_express',
  discover: 'discover',
  unknown: 'unknown',
}

export function renderPaymentMethod(method: GatewayPaymentMethod): Stripe.PaymentMethod {
  const { card } = method
  return {
    id: method.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: {
      address: {
        city: null,
        country: null,
        line1: null,
        line2: null,
        postal_code: null,
        state: null,
      },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: card.brand,
      // Stripe checks the security code when a card is saved to a customer.
      checks: {
        address_line1_check: null,
        address_postal_code_check: null,
        cvc_check: method.customer ? 'pass' : 'unchecked',
      },
      country: 'US',
      display_brand: DISPLAY_BRANDS[card.brand],
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      funding: card.funding,
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: method.created,
    customer: method.customer,
    customer_account: null,
    livemode: false,
    metadata: { ...method.metadata },
    type: 'card',
  }
}

export function renderPaymentIntent(intent: GatewayPaymentIntent): Stripe.PaymentIntent {
  const error = intent.last_payment_error
  return {
    id: intent.id,
    object: 'payment_intent',
    allowed_payment_method_types: ['card'],
    amount: intent.amount,
    amount_capturable: 0,
    amount_received: intent.status === 'succeeded' ? intent.amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    // The sandbox cancels a charge only when the invoice it paid is voided.
    cancellation_reason: intent.status === 'canceled' ? 'void_invoice' : null,
    capture_method: 'automatic_async',
    client_secret: `${intent.id}_secret_${digestOf(intent.id, 25)}`,
    confirmation_method: 'automatic',
    created: intent.created,
    currency: intent.currency,
    customer: intent.customer,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error: error
      ? {
          type: 'card_error',
          code: error.code,
          ...(error.decline_code ? { decline_code: error.decline_code } : {}),
          message: error.message,
          payment_method_type: 'card',
        }
      : null,
    // The sandbox keeps no charge objects, so there is no charge id to name.
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: { ...intent.metadata },
    next_action: null,
    on_behalf_of: null,
    payment_method: intent.payment_method,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: {
        installments: null,
        mandate_options: null,
        network: null,
        request_three_d_secure: 'automatic',
      },
    },
    payment_method_types: ['card'],
    payment_record: null,
    processing: intent.status === 'processing' ? { type: 'card' } : null,
    receipt_email: intent.receipt_email,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: intent.status,
    transfer_data: null,
    transfer_group: null,
  }
}
