import { createHash } from 'node:crypto'
import type Stripe from 'stripe'
import type {
  GatewayAddress,
  GatewayCustomer,
  GatewayInvoice,
  GatewayInvoiceLine,
  GatewayPaymentIntent,
  GatewayPaymentMethod,
  GatewayPrice,
  GatewayProduct,
  GatewayRefund,
  GatewaySetupIntent,
  GatewaySubscription,
} from '../../gateway'
import type { SandboxTestClock } from '../clocks'

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

// Likewise for the objects that carry a price or a decimal amount: the legacy plan object that
// Stripe still sends beside the price on a subscription item, the items, an invoice's lines.
export type WirePlan = Omit<Stripe.Plan, 'amount_decimal'> & { amount_decimal: string | null }

export type WireSubscriptionItem = Omit<Stripe.SubscriptionItem, 'price' | 'plan'> & {
  price: WirePrice
  plan: WirePlan
}

export type WireSubscription = Omit<Stripe.Subscription, 'items'> & {
  items: Stripe.ApiList<WireSubscriptionItem>
}

export type WireInvoiceLineItem = Omit<Stripe.InvoiceLineItem, 'pricing' | 'quantity_decimal'> & {
  pricing:
    | (Omit<Stripe.InvoiceLineItem.Pricing, 'unit_amount_decimal'> & {
        unit_amount_decimal: string | null
      })
    | null
  quantity_decimal: string | null
}

export type WireInvoice = Omit<Stripe.Invoice, 'lines'> & {
  lines: Stripe.ApiList<WireInvoiceLineItem>
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

/** `testClock`: the clock the customer was made on, which the contract's customer does not keep. */
export function renderCustomer(
  customer: GatewayCustomer,
  testClock: string | null = null,
): Stripe.Customer {
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
    test_clock: testClock,
  }
}

/** A lifetime for `deletes_after`: the sandbox deletes no clock, so this only fills the field. */
const TEST_CLOCK_LIFETIME_SECONDS = 30 * 86_400

export function renderTestClock(clock: SandboxTestClock): Stripe.TestHelpers.TestClock {
  return {
    id: clock.id,
    object: 'test_helpers.test_clock',
    created: clock.created,
    deletes_after: clock.created + TEST_CLOCK_LIFETIME_SECONDS,
    frozen_time: clock.frozen_time,
    livemode: false,
    name: clock.name,
    status: clock.status,
    status_details:
      clock.target_frozen_time === null
        ? {}
        : { advancing: { target_frozen_time: clock.target_frozen_time } },
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

/** The bank's refusal of a card, as Stripe puts it on a payment or a setup. */
function renderCardError(error: { code: string; decline_code?: string | null; message: string }) {
  return {
    type: 'card_error' as const,
    code: error.code,
    ...(error.decline_code ? { decline_code: error.decline_code } : {}),
    message: error.message,
    payment_method_type: 'card',
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
    // The sandbox cancels a charge when the invoice it paid is voided, and a payment nobody
    // finished (a bank's check left unanswered) when the app gives it up.
    cancellation_reason:
      intent.status !== 'canceled' ? null : intent.metadata.price_id ? 'abandoned' : 'void_invoice',
    capture_method: 'automatic_async',
    // Payments stored before the sandbox kept a secret get one made from their id.
    client_secret: intent.client_secret || `${intent.id}_secret_${digestOf(intent.id, 25)}`,
    confirmation_method: 'automatic',
    created: intent.created,
    currency: intent.currency,
    customer: intent.customer,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error: error ? renderCardError(error) : null,
    // The sandbox keeps no charge objects, so there is no charge id to name.
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: { ...intent.metadata },
    // As a setup's: Stripe.js reads the check to show from here.
    next_action:
      intent.status === 'requires_action'
        ? { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } }
        : null,
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

/** A monthly price as the legacy plan object, which Stripe still sends beside the price. */
function renderPlan(price: GatewayPrice): WirePlan {
  const recurring = price.recurring
  if (!recurring)
    throw new Error(`Price ${price.id} is one-time; a plan's item needs a monthly one.`)
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: String(price.unit_amount),
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: { ...price.metadata },
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  }
}

// Pausing a subscription (the endpoint the sandbox's pause follows) needs flexible billing mode,
// so every plan is in it from its start.
const billingModeOf = (created: number): Stripe.Subscription.BillingMode => ({
  type: 'flexible',
  flexible: { proration_discounts: 'included' },
  updated_at: created,
})

/**
 * A plan in the pinned version's shape: its periods are on its item, not on the subscription,
 * and the item carries the whole price (the caller looks it up; the contract keeps its id).
 * `schedule` is the plan's schedule (scheduleIdOf) when it is paid in installments.
 */
export function renderSubscription(
  subscription: GatewaySubscription,
  { schedule, price }: { schedule: string | null; price: GatewayPrice },
): WireSubscription {
  const items = subscription.items.data.map((item): WireSubscriptionItem => {
    if (item.price !== price.id) {
      throw new Error(`Subscription ${subscription.id} is on price ${item.price}, not ${price.id}.`)
    }
    return {
      id: item.id,
      object: 'subscription_item',
      billing_thresholds: null,
      // The sandbox keeps no time of its own for an item: it is made with the plan, and a move
      // to another price keeps it.
      created: subscription.created,
      current_period_end: subscription.current_period_end,
      current_period_start: subscription.current_period_start,
      current_trial: null,
      discounts: [],
      metadata: {},
      plan: renderPlan(price),
      price: renderPrice(price),
      quantity: 1,
      subscription: subscription.id,
      tax_rates: [],
    }
  })
  return {
    id: subscription.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: subscription.billing_cycle_anchor,
    billing_cycle_anchor_config: null,
    billing_mode: billingModeOf(subscription.created),
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: subscription.cancel_at,
    cancel_at_period_end: subscription.cancel_at_period_end,
    canceled_at: subscription.canceled_at,
    // The sandbox cancels only when asked (at the period's end, by an upgrade) or at the end of
    // the installments; a first payment that expired is no cancellation.
    cancellation_details: {
      comment: null,
      feedback: null,
      feedback_option: null,
      reason: subscription.canceled_at === null ? null : 'cancellation_requested',
    },
    collection_method: 'charge_automatically',
    created: subscription.created,
    currency: price.currency,
    customer: subscription.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: subscription.default_payment_method,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: subscription.ended_at,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: {
      object: 'list',
      data: items,
      has_more: false,
      url: `/v1/subscription_items?subscription=${subscription.id}`,
    },
    latest_invoice: subscription.latest_invoice,
    livemode: false,
    managed_payments: null,
    metadata: { ...subscription.metadata },
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule,
    start_date: subscription.created,
    status: subscription.status,
    // Stripe sends status_details only while the plan is paused.
    ...(subscription.status === 'paused'
      ? {
          status_details: {
            paused: {
              type: 'subscription',
              subscription: { type: 'pause_requested' },
              // The contract keeps no time of the pause, so this is the start of the current
              // period, not the moment the member paused.
              transitioned_at: subscription.current_period_start,
            },
          },
        }
      : {}),
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' },
    },
    trial_start: null,
  }
}

// The sandbox keeps no schedules. FOUR PAYMENTS is a plan with cancel_at, which is what Stripe's
// schedule of one phase ending in a cancellation makes of it; its schedule is derived from the
// plan, under an id made from the plan's so that either leads to the other.
const SUBSCRIPTION_ID = /^sub_([A-Za-z0-9]+)$/
const SCHEDULE_ID = /^sub_sched_([A-Za-z0-9]+)$/

export function scheduleIdOf(subscriptionId: string): string {
  const tail = SUBSCRIPTION_ID.exec(subscriptionId)?.[1]
  if (!tail) throw new Error(`${subscriptionId} is not a subscription id of the sandbox.`)
  return `sub_sched_${tail}`
}

/** The plan a schedule id was made from, or null for an id scheduleIdOf never makes. */
export function subscriptionIdOfSchedule(scheduleId: string): string | null {
  const tail = SCHEDULE_ID.exec(scheduleId)?.[1]
  return tail ? `sub_${tail}` : null
}

/**
 * The schedule of a plan paid in installments: one phase of its price from the plan's start to
 * its cancel_at. Stripe answers a phase asked for by `duration` with its dates, so none is
 * echoed. A plan that ended before its last installment was cancelled; one that ended at it,
 * completed.
 */
export function renderSchedule(
  subscription: GatewaySubscription,
  price: GatewayPrice,
): Stripe.SubscriptionSchedule {
  // Without `cancel_at` the schedule was just attached to a running plan (`from_subscription`):
  // its phase is the current period, and it would release the plan at its end.
  const ends = subscription.cancel_at !== null
  const end = subscription.cancel_at ?? subscription.current_period_end
  const endedAt = subscription.ended_at
  const status = endedAt === null ? 'active' : endedAt < end ? 'canceled' : 'completed'
  // The phase starts where the plan's months are counted from: its start, or an upgrade.
  const start = ends ? subscription.billing_cycle_anchor : subscription.current_period_start
  return {
    id: scheduleIdOf(subscription.id),
    object: 'subscription_schedule',
    application: null,
    billing_mode: billingModeOf(subscription.created),
    canceled_at: status === 'canceled' ? endedAt : null,
    completed_at: status === 'completed' ? endedAt : null,
    created: subscription.created,
    current_phase: status === 'active' ? { start_date: start, end_date: end } : null,
    customer: subscription.customer,
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: 'automatic',
      billing_thresholds: null,
      collection_method: 'charge_automatically',
      default_payment_method: null,
      description: null,
      invoice_settings: {
        account_tax_ids: null,
        custom_fields: null,
        days_until_due: null,
        description: null,
        footer: null,
        issuer: { type: 'self' },
      },
      on_behalf_of: null,
      transfer_data: null,
    },
    end_behavior: ends ? 'cancel' : 'release',
    livemode: false,
    metadata: {},
    pause_schedules: [],
    phases: [
      {
        add_invoice_items: [],
        application_fee_percent: null,
        billing_cycle_anchor: null,
        billing_thresholds: null,
        collection_method: null,
        currency: price.currency,
        default_payment_method: null,
        default_tax_rates: [],
        description: null,
        discounts: [],
        end_date: end,
        invoice_settings: null,
        items: [
          {
            billing_thresholds: null,
            discounts: [],
            metadata: {},
            plan: price.id,
            price: price.id,
            quantity: 1,
            tax_rates: [],
          },
        ],
        metadata: { ...subscription.metadata },
        on_behalf_of: null,
        proration_behavior: 'create_prorations',
        start_date: start,
        transfer_data: null,
        trial_end: null,
      },
    ],
    released_at: null,
    released_subscription: null,
    status,
    subscription: subscription.id,
    test_clock: null,
  }
}

/**
 * One line. A line of a plan's invoice comes from the plan's item, and its credit from an
 * invoice item Stripe makes for the proration; the lines of an invoice without a plan come from
 * invoice items. The sandbox keeps no invoice items, so their ids are made from the line's.
 */
function renderInvoiceLine(
  invoice: GatewayInvoice,
  line: GatewayInvoiceLine,
  price: GatewayPrice | null,
  subscriptionItem: string | null,
): WireInvoiceLineItem {
  const invoiceItem = `ii_${digestOf(line.id, 24)}`
  const proration = { proration: line.proration, proration_details: { credited_items: null } }
  return {
    id: line.id,
    object: 'line_item',
    amount: line.amount,
    currency: invoice.currency,
    description: line.description,
    discount_amounts: [],
    // Stripe never discounts a proration.
    discountable: !line.proration,
    discounts: [],
    invoice: invoice.id,
    livemode: false,
    metadata: {},
    parent: subscriptionItem
      ? {
          type: 'subscription_item_details',
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: line.proration ? invoiceItem : null,
            ...proration,
            subscription: invoice.subscription,
            subscription_item: subscriptionItem,
          },
        }
      : {
          type: 'invoice_item_details',
          invoice_item_details: { invoice_item: invoiceItem, ...proration, subscription: null },
          subscription_item_details: null,
        },
    period: { start: line.period.start, end: line.period.end },
    pretax_credit_amounts: [],
    // A line is one of its price, at the amount charged (a one-time payment's invoice bills
    // what the payment took, which need not be the price's amount).
    pricing: price
      ? {
          type: 'price_details',
          price_details: { price: price.id, product: price.product },
          unit_amount_decimal: String(line.amount),
        }
      : null,
    quantity: 1,
    quantity_decimal: '1',
    subscription: invoice.subscription,
    subtotal: line.amount,
    taxes: [],
  }
}

/**
 * One charge that tried to pay the invoice, from its payment intent in `payments`. A charge the
 * sandbox named and never made (an invoice its credit paid in full) is not there, and reads as
 * the invoice's amount still open.
 */
function renderInvoicePayment(
  invoice: GatewayInvoice,
  intentId: string,
  intent: GatewayPaymentIntent | undefined,
  isDefault: boolean,
): Stripe.InvoicePayment {
  const status =
    intent?.status === 'succeeded' ? 'paid' : intent?.status === 'canceled' ? 'canceled' : 'open'
  const amount = intent?.amount ?? invoice.amount_due
  return {
    id: `inpay_${digestOf(intentId, 24)}`,
    object: 'invoice_payment',
    amount_paid: status === 'paid' ? amount : null,
    amount_requested: amount,
    created: intent?.created ?? invoice.created,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: isDefault,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: intentId },
    status,
    // The sandbox cancels a charge only when it voids the invoice, and pays the invoice when
    // its latest charge succeeds.
    status_transitions: {
      canceled_at: status === 'canceled' ? invoice.status_transitions.voided_at : null,
      paid_at: status === 'paid' ? invoice.status_transitions.paid_at : null,
    },
  }
}

/**
 * An invoice with its `payments` expanded (every charge that tried to pay it, oldest first), as
 * the app always asks for it. `prices` are the prices of its lines, for their products;
 * `subscription` is its plan (for the item its lines come from), null when it has none.
 */
export function renderInvoice(
  invoice: GatewayInvoice,
  payments: GatewayPaymentIntent[],
  {
    prices,
    subscription,
    pdfBase,
  }: {
    prices: GatewayPrice[]
    subscription: GatewaySubscription | null
    /** Where the server says its invoices' PDFs are, if anywhere (a stand-in for Stripe's). */
    pdfBase?: string | undefined
  },
): WireInvoice {
  if (invoice.subscription !== (subscription?.id ?? null)) {
    const given = subscription?.id ?? 'no plan'
    throw new Error(
      `Invoice ${invoice.id} is of ${invoice.subscription ?? 'no plan'}, not ${given}.`,
    )
  }
  const priceOf = (id: string | null) => {
    if (id === null) return null
    const price = prices.find((candidate) => candidate.id === id)
    if (!price) throw new Error(`Invoice ${invoice.id} has a line of price ${id}, not given.`)
    return price
  }
  const subscriptionItem = subscription?.items.data[0]?.id ?? null
  const intents = invoice.payment_intents
  const transitions = invoice.status_transitions
  return {
    id: invoice.id,
    object: 'invoice',
    account_country: 'US',
    account_name: null,
    account_tax_ids: null,
    amount_due: invoice.amount_due,
    amount_overpaid: 0,
    amount_paid: invoice.amount_paid,
    amount_remaining: invoice.status === 'paid' ? 0 : invoice.amount_due - invoice.amount_paid,
    amount_shipping: 0,
    application: null,
    attempt_count: invoice.attempt_count,
    attempted: invoice.attempt_count > 0,
    automatic_tax: {
      disabled_reason: null,
      enabled: false,
      liability: null,
      provider: null,
      status: null,
    },
    automatically_finalizes_at: null,
    billing_reason: invoice.billing_reason,
    collection_method: 'charge_automatically',
    created: invoice.created,
    currency: invoice.currency,
    custom_fields: null,
    customer: invoice.customer,
    customer_account: null,
    customer_address: invoice.customer_address ? renderAddress(invoice.customer_address) : null,
    // As on the customer: what the sandbox keeps as an empty string, Stripe sends as null.
    customer_email: invoice.customer_email || null,
    customer_name: invoice.customer_name || null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: transitions.finalized_at,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: pdfBase ? `${pdfBase}/${invoice.id}/pdf` : null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: {
      object: 'list',
      data: invoice.lines.data.map((line) =>
        renderInvoiceLine(invoice, line, priceOf(line.price), subscriptionItem),
      ),
      has_more: false,
      url: `/v1/invoices/${invoice.id}/lines`,
    },
    livemode: false,
    // Stripe's invoice has no copy address of its own: ours travels in its metadata.
    metadata: {
      ...invoice.metadata,
      ...(invoice.receipt_email === null ? {} : { receipt_email: invoice.receipt_email }),
    },
    next_payment_attempt: invoice.next_payment_attempt,
    number: invoice.number,
    on_behalf_of: null,
    parent: subscription
      ? {
          type: 'subscription_details',
          quote_details: null,
          // Stripe keeps the plan's metadata as it was at finalization; the sandbox keeps no
          // copy, so this is the plan's metadata now (another plan's after an upgrade).
          subscription_details: {
            metadata: { ...subscription.metadata },
            subscription: subscription.id,
          },
        }
      : null,
    payment_settings: {
      default_mandate: null,
      payment_method_options: null,
      payment_method_types: null,
    },
    payments: {
      object: 'list',
      data: intents.map((id, index) =>
        renderInvoicePayment(
          invoice,
          id,
          payments.find((intent) => intent.id === id),
          index === intents.length - 1,
        ),
      ),
      has_more: false,
      url: `/v1/invoice_payments?invoice=${invoice.id}`,
    },
    period_end: invoice.period_end,
    period_start: invoice.period_start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: invoice.status,
    status_transitions: {
      finalized_at: transitions.finalized_at,
      marked_uncollectible_at: null,
      paid_at: transitions.paid_at,
      voided_at: transitions.voided_at,
    },
    subtotal: invoice.subtotal,
    subtotal_excluding_tax: invoice.subtotal,
    test_clock: null,
    total: invoice.total,
    total_discount_amounts: [],
    total_excluding_tax: invoice.total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    // Every invoice is finalized as it is made, and its events go out then.
    webhooks_delivered_at: invoice.created,
  }
}

export type WireInvoiceItem = Omit<Stripe.InvoiceItem, 'pricing' | 'quantity_decimal'> & {
  pricing:
    | (Omit<Stripe.InvoiceItem.Pricing, 'unit_amount_decimal'> & {
        unit_amount_decimal: string | null
      })
    | null
  quantity_decimal: string
}

/** A line added to a draft: a price, or an amount of its own (a credit for unused time). */
export interface DraftItem {
  id: string
  amount: number
  description: string
  period: { start: number; end: number }
  price: GatewayPrice | null
}

export function renderInvoiceItem(
  item: DraftItem,
  { customer, invoice, date }: { customer: string; invoice: string; date: number },
): WireInvoiceItem {
  return {
    id: item.id,
    object: 'invoiceitem',
    amount: item.amount,
    currency: 'usd',
    customer,
    customer_account: null,
    date,
    description: item.description,
    discountable: item.amount > 0,
    discounts: [],
    invoice,
    livemode: false,
    metadata: {},
    parent: null,
    period: item.period,
    pricing: item.price
      ? {
          type: 'price_details',
          price_details: { price: item.price.id, product: item.price.product },
          unit_amount_decimal: String(item.amount),
        }
      : null,
    proration: false,
    quantity: 1,
    quantity_decimal: '1',
    tax_rates: [],
    test_clock: null,
  }
}

export function renderSetupIntent(intent: GatewaySetupIntent): Stripe.SetupIntent {
  const error = intent.last_setup_error
  return {
    id: intent.id,
    object: 'setup_intent',
    allowed_payment_method_types: ['card'],
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: intent.client_secret,
    created: intent.created,
    customer: intent.customer,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: error ? renderCardError(error) : null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: {},
    // Stripe.js reads what to show from here; the sandbox's check is one page, complete or fail.
    next_action: intent.next_action
      ? { type: intent.next_action.type, use_stripe_sdk: { type: 'three_d_secure_redirect' } }
      : null,
    on_behalf_of: null,
    payment_method: intent.payment_method,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    single_use_mandate: null,
    status: intent.status,
    usage: 'off_session',
  }
}

export function renderRefund(refund: GatewayRefund): Stripe.Refund {
  return {
    id: refund.id,
    object: 'refund',
    amount: refund.amount,
    balance_transaction: null,
    // The sandbox keeps no charge objects: the refund names the payment it gives back on.
    charge: null,
    created: refund.created,
    currency: refund.currency,
    // Stripe names a customer only on refunds of a customer's balance.
    customer: null,
    customer_account: null,
    metadata: { ...refund.metadata },
    payment_intent: refund.payment_intent,
    payment_method: null,
    reason: refund.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: refund.status,
    transfer_reversal: null,
  }
}
