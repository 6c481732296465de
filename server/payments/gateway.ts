import type { CardBrand, Plan } from '../../domain/billing'

// The card provider's contract: the interface every gateway answers to, its objects and its
// error. It imports nothing of ours at run time (only types from domain), so a gateway and the
// features import it without importing one another. The objects keep the provider's shapes and
// state names (Stripe's API: snake_case fields, epoch seconds, `object` tags), so the Stripe
// gateway can hand them through and the sandbox can be checked against Stripe's documentation.

/** The one product everything is a price of. */
export interface GatewayProduct {
  id: string
  object: 'product'
  name: string
  active: boolean
  created: number
}

/** A price of the product. A one-time price has no `recurring`; the others charge monthly. */
export interface GatewayPrice {
  id: string
  object: 'price'
  product: string
  nickname: string
  unit_amount: number
  currency: 'usd'
  active: boolean
  created: number
  type: 'one_time' | 'recurring'
  recurring: { interval: 'month'; interval_count: number } | null
  /** Which of our plans it is; FOUR PAYMENTS is a monthly price that stops after four. */
  metadata: { plan: Plan }
}

/** A postal address as the provider keeps it. */
export interface GatewayAddress {
  line1: string
  line2: string | null
  city: string | null
  state: string | null
  postal_code: string
  country: string
}

/** The paying person: one per user, with the billing information and the default card. */
export interface GatewayCustomer {
  id: string
  object: 'customer'
  email: string
  name: string
  address: GatewayAddress | null
  invoice_settings: { default_payment_method: string | null }
  /** Our user id, so a customer can always be traced back. */
  metadata: { user_id: string }
  created: number
}

/** A saved card. Only its brand, last four digits and expiry ever leave the provider. */
export interface GatewayPaymentMethod {
  id: string
  object: 'payment_method'
  type: 'card'
  customer: string | null
  card: {
    brand: CardBrand
    last4: string
    exp_month: number
    exp_year: number
    funding: 'credit' | 'debit' | 'prepaid' | 'unknown'
  }
  /** `card_type` is what the person chose in the card-type select (Debit or Credit). */
  metadata: { card_type?: 'debit' | 'credit' }
  created: number
}

/**
 * A card being saved through the provider's own field (Stripe mode): made for the customer by
 * the server, then confirmed in the browser with its `client_secret`, so the card's numbers go
 * from the page to the provider and the card ends up saved to that customer only.
 */
export interface GatewaySetupIntent {
  id: string
  object: 'setup_intent'
  customer: string
  /** What the browser confirms it with; never logged, never stored. */
  client_secret: string
  /** `succeeded` once the card is saved; `requires_action` while the bank asks to authenticate. */
  status:
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'processing'
    | 'succeeded'
    | 'canceled'
  /** The card saved by the confirmation, once there is one (or the card being checked). */
  payment_method: string | null
  /** While `requires_action`: the bank's check, which Stripe.js runs in the page. */
  next_action: { type: string } | null
  last_setup_error: { code: string; decline_code: string | null; message: string } | null
  created: number
}

const PAYMENT_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
] as const

/**
 * One charge. `processing` until the bank answers; a refusal goes back to needing a card.
 * `requires_action` while the bank asks the member to confirm it (3-D Secure) in the page.
 */
export interface GatewayPaymentIntent {
  id: string
  object: 'payment_intent'
  amount: number
  currency: 'usd'
  customer: string
  payment_method: string | null
  status: (typeof PAYMENT_INTENT_STATUSES)[number]
  receipt_email: string | null
  /** What lets the page run the bank's check; handed to the page only while it is asked for. */
  client_secret: string
  /** Why the last try failed, in the provider's words and codes. */
  last_payment_error: { code: string; decline_code?: string; message: string } | null
  /**
   * What was bought and for whom, for our records. Empty on a charge the provider made for an
   * invoice: it copies no metadata of ours onto those (the invoice listing the charge says what
   * it paid for).
   */
  metadata: { price_id: string; user_id: string }
  created: number
}

/**
 * A plan that charges monthly: the SUBSCRIPTION until cancelled, or FOUR PAYMENTS, which has
 * `cancel_at` four months after its start and so ends by itself after the fourth charge.
 * `incomplete` until its first invoice is paid; `past_due` after a failed renewal, `unpaid` when
 * the retries are used up; `paused` from a pause until the charge of its resumption succeeds
 * (no invoice is made meanwhile). Times are the customer's clock (the sandbox's test clock).
 */
export interface GatewaySubscription {
  id: string
  object: 'subscription'
  customer: string
  status:
    | 'incomplete'
    | 'incomplete_expired'
    | 'active'
    | 'past_due'
    | 'unpaid'
    | 'canceled'
    | 'paused'
  items: { data: { id: string; price: string }[] }
  billing_cycle_anchor: number
  current_period_start: number
  current_period_end: number
  cancel_at_period_end: boolean
  cancel_at: number | null
  canceled_at: number | null
  ended_at: number | null
  default_payment_method: string | null
  latest_invoice: string | null
  /** `attempt_id`: the member's try that started it, so that try sent again answers with it. */
  metadata: { plan: Plan; user_id: string; price_id: string; attempt_id?: string }
  created: number
}

export interface GatewayInvoiceLine {
  id: string
  description: string
  /** Cents; a credit (the unused part of a period) is negative. */
  amount: number
  price: string | null
  proration: boolean
  period: { start: number; end: number }
}

/**
 * A bill, numbered when it is finalized (every invoice here is finalized at once). `open` until
 * paid; `void` when it will never be collected (a paused period, an expired first payment).
 */
export interface GatewayInvoice {
  id: string
  object: 'invoice'
  /** Sequential per account, without gaps. */
  number: string
  customer: string
  subscription: string | null
  status: 'open' | 'paid' | 'void' | 'uncollectible'
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual'
  currency: 'usd'
  subtotal: number
  total: number
  amount_due: number
  amount_paid: number
  lines: { data: GatewayInvoiceLine[] }
  /** The billing information as it was when the invoice was made. */
  customer_name: string
  customer_email: string
  customer_address: GatewayAddress | null
  /** Where a copy goes ('Cc Invoice to Payment'), besides the billing e-mail. */
  receipt_email: string | null
  /** The latest charge that tried to pay it. */
  payment_intent: string | null
  /**
   * Every charge that tried to pay it, oldest first (Stripe lists them as the invoice's
   * payments). A charge is a plan's when it is here on an invoice of a subscription: the
   * provider copies no metadata of ours onto the charges it makes for invoices.
   */
  payment_intents: string[]
  attempt_count: number
  next_payment_attempt: number | null
  status_transitions: { finalized_at: number; paid_at: number | null; voided_at: number | null }
  period_start: number
  period_end: number
  /**
   * `ends_subscription`: ONE PAYMENT bought as an upgrade, which replaces that plan. The provider
   * knows nothing of the link: the app ends the plan once this is paid, and voids this if the
   * bank refused it.
   */
  metadata: { user_id: string; ends_subscription?: string }
  created: number
  /**
   * Where the provider keeps its own PDF of the invoice (Stripe, once finalized); absent where
   * the app renders the PDF itself (the sandbox).
   */
  invoice_pdf?: string
}

/**
 * Money given back on a charge that succeeded, in full or in part. A card refund is usually
 * `succeeded` at once; `pending` while the bank has not confirmed it, and `failed` when the card
 * can no longer take it (the money then waits at the provider for another way back).
 */
export interface GatewayRefund {
  id: string
  object: 'refund'
  /** Cents. */
  amount: number
  currency: 'usd'
  payment_intent: string
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled'
  /** Only the provider's own words are accepted; ours go in the metadata and the audit log. */
  reason: 'requested_by_customer' | 'duplicate' | 'fraudulent' | null
  /**
   * Our user, and the invoice it gives money back on, so a refund can be traced back. Empty on a
   * refund made at the provider (its Dashboard): the charge then says whose it is.
   */
  metadata: { user_id?: string; invoice_id?: string }
  created: number
}

/** What moving a plan to another price would cost now: the new price less the unused time. */
export interface GatewayUpgradePreview {
  /** The new price's amount, in cents. */
  amount: number
  /** The unused part of the current period, as a negative number of cents. */
  credit: number
  /** What is charged now. */
  total: number
}

/**
 * What the provider tells us happened (its webhook), once the delivery's signature is checked.
 * Our side answers every event the same way: by syncing the customer it names (the catalog
 * when it names none), so events may come late, twice or out of order.
 */
export interface GatewayEvent {
  /** The provider's id (`evt_…`): the same event delivered again has the same id. */
  id: string
  /** `invoice.paid`, `customer.subscription.updated`… */
  type: string
  /** When the provider made it (epoch seconds). */
  created: number
  customer: string | null
  /** The payment (PaymentIntent) an event about a charge or a refund is about, else null. */
  paymentIntent: string | null
}

/** Asked of every call that creates something: the same key again returns the first result. */
export interface RequestOptions {
  idempotencyKey?: string
}

/**
 * The sandbox's own card field: turns the numbers typed in the browser into a payment method,
 * as the provider's card field does in its own frame. Where the provider takes cards, its
 * field makes payment methods and this is absent.
 */
export interface CardField {
  createCardPaymentMethod(card: TypedCard): Promise<GatewayPaymentMethod>
  /**
   * The member's answer on the bank's 3-D Secure check of a setup, on the sandbox's stand-in
   * for the bank's page (Stripe.js shows the bank's own in Stripe mode).
   */
  authenticateCardSetup(input: {
    clientSecret: string
    outcome: 'complete' | 'fail'
  }): Promise<GatewaySetupIntent>
  /** The same for a payment the bank asks to confirm. */
  authenticateCardPayment(input: {
    clientSecret: string
    outcome: 'complete' | 'fail'
  }): Promise<GatewayPaymentIntent>
}

/** A card as typed into the sandbox's field. */
export interface TypedCard {
  number: string
  expMonth: number
  expYear: number
  cvc: string
}

/** The setup intent a client secret belongs to (Stripe's secrets begin with the intent's id). */
export const setupIntentOfSecret = (clientSecret: string) => clientSecret.split('_secret_')[0] ?? ''

/** The payment a client secret (`pi_…_secret_…`) belongs to. */
export const paymentIntentOfSecret = setupIntentOfSecret

/** Test clocks: a customer's time moved forward, so renewals and retries happen now. */
export interface TestClocks {
  /** Moves the customer's clock and waits for what became due; answers the new time. */
  advanceClock(customer: string, seconds: number): Promise<number>
  /** The customer's time now, in seconds: its clock's, or real time for one without a clock. */
  nowOf(customer: string): Promise<number>
}

export interface PaymentGateway {
  /** `sandbox` takes no real money and says so wherever money is shown. */
  readonly kind: 'sandbox' | 'stripe'
  /** Present when cards are typed into our own form (the sandbox). */
  readonly cardField: CardField | null
  /**
   * The key the page's card field (Stripe.js) uses where the provider takes the card itself;
   * null where cards are typed into our own form.
   */
  readonly publishableKey: string | null
  /** Present in test mode only. */
  readonly testClocks: TestClocks | null
  /** The product, or null when there is none with this id. */
  retrieveProduct(id: string): Promise<GatewayProduct | null>
  /** Creates the product under a chosen id (the provider allows it for products). */
  createProduct(
    input: { id: string; name: string },
    options?: RequestOptions,
  ): Promise<GatewayProduct>
  createPrice(
    input: { product: string; nickname: string; unitAmount: number; currency: 'usd'; plan: Plan },
    options?: RequestOptions,
  ): Promise<GatewayPrice>
  /** A price's amount can never change; it can only be taken off the list (or put back). */
  updatePrice(id: string, input: { active: boolean }): Promise<GatewayPrice | null>
  /** Every price of the product, active or not, newest first. */
  listPrices(product: string): Promise<GatewayPrice[]>

  createCustomer(
    input: { email: string; name: string; userId: string },
    options?: RequestOptions,
  ): Promise<GatewayCustomer>
  retrieveCustomer(id: string): Promise<GatewayCustomer | null>
  /** Changes the billing information or the default card; fields left out stay as they are. */
  updateCustomer(
    id: string,
    input: {
      email?: string
      name?: string
      address?: GatewayAddress
      defaultPaymentMethod?: string | null
    },
  ): Promise<GatewayCustomer>
  /**
   * Deletes the customer for good, as its member's account is deleted: its billing details go
   * and retrieving it answers null from then on. Its invoices and charges stay with the
   * provider, which keeps them for its own legal duties. End its plans and remove its cards
   * first: the provider's own deletion is not relied on for that. An unknown or already deleted
   * customer is not an error.
   */
  deleteCustomer(id: string): Promise<void>

  /**
   * Starts saving a card for the customer through the provider's card field: the browser
   * confirms it with the card (and any authentication the bank asks for), which saves the card
   * to this customer and no other.
   */
  createSetupIntent(
    input: {
      customer: string
      /**
       * A card the page made with the provider's field: the setup is confirmed with it here,
       * on the server, so every try of a card is one the app counts. The bank may refuse it
       * (GatewayError) or ask for its check (`requires_action`, which the page then runs).
       */
      paymentMethod?: string
    },
    options?: RequestOptions,
  ): Promise<GatewaySetupIntent>
  retrieveSetupIntent(id: string): Promise<GatewaySetupIntent | null>
  retrievePaymentMethod(id: string): Promise<GatewayPaymentMethod | null>
  /**
   * Saves a card made in the browser to the customer. The provider checks the card with its
   * bank here, so a declined card fails now (GatewayError `card_declined`), not at the charge.
   */
  attachPaymentMethod(
    id: string,
    input: { customer: string; cardType?: 'debit' | 'credit' },
  ): Promise<GatewayPaymentMethod>
  detachPaymentMethod(id: string): Promise<GatewayPaymentMethod>
  /** The customer's saved cards, newest first. */
  listPaymentMethods(customer: string): Promise<GatewayPaymentMethod[]>

  /**
   * Creates a payment and confirms it with the card at once. A card the bank refuses outright
   * comes back as `requires_payment_method` with `last_payment_error`; one whose bank asks the
   * member to confirm it (3-D Secure) as `requires_action`, for the page to run the check;
   * otherwise the payment is `processing`, and an event says later whether it succeeded.
   */
  createPaymentIntent(
    input: {
      amount: number
      currency: 'usd'
      customer: string
      paymentMethod: string
      receiptEmail: string | null
      metadata: GatewayPaymentIntent['metadata']
    },
    options?: RequestOptions,
  ): Promise<GatewayPaymentIntent>
  /**
   * The customer's payments, newest first. A one-time payment that succeeds gets a paid
   * invoice of its own (as the provider's `invoice_creation` does).
   */
  listPaymentIntents(customer: string): Promise<GatewayPaymentIntent[]>
  retrievePaymentIntent(id: string): Promise<GatewayPaymentIntent | null>
  /** Gives up a payment nobody finished (a bank's check left unanswered): it is `canceled`. */
  cancelPaymentIntent(id: string, options?: RequestOptions): Promise<GatewayPaymentIntent>

  /**
   * Starts a monthly plan: its first invoice is made and charged at once, and the plan stays
   * `incomplete` until that charge succeeds. `paymentMethod` is the customer's default card:
   * each of the plan's charges uses the default card of that moment, so renewals and retries
   * follow the card the member makes the default. `installments` ends it by itself after that
   * many charges (FOUR PAYMENTS, a schedule at the provider).
   */
  createSubscription(
    input: {
      customer: string
      price: string
      paymentMethod: string
      installments: number | null
      metadata: GatewaySubscription['metadata']
    },
    options?: RequestOptions,
  ): Promise<GatewaySubscription>
  retrieveSubscription(id: string): Promise<GatewaySubscription | null>
  /** The customer's plans, newest first, ended ones too. */
  listSubscriptions(customer: string): Promise<GatewaySubscription[]>
  /** Cancel at the period's end, or take that back. */
  updateSubscription(
    id: string,
    input: { cancelAtPeriodEnd: boolean },
  ): Promise<GatewaySubscription>
  /**
   * Pauses an active plan that is not paid in installments: no invoice is made and no period
   * starts until it is resumed (the provider's pause, not a pause of collection).
   */
  pauseSubscription(id: string): Promise<GatewaySubscription>
  /**
   * Resumes a paused plan. Within the period already paid for it goes on as before, charging
   * nothing; after it, a new month starts now and is charged at once, and the plan stays
   * `paused` until that charge succeeds (failed, it is retried like a renewal).
   */
  resumeSubscription(id: string, options?: RequestOptions): Promise<GatewaySubscription>

  /** What `upgradeSubscription` would charge now (the provider's upcoming-invoice preview). */
  previewUpgrade(id: string, input: { price: string }): Promise<GatewayUpgradePreview>
  /**
   * Moves a running plan to another price now, crediting the unused part of its period on the
   * invoice for the new price, which is charged to the default card at once. A recurring price
   * (FOUR PAYMENTS) restarts the plan's months on it; a one-time price (ONE PAYMENT) is an
   * invoice of its own, marked `ends_subscription`, and the plan runs on until the app ends it.
   * Asked again of a plan already moved to the recurring price, it does only what is left (FOUR
   * PAYMENTS given its end), moving and charging nothing again.
   */
  upgradeSubscription(
    id: string,
    input: { price: string; installments: number | null },
    options?: RequestOptions,
  ): Promise<GatewayInvoice>
  /** Ends a plan now, crediting and invoicing nothing (its unused time was credited already). */
  cancelSubscription(id: string): Promise<GatewaySubscription>
  /** An open invoice that will never be collected; a charge still with the bank is cancelled. */
  voidInvoice(id: string): Promise<GatewayInvoice>
  retrieveInvoice(id: string): Promise<GatewayInvoice | null>
  /** The customer's invoices, newest first. */
  listInvoices(customer: string): Promise<GatewayInvoice[]>
  /** Charges an open invoice again, with this card ('Pay Actual Invoice'). */
  payInvoice(id: string, input: { paymentMethod: string }): Promise<GatewayInvoice>
  /**
   * Gives back `amount` cents of a charge that succeeded, to the card it
   * was paid with. More than is left is a GatewayError `amount_too_large`; a charge given back
   * in full already is `charge_already_refunded`. Plans and invoices do not change.
   */
  createRefund(
    input: { paymentIntent: string; amount: number; metadata: GatewayRefund['metadata'] },
    options?: RequestOptions,
  ): Promise<GatewayRefund>
  /** The refunds of one charge, newest first. */
  listRefunds(paymentIntent: string): Promise<GatewayRefund[]>
  /**
   * The event in a webhook delivery, checked against the endpoint's signing secret; a GatewayError
   * `signature_invalid` when the signature is missing, wrong or older than five minutes.
   */
  readEvent(payload: Buffer, signature: string | string[] | undefined): Promise<GatewayEvent>
}

/** Raised by a gateway for a call that cannot succeed as asked (an unknown id, a closed object). */
export class GatewayError extends Error {
  constructor(
    /** The provider's error code (`resource_missing`, `card_declined`, `expired_card`…). */
    public readonly code: string,
    message: string,
    /** For a declined card, the bank's reason (`generic_decline`, `insufficient_funds`…). */
    public readonly declineCode?: string,
  ) {
    super(message)
    this.name = 'GatewayError'
  }
}
