import { sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { cardBrand, cardDigits } from '../../../domain/billing'
import { signEvent, verifyEvent } from '../events'
import {
  type CardField,
  type GatewayCustomer,
  GatewayError,
  type GatewayInvoice,
  type GatewayPaymentIntent,
  type GatewayPaymentMethod,
  type GatewayPrice,
  type GatewayProduct,
  type GatewayRefund,
  type GatewaySetupIntent,
  type GatewaySubscription,
  type GatewayUpgradePreview,
  type PaymentGateway,
  paymentIntentOfSecret,
  type RequestOptions,
  setupIntentOfSecret,
  type TestClocks,
} from '../gateway'
import { notForward, type SandboxTestClock, sandboxClocks } from './clocks'
import {
  publicCustomer,
  publicIntent,
  type SandboxEvent,
  type StoredCustomer,
  type StoredPaymentIntent,
  sandboxPlans,
} from './plans'
import { missing, nowSeconds, sandboxData, sandboxId, sandboxStore } from './store'

// The sandbox gateway: the card provider played in our own database, so every money path runs
// on one machine with no keys. It answers in the provider's shapes and keeps its rules (ids with
// type prefixes, idempotency keys, prices that cannot be edited), and it keeps its objects in
// `sandbox_object`, apart from our billing tables, which it reaches only through the sync.

/** How the sandbox's bank answers for a card: when it is saved, and when it is charged. */
interface CardBehaviour {
  funding: GatewayPaymentMethod['card']['funding']
  /** A decline when the card is saved (the provider checks it with the bank then). */
  onSave: DeclineReason | null
  /** A decline when the card is charged. */
  onCharge: DeclineReason | null
  /**
   * The bank asks to authenticate the card (3-D Secure) when it is set up and for every charge
   * made with the member present; a charge made while the member is away (a renewal) needs no
   * check once the card was set up with one, and is refused (authentication_required) when the
   * card never was. A charge with the member present waits for the check (`requires_action`).
   */
  authenticates?: true
}

type DeclineReason =
  | 'authentication_required'
  | 'generic_decline'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'test_mode_live_card'

/** The provider's English sentences for each decline (the app shows its own translation). */
export const DECLINE_MESSAGES: Record<DeclineReason, string> = {
  authentication_required: 'Your card was declined. This transaction requires authentication.',
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  test_mode_live_card:
    'Your card was declined. The sandbox takes test card numbers only, such as 4242 4242 4242 4242.',
}

const ok = (funding: CardBehaviour['funding'] = 'credit'): CardBehaviour => ({
  funding,
  onSave: null,
  onCharge: null,
})

/**
 * The provider's published test cards and what each does. Any other number is refused, as the
 * provider refuses real cards in test mode, so nobody types a real card into a sandbox.
 */
export const SANDBOX_CARDS: Record<string, CardBehaviour> = {
  '4242424242424242': ok(),
  '5555555555554444': ok(),
  '4000056655665556': ok('debit'),
  '4000000000000002': { funding: 'credit', onSave: 'generic_decline', onCharge: 'generic_decline' },
  '4000000000009995': { funding: 'credit', onSave: null, onCharge: 'insufficient_funds' },
  '4000000000000341': { funding: 'credit', onSave: null, onCharge: 'generic_decline' },
  '4000000000000069': { funding: 'credit', onSave: 'expired_card', onCharge: 'expired_card' },
  '4000000000000127': { funding: 'credit', onSave: 'incorrect_cvc', onCharge: 'incorrect_cvc' },
  '4000002500003155': { ...ok(), authenticates: true },
}

/** Stripe's words when the member fails (or abandons) the bank's check of a card. */
const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.'

const declined = (reason: DeclineReason) =>
  new GatewayError(
    reason === 'expired_card' || reason === 'incorrect_cvc' || reason === 'authentication_required'
      ? reason
      : 'card_declined',
    DECLINE_MESSAGES[reason],
    reason === 'expired_card' || reason === 'incorrect_cvc' ? undefined : reason,
  )

/** The bank's refusal of a card (as `declined` makes it), not a fault of the request. */
const isRefusal = (error: unknown): error is GatewayError =>
  error instanceof GatewayError &&
  (error.code === 'card_declined' ||
    error.code === 'expired_card' ||
    error.code === 'incorrect_cvc')

/**
 * A stored payment method: the provider's shape plus what the sandbox's bank knows of it,
 * including whether the member authenticated it when it was set up.
 */
type StoredPaymentMethod = GatewayPaymentMethod & {
  sandbox: CardBehaviour & { authenticated?: true }
}

/** A card whose bank asks to check it when it is set up, as it has not been yet. */
const unauthenticated = (method: StoredPaymentMethod) =>
  method.sandbox.authenticates === true && method.sandbox.authenticated !== true

/**
 * Whether the bank asks for its check of this charge: always with the member present (Stripe's
 * 4000 0025 0000 3155), and while the member is away unless the card was set up with the check.
 */
const asksForCheck = (method: StoredPaymentMethod, offSession: boolean) =>
  method.sandbox.authenticates === true && (!offSession || method.sandbox.authenticated !== true)

const publicMethod = ({ sandbox: _, ...method }: StoredPaymentMethod): GatewayPaymentMethod =>
  method

/** A refund as the sandbox keeps it: with its charge's customer, so it is listed by owner. */
type StoredRefund = GatewayRefund & { customer: string }

const publicRefund = ({ customer: _, ...refund }: StoredRefund): GatewayRefund => refund

/** What a refund may not change: the money given back never passes what the charge took. */
const RETURNED_STATUSES: GatewayRefund['status'][] = ['pending', 'requires_action', 'succeeded']

/** The sandbox's gateway, plus what only the sandbox has: the card form, the bank and the clocks. */
export interface SandboxGateway extends PaymentGateway {
  kind: 'sandbox'
  /**
   * How a charge reaches the bank: a durable job that calls `settlePaymentIntent` a moment later,
   * as a real provider answers by webhook. Without one (the operator command), charges settle
   * at once.
   */
  connectBank(send: (paymentIntentId: string) => Promise<void>): void
  /** The bank's answer to a `processing` charge; then the event handlers hear of it. */
  settlePaymentIntent(id: string): Promise<void>
  /**
   * How the plans' due work (renewals, installments, retries) is run when a customer's clock
   * reaches it: a delayed job that calls `runDue`. Without one, only `advanceClock` runs it.
   */
  connectScheduler(schedule: (customer: string, at: Date) => Promise<void>): void
  /**
   * Where the sandbox sends its events, signed, as Stripe calls a webhook endpoint. Without
   * one (the operator command, which syncs by itself), events are not sent.
   */
  connectWebhooks(send: (delivery: WebhookDelivery) => Promise<void>): void
  /**
   * Stripe.js's confirmation of a setup intent, with its client secret and either a card typed
   * into the field or a card already made: the bank checks the card and it is saved to the
   * intent's customer. Refused, the intent keeps the refusal and the call fails with it.
   */
  confirmSetupIntent(
    id: string,
    input: { clientSecret: string; paymentMethod: string },
  ): Promise<GatewaySetupIntent>
  /** The member's answer on the bank's 3-D Secure check of a setup that `requires_action`. */
  authenticateSetupIntent(
    id: string,
    input: { clientSecret: string; outcome: 'complete' | 'fail' },
  ): Promise<GatewaySetupIntent>
  /** The member's answer on the bank's 3-D Secure check of a payment that `requires_action`. */
  authenticatePaymentIntent(
    id: string,
    input: { clientSecret: string; outcome: 'complete' | 'fail' },
  ): Promise<GatewayPaymentIntent>
  /** A price by its id, for the sandbox's HTTP server (the contract lists prices by product). */
  retrievePrice(id: string): Promise<GatewayPrice | null>
  /**
   * As the contract's, with Stripe's `proration_date`: the unused time counted from that moment
   * instead of now.
   */
  previewUpgrade(
    id: string,
    input: { price: string; prorationDate?: number },
  ): Promise<GatewayUpgradePreview>
  /**
   * As the contract's, with Stripe's `billing_cycle_anchor[type]`: `unchanged` goes on with the
   * plan's months charging nothing, `now` starts a new month now and charges it. Without it,
   * the one the app would ask for: unchanged within the month paid for, now after it.
   */
  resumeSubscription(
    id: string,
    options?: RequestOptions & { billingCycleAnchor?: 'now' | 'unchanged' },
  ): Promise<GatewaySubscription>
  /** The customer's time (its test clock's), which what is made for it is dated by. */
  timeOf(customer: string): Promise<number>
  /** Whether a schedule manages the plan, for the server's `schedule` field. */
  isScheduled(subscription: string): Promise<boolean>
  /** Stripe's `from_subscription`: a schedule attached to a running plan, with no end yet. */
  attachSchedule(subscription: string): Promise<GatewaySubscription>
  /** The attached schedule's phase lasts `months` from the plan's anchor, then cancels it. */
  endScheduleAfter(subscription: string, months: number): Promise<GatewaySubscription>
  /** A draft the server kept, finalized: open and numbered, charged only when paid. */
  issueInvoice(
    input: {
      id: string
      customer: string
      price: string
      credit: { amount: number; description: string; period: { start: number; end: number } } | null
      endsSubscription: string | null
    },
    options: RequestOptions,
  ): Promise<GatewayInvoice>
  /** Does whatever the customer's clock has reached. Safe to run twice. */
  runDue(customer: string): Promise<void>
  /** The customers whose plans still have work ahead, for the jobs after a restart. */
  customersWithLivePlans(): Promise<string[]>
  /**
   * The card field. The number itself is never stored: only brand, last four digits, expiry,
   * and which test card it was.
   */
  cardField: CardField
  /**
   * Moves a customer's time and runs what became due; answers the customer's new time. A
   * customer made on a test clock moves with its clock (and the clock's other customers), as
   * on Stripe; any other by its own offset.
   */
  testClocks: TestClocks
  /** A customer, on the test clock named (Stripe's `test_clock`), whose time it then keeps. */
  createCustomer(
    input: Parameters<PaymentGateway['createCustomer']>[0] & { testClock?: string },
    options?: RequestOptions,
  ): Promise<GatewayCustomer>
  /** The test clock the customer was made on, or null (the contract's customer has no field). */
  testClockOf(customer: string): Promise<string | null>
  /** Stripe's test clocks (clocks.ts): made at a frozen_time, and moved forward only. */
  createTestClock(
    input: { frozenTime: number; name: string | null },
    options?: RequestOptions,
  ): Promise<SandboxTestClock>
  retrieveTestClock(id: string): Promise<SandboxTestClock | null>
  /** Every test clock, newest first. */
  listTestClocks(): Promise<SandboxTestClock[]>
  /**
   * Starts moving a clock to `frozenTime`: answers it `advancing` at once, as Stripe does;
   * `done` settles when its customers have run what became due and it is `ready`.
   */
  advanceTestClock(
    id: string,
    frozenTime: number,
  ): Promise<{ clock: SandboxTestClock; done: Promise<SandboxTestClock> }>
}

/** A webhook delivery: the signed body and its `Stripe-Signature` header. */
export interface WebhookDelivery {
  payload: string
  signature: string
}

export function createSandboxGateway(
  db: Database,
  options: {
    /** Signs the events the sandbox sends, as an endpoint's signing secret (`whsec_…`). */
    webhookSecret: string
  },
): SandboxGateway {
  const store = sandboxStore(db)
  const { retrieve, create, change } = store

  let deliver: ((delivery: WebhookDelivery) => Promise<void>) | null = null
  /** The event as Stripe sends it: signed, with the object it is about naming its customer. */
  const emit = ({ type, customer, paymentIntent }: SandboxEvent) =>
    store.afterCommit(async () => {
      if (!deliver) return
      const object = type.replace(/^customer\./, '').replace(/\.[a-z_]+$/, '')
      await deliver(
        await signEvent(
          {
            id: sandboxId('evt'),
            type,
            created: nowSeconds(),
            data: {
              object: {
                object,
                customer,
                ...(paymentIntent ? { payment_intent: paymentIntent } : {}),
              },
            },
          },
          options.webhookSecret,
        ),
      )
    })
  let bank: ((paymentIntentId: string) => Promise<void>) | null = null
  let scheduler: ((customer: string, at: Date) => Promise<void>) | null = null

  const failure = (reason: DeclineReason) => {
    const error = declined(reason)
    return {
      code: error.code,
      ...(error.declineCode ? { decline_code: error.declineCode } : {}),
      message: error.message,
    }
  }

  async function createPaymentIntent(
    input: {
      /** An id chosen beforehand (an invoice names its charge before making it). */
      id?: string
      amount: number
      customer: string
      paymentMethod: string
      receiptEmail: string | null
      metadata: StoredPaymentIntent['metadata']
      offSession?: boolean
    },
    options?: RequestOptions,
  ): Promise<StoredPaymentIntent> {
    const customer = await retrieve<StoredCustomer>(input.customer, 'customer')
    if (!customer) throw missing('customer', input.customer)
    const method = await retrieve<StoredPaymentMethod>(input.paymentMethod, 'payment_method')
    if (!method) throw missing('payment_method', input.paymentMethod)
    if (method.customer && method.customer !== input.customer) {
      throw new GatewayError(
        'payment_method_unexpected_state',
        'This payment method is attached to another customer.',
      )
    }
    // A card the bank refuses outright fails now; one it asks to check waits for the member's
    // check, or is refused when the member is away to answer it; any other waits for the bank.
    const check = asksForCheck(method, input.offSession === true)
    const refusal: DeclineReason | null = check
      ? input.offSession === true
        ? 'authentication_required'
        : null
      : method.sandbox.onSave
    const id = input.id ?? sandboxId('pi')
    const intent = await create<StoredPaymentIntent>(
      'payment_intent',
      id,
      () => ({
        id,
        object: 'payment_intent',
        amount: input.amount,
        currency: 'usd',
        customer: input.customer,
        payment_method: input.paymentMethod,
        status: refusal ? 'requires_payment_method' : check ? 'requires_action' : 'processing',
        receipt_email: input.receiptEmail,
        client_secret: `${id}_secret_${sandboxId('s').slice(2)}`,
        last_payment_error: refusal ? failure(refusal) : null,
        metadata: input.metadata,
        created: plans.clockOf(customer),
      }),
      options,
    )
    if (intent.status === 'processing') {
      const send = bank
      if (send) await store.afterCommit(() => send(intent.id))
      else await store.afterCommit(() => settle(intent.id))
    }
    return intent
  }

  const plans = sandboxPlans({
    store,
    emit,
    charge: createPaymentIntent,
    schedule: async (customer, at) => {
      const send = scheduler
      if (!send) return false
      await store.afterCommit(() => send(customer, at))
      return true
    },
  })

  const clocks = sandboxClocks({ store, advanceCustomer: plans.advanceClock })

  async function settle(id: string): Promise<void> {
    const intent = await retrieve<StoredPaymentIntent>(id, 'payment_intent')
    if (!intent) return
    // A retried job whose first run settled the charge but failed after it: the event is told
    // again, so what listens (our sync) catches up. It is safe to hear twice.
    if (intent.status === 'succeeded' || intent.status === 'requires_payment_method') {
      await emit({
        type:
          intent.status === 'succeeded'
            ? 'payment_intent.succeeded'
            : 'payment_intent.payment_failed',
        customer: intent.customer,
      })
      return
    }
    if (intent.status !== 'processing' || !intent.payment_method) return
    const method = await retrieve<StoredPaymentMethod>(intent.payment_method, 'payment_method')
    const refusal = method ? method.sandbox.onCharge : 'generic_decline'
    // The charge, the invoice it pays and the plan that invoice moves change together: a
    // reader never sees the charge paid beside a plan still waiting for it.
    await store.atomically(async () => {
      let answered = false
      const settled = await change<StoredPaymentIntent>(id, 'payment_intent', (current) => {
        if (current.status !== 'processing') return current
        answered = true
        return refusal
          ? { ...current, status: 'requires_payment_method', last_payment_error: failure(refusal) }
          : { ...current, status: 'succeeded', last_payment_error: null }
      })
      if (!settled || !answered) return
      await plans.afterCharge(settled)
      await plans.invoiceOneTimePayment(settled)
      await emit({
        type:
          settled.status === 'succeeded'
            ? 'payment_intent.succeeded'
            : 'payment_intent.payment_failed',
        customer: settled.customer,
      })
    })
  }

  async function createCardPaymentMethod({
    number,
    expMonth,
    expYear,
  }: Parameters<CardField['createCardPaymentMethod']>[0]): Promise<GatewayPaymentMethod> {
    const digits = cardDigits(number)
    const behaviour = SANDBOX_CARDS[digits]
    if (!behaviour) throw declined('test_mode_live_card')
    const id = sandboxId('pm')
    const method = await create<StoredPaymentMethod>('payment_method', id, () => ({
      id,
      object: 'payment_method',
      type: 'card',
      customer: null,
      card: {
        brand: cardBrand(digits),
        last4: digits.slice(-4),
        exp_month: expMonth,
        exp_year: expYear,
        funding: behaviour.funding,
      },
      metadata: {},
      created: nowSeconds(),
      sandbox: behaviour,
    }))
    return publicMethod(method)
  }

  /** Saves a card to a customer: the bank checks it now, so a declined card fails here. */
  async function attach(
    id: string,
    { customer, cardType }: { customer: string; cardType?: 'debit' | 'credit' },
  ): Promise<GatewayPaymentMethod> {
    if (!(await retrieve<StoredCustomer>(customer, 'customer'))) throw missing('customer', customer)
    const method = await retrieve<StoredPaymentMethod>(id, 'payment_method')
    if (!method) throw missing('payment_method', id)
    if (method.customer && method.customer !== customer) {
      throw new GatewayError(
        'payment_method_unexpected_state',
        'This payment method is already attached to another customer.',
      )
    }
    if (method.sandbox.onSave) throw declined(method.sandbox.onSave)
    const attached = await change<StoredPaymentMethod>(id, 'payment_method', (current) => ({
      ...current,
      customer,
      metadata: cardType ? { ...current.metadata, card_type: cardType } : current.metadata,
    }))
    if (!attached) throw missing('payment_method', id)
    return publicMethod(attached)
  }

  async function confirmSetupIntent(
    id: string,
    { clientSecret, paymentMethod }: { clientSecret: string; paymentMethod: string },
  ): Promise<GatewaySetupIntent> {
    const intent = await retrieve<GatewaySetupIntent>(id, 'setup_intent')
    // A wrong secret reads as no such intent: the secret is what proves the page may use it.
    if (!intent || intent.client_secret !== clientSecret) throw missing('setup_intent', id)
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      throw new GatewayError(
        'setup_intent_unexpected_state',
        `You cannot confirm this SetupIntent because it has a status of ${intent.status}.`,
      )
    }
    const method = await retrieve<StoredPaymentMethod>(paymentMethod, 'payment_method')
    if (method && !method.customer && unauthenticated(method) && !method.sandbox.onSave) {
      // The bank's check comes first: the page shows it (Stripe.js), then the card is saved.
      const waiting = await change<GatewaySetupIntent>(id, 'setup_intent', (current) => ({
        ...current,
        status: 'requires_action',
        payment_method: paymentMethod,
        next_action: { type: 'use_stripe_sdk' },
        last_setup_error: null,
      }))
      if (!waiting) throw missing('setup_intent', id)
      return waiting
    }
    return saveSetup(intent, paymentMethod)
  }

  /** The card of a setup saved to its customer, or the bank's refusal kept on the setup. */
  async function saveSetup(
    intent: GatewaySetupIntent,
    paymentMethod: string,
  ): Promise<GatewaySetupIntent> {
    const { id } = intent
    try {
      await attach(paymentMethod, { customer: intent.customer })
    } catch (error) {
      if (!isRefusal(error)) throw error
      await change<GatewaySetupIntent>(id, 'setup_intent', (current) => ({
        ...current,
        status: 'requires_payment_method',
        payment_method: null,
        last_setup_error: {
          code: error.code,
          decline_code: error.declineCode ?? null,
          message: error.message,
        },
      }))
      throw error
    }
    const confirmed = await change<GatewaySetupIntent>(id, 'setup_intent', (current) => ({
      ...current,
      status: 'succeeded',
      payment_method: paymentMethod,
      next_action: null,
      last_setup_error: null,
    }))
    if (!confirmed) throw missing('setup_intent', id)
    await emit({ type: 'setup_intent.succeeded', customer: confirmed.customer })
    return confirmed
  }

  /**
   * The member's answer on the bank's check of a setup (Stripe's 3-D Secure test page, reached
   * by Stripe.js in its own frame): completed, the card is authenticated and saved; failed, the
   * setup waits for another card and says why.
   */
  async function authenticateSetupIntent(
    id: string,
    { clientSecret, outcome }: { clientSecret: string; outcome: 'complete' | 'fail' },
  ): Promise<GatewaySetupIntent> {
    const intent = await retrieve<GatewaySetupIntent>(id, 'setup_intent')
    if (!intent || intent.client_secret !== clientSecret) throw missing('setup_intent', id)
    const paymentMethod = intent.payment_method
    if (intent.status !== 'requires_action' || !paymentMethod) {
      throw new GatewayError(
        'setup_intent_unexpected_state',
        `This SetupIntent has a status of ${intent.status}: there is no check of the bank to answer.`,
      )
    }
    if (outcome === 'fail') {
      const failed = await change<GatewaySetupIntent>(id, 'setup_intent', (current) => ({
        ...current,
        status: 'requires_payment_method',
        payment_method: null,
        next_action: null,
        last_setup_error: {
          code: 'setup_intent_authentication_failure',
          decline_code: null,
          message: AUTHENTICATION_FAILED,
        },
      }))
      if (!failed) throw missing('setup_intent', id)
      return failed
    }
    await change<StoredPaymentMethod>(paymentMethod, 'payment_method', (current) => ({
      ...current,
      sandbox: { ...current.sandbox, authenticated: true },
    }))
    return saveSetup(intent, paymentMethod)
  }

  /**
   * The member's answer on the bank's check of a payment: confirmed, it goes to the bank as
   * any other; failed (or abandoned), it is refused as Stripe refuses it.
   */
  async function authenticatePaymentIntent(
    id: string,
    { clientSecret, outcome }: { clientSecret: string; outcome: 'complete' | 'fail' },
  ): Promise<StoredPaymentIntent> {
    const intent = await retrieve<StoredPaymentIntent>(id, 'payment_intent')
    if (!intent || intent.client_secret !== clientSecret) throw missing('payment_intent', id)
    return store.atomically(async () => {
      let answered = false
      const changed = await change<StoredPaymentIntent>(id, 'payment_intent', (current) => {
        if (current.status !== 'requires_action') return current
        answered = true
        return outcome === 'complete'
          ? { ...current, status: 'processing' }
          : {
              ...current,
              status: 'requires_payment_method',
              last_payment_error: {
                code: 'payment_intent_authentication_failure',
                message: AUTHENTICATION_FAILED,
              },
            }
      })
      if (!changed) throw missing('payment_intent', id)
      if (!answered) {
        throw new GatewayError(
          'payment_intent_unexpected_state',
          `This PaymentIntent has a status of ${changed.status}: there is no check of the bank to answer.`,
        )
      }
      if (changed.status === 'processing') {
        const send = bank
        await store.afterCommit(() => (send ? send(id) : settle(id)))
      } else {
        // A plan's charge refused: its invoice stays open, as after any refusal.
        await plans.afterCharge(changed)
        await emit({ type: 'payment_intent.payment_failed', customer: changed.customer })
      }
      return changed
    })
  }

  const gateway: SandboxGateway = {
    kind: 'sandbox',
    cardField: {
      createCardPaymentMethod,
      authenticateCardSetup: ({ clientSecret, outcome }) =>
        authenticateSetupIntent(setupIntentOfSecret(clientSecret), { clientSecret, outcome }),
      authenticateCardPayment: async ({ clientSecret, outcome }) =>
        publicIntent(
          await authenticatePaymentIntent(paymentIntentOfSecret(clientSecret), {
            clientSecret,
            outcome,
          }),
        ),
    },
    publishableKey: null,
    testClocks: {
      async advanceClock(customerId, seconds) {
        const customer = await retrieve<StoredCustomer>(customerId, 'customer')
        if (!customer) throw missing('customer', customerId)
        if (!Number.isInteger(seconds)) {
          throw new GatewayError('invalid_request_error', 'A clock moves by whole seconds.')
        }
        const clockId = customer.sandbox?.test_clock
        if (!clockId) {
          if (seconds <= 0) throw notForward(plans.clockOf(customer))
          return plans.advanceClock(customerId, seconds)
        }
        const { done } = await clocks.advance(clockId, { by: seconds })
        const clock = await done
        if (clock.status !== 'ready') {
          throw new Error(`The sandbox's test clock ${clockId} failed to advance.`)
        }
        return clock.frozen_time
      },
      async nowOf(customerId) {
        const customer = await retrieve<StoredCustomer>(customerId, 'customer')
        if (!customer) throw missing('customer', customerId)
        return plans.clockOf(customer)
      },
    },

    async createCustomer({ email, name, userId, testClock }, options) {
      const id = sandboxId('cus')
      // Made on a clock, the customer keeps the clock's time from its first moment.
      const offset = testClock ? await clocks.offsetForNewCustomer(testClock) : 0
      const customer = await create<StoredCustomer>(
        'customer',
        id,
        () => ({
          id,
          object: 'customer',
          email,
          name,
          address: null,
          invoice_settings: { default_payment_method: null },
          metadata: { user_id: userId },
          created: nowSeconds() + offset,
          sandbox: {
            advanced_seconds: offset,
            ...(testClock ? { test_clock: testClock } : {}),
          },
        }),
        options,
      )
      return publicCustomer(customer)
    },

    async testClockOf(id) {
      const customer = await retrieve<StoredCustomer>(id, 'customer')
      if (!customer) throw missing('customer', id)
      return customer.sandbox?.test_clock ?? null
    },

    createTestClock: clocks.create,
    retrieveTestClock: clocks.retrieve,
    listTestClocks: clocks.list,
    advanceTestClock: (id, frozenTime) => clocks.advance(id, { to: frozenTime }),

    async retrieveCustomer(id) {
      const customer = await retrieve<StoredCustomer>(id, 'customer')
      return customer && !customer.deleted ? publicCustomer(customer) : null
    },

    async deleteCustomer(id) {
      // Nothing of the person stays on the customer; its id and clock stay for what refers to it.
      await change<StoredCustomer>(id, 'customer', (customer) => ({
        ...customer,
        email: '',
        name: '',
        address: null,
        invoice_settings: { default_payment_method: null },
        metadata: { user_id: '' },
        deleted: true,
      }))
    },

    async updateCustomer(id, { defaultPaymentMethod, ...fields }) {
      if (defaultPaymentMethod) {
        const method = await retrieve<StoredPaymentMethod>(defaultPaymentMethod, 'payment_method')
        if (method?.customer !== id) {
          throw new GatewayError(
            'invalid_request_error',
            `The payment method ${defaultPaymentMethod} does not belong to customer ${id}.`,
          )
        }
      }
      const updated = await change<StoredCustomer>(id, 'customer', (customer) => ({
        ...customer,
        ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
        invoice_settings:
          defaultPaymentMethod === undefined
            ? customer.invoice_settings
            : { default_payment_method: defaultPaymentMethod },
      }))
      if (!updated) throw missing('customer', id)
      return publicCustomer(updated)
    },

    async retrievePaymentMethod(id) {
      const method = await retrieve<StoredPaymentMethod>(id, 'payment_method')
      return method ? publicMethod(method) : null
    },

    attachPaymentMethod: (id, input) => attach(id, input),

    async createSetupIntent({ customer, paymentMethod }, options) {
      if (!(await retrieve<StoredCustomer>(customer, 'customer')))
        throw missing('customer', customer)
      const id = sandboxId('seti')
      const made = await create<GatewaySetupIntent>(
        'setup_intent',
        id,
        () => ({
          id,
          object: 'setup_intent',
          customer,
          client_secret: `${id}_secret_${sandboxId('s').slice(2)}`,
          status: 'requires_payment_method',
          payment_method: null,
          next_action: null,
          last_setup_error: null,
          created: nowSeconds(),
        }),
        options,
      )
      // Confirmed as it is made; a repeated request under the same key gets the first answer.
      if (!paymentMethod || made.id !== id) return made
      return confirmSetupIntent(id, { clientSecret: made.client_secret, paymentMethod })
    },

    retrieveSetupIntent: (id) => retrieve<GatewaySetupIntent>(id, 'setup_intent'),
    confirmSetupIntent,
    authenticateSetupIntent,

    async detachPaymentMethod(id) {
      const method = await retrieve<StoredPaymentMethod>(id, 'payment_method')
      if (!method?.customer) {
        throw new GatewayError(
          'payment_method_unexpected_state',
          'The payment method you provided is not attached to a customer.',
        )
      }
      const owner = method.customer
      const detached = await change<StoredPaymentMethod>(id, 'payment_method', (current) => ({
        ...current,
        customer: null,
      }))
      // The provider clears a default that was detached.
      await change<StoredCustomer>(owner, 'customer', (customer) =>
        customer.invoice_settings.default_payment_method === id
          ? { ...customer, invoice_settings: { default_payment_method: null } }
          : customer,
      )
      if (!detached) throw missing('payment_method', id)
      return publicMethod(detached)
    },

    connectBank(send) {
      bank = send
    },

    connectScheduler(schedule) {
      scheduler = schedule
    },

    settlePaymentIntent: settle,

    connectWebhooks(send) {
      deliver = send
    },

    readEvent: (payload, signature) => verifyEvent(payload, signature, options.webhookSecret),

    createPaymentIntent: async ({ currency: _usd, ...input }, options) =>
      publicIntent(await createPaymentIntent(input, options)),

    async retrievePaymentIntent(id) {
      const intent = await retrieve<StoredPaymentIntent>(id, 'payment_intent')
      return intent && publicIntent(intent)
    },

    async cancelPaymentIntent(id) {
      const stored = await retrieve<StoredPaymentIntent>(id, 'payment_intent')
      if (stored?.metadata.invoice) {
        throw new GatewayError(
          'invalid_request_error',
          'A PaymentIntent made by an invoice cannot be canceled; void the invoice instead.',
        )
      }
      let canceled = false
      const changed = await change<StoredPaymentIntent>(id, 'payment_intent', (current) => {
        if (current.status !== 'requires_action' && current.status !== 'requires_payment_method')
          return current
        canceled = true
        return { ...current, status: 'canceled' }
      })
      if (!changed) throw missing('payment_intent', id)
      if (!canceled && changed.status !== 'canceled') {
        throw new GatewayError(
          'payment_intent_unexpected_state',
          `You cannot cancel this PaymentIntent because it has a status of ${changed.status}.`,
        )
      }
      return publicIntent(changed)
    },

    authenticatePaymentIntent: (id, input) =>
      authenticatePaymentIntent(id, input).then(publicIntent),

    createRefund: ({ paymentIntent, amount, metadata }, options) =>
      store.atomically(async () => {
        const id = sandboxId('re')
        let customer = ''
        const refund = await create<StoredRefund>(
          'refund',
          id,
          async () => {
            // The charge's row lock makes two refunds of it at once take turns, so together
            // they never give back more than it took.
            const intent = await change<StoredPaymentIntent>(
              paymentIntent,
              'payment_intent',
              (c) => c,
            )
            if (!intent) throw missing('payment_intent', paymentIntent)
            if (intent.status !== 'succeeded') {
              throw new GatewayError(
                'payment_intent_unexpected_state',
                `This PaymentIntent (${paymentIntent}) does not have a successful charge to refund.`,
              )
            }
            const earlier = await store.listAll<StoredRefund>(
              'refund',
              sql`${sandboxData}->>'payment_intent' = ${paymentIntent}`,
            )
            const returned = earlier
              .filter((each) => RETURNED_STATUSES.includes(each.status))
              .reduce((sum, each) => sum + each.amount, 0)
            const left = intent.amount - returned
            if (left <= 0) {
              throw new GatewayError(
                'charge_already_refunded',
                `Charge for ${paymentIntent} has already been refunded.`,
              )
            }
            if (!Number.isInteger(amount) || amount < 1 || amount > left) {
              throw new GatewayError(
                'amount_too_large',
                `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
              )
            }
            customer = intent.customer
            return {
              id,
              object: 'refund',
              amount,
              currency: 'usd',
              payment_intent: paymentIntent,
              // A test card takes its refund at once, as Stripe's test cards do.
              status: 'succeeded',
              reason: 'requested_by_customer',
              metadata,
              created: await plans.timeOf(intent.customer),
              customer: intent.customer,
            }
          },
          options,
        )
        // A repeated request gets the first refund and tells nothing again.
        if (customer) await emit({ type: 'charge.refunded', customer, paymentIntent })
        return publicRefund(refund)
      }),

    listRefunds: async (paymentIntent) =>
      (
        await store.listAll<StoredRefund>(
          'refund',
          sql`${sandboxData}->>'payment_intent' = ${paymentIntent}`,
        )
      ).map(publicRefund),

    listPaymentIntents: async (customer) =>
      (await store.listOf<StoredPaymentIntent>('payment_intent', customer)).map(publicIntent),

    async listPaymentMethods(customer) {
      return (await store.listOf<StoredPaymentMethod>('payment_method', customer)).map(publicMethod)
    },

    runDue: plans.runDue,
    timeOf: plans.timeOf,
    isScheduled: plans.isScheduled,
    issueInvoice: plans.issueInvoice,
    voidInvoice: plans.voidOpenInvoice,
    cancelSubscription: plans.cancelSubscription,
    attachSchedule: plans.attachSchedule,
    endScheduleAfter: plans.endScheduleAfter,
    customersWithLivePlans: plans.customersWithLivePlans,
    createSubscription: plans.createSubscription,
    retrieveSubscription: plans.retrieveSubscription,
    listSubscriptions: plans.listSubscriptions,
    updateSubscription: plans.updateSubscription,
    pauseSubscription: plans.pauseSubscription,
    resumeSubscription: plans.resumeSubscription,
    previewUpgrade: plans.previewUpgrade,
    upgradeSubscription: plans.upgradeSubscription,
    retrieveInvoice: plans.retrieveInvoice,
    listInvoices: plans.listInvoices,
    payInvoice: plans.payInvoice,

    retrieveProduct: (id) => retrieve<GatewayProduct>(id, 'product'),

    createProduct: ({ id, name }, options) =>
      create<GatewayProduct>(
        'product',
        id,
        () => ({ id, object: 'product', name, active: true, created: nowSeconds() }),
        options,
      ),

    createPrice: ({ product, nickname, unitAmount, currency, plan }, options) => {
      const recurring =
        plan === 'one_payment' ? null : { interval: 'month' as const, interval_count: 1 }
      const id = sandboxId('price')
      return create<GatewayPrice>(
        'price',
        id,
        () => ({
          id,
          object: 'price',
          product,
          nickname,
          unit_amount: unitAmount,
          currency,
          active: true,
          created: nowSeconds(),
          type: recurring ? 'recurring' : 'one_time',
          recurring,
          metadata: { plan },
        }),
        options,
      )
    },

    retrievePrice: (id) => retrieve<GatewayPrice>(id, 'price'),

    updatePrice: (id, { active }) => store.setField<GatewayPrice>(id, 'price', 'active', active),

    listPrices: (product) =>
      store.listAll<GatewayPrice>('price', sql`${sandboxData}->>'product' = ${product}`),
  }
  return gateway
}

/** Whether the configured gateway is the sandbox (which has the browser's card endpoint). */
export function isSandboxGateway(gateway: PaymentGateway): gateway is SandboxGateway {
  return gateway.kind === 'sandbox' && 'settlePaymentIntent' in gateway
}
