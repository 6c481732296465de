import { sql } from 'drizzle-orm'
import {
  type GatewayCustomer,
  GatewayError,
  type GatewayInvoice,
  type GatewayPaymentIntent,
  type GatewayPrice,
  type GatewaySubscription,
  type PaymentGateway,
  type RequestOptions,
} from '../gateway'
import { missing, type SandboxStore, sandboxData, sandboxId } from './store'

// The sandbox's monthly plans, invoices and customers' clocks. Each customer has a clock that
// runs with real time plus however far it was advanced (`cli billing advance`, or the test clock
// it was made on: clocks.ts); renewals, the installments of FOUR PAYMENTS, retries and endings
// happen when that clock reaches them, in jobs as the provider's own schedule does.

export const DAY_SECONDS = 86_400
/** A failed renewal is tried again this many days after the 1st and the 2nd try… */
export const RETRY_AFTER_DAYS = [3, 4] as const
/** …and after this many tries the plan becomes `unpaid` (its invoice stays open). */
export const MAX_ATTEMPTS = RETRY_AFTER_DAYS.length + 1
/** A first payment that never succeeds closes the plan after this long (`incomplete_expired`). */
export const INCOMPLETE_EXPIRES_SECONDS = 23 * 3600

/**
 * The customer's clock and what the sandbox keeps beside the provider's shape. A customer made
 * on a test clock (clocks.ts) names it, and its offset is the clock's.
 */
export type StoredCustomer = GatewayCustomer & {
  sandbox?: { advanced_seconds: number; next_run?: number; test_clock?: string }
  /**
   * Deleted (its member's account was): the provider answers no customer any more, but the
   * sandbox keeps its clock, which its ended plans and invoices still read.
   */
  deleted?: true
}

export const publicCustomer = ({
  sandbox: _,
  deleted: __,
  ...customer
}: StoredCustomer): GatewayCustomer => customer

/**
 * A charge as the sandbox keeps it: a charge made for an invoice names it (and whether the
 * member made that try, 'Pay Actual Invoice', rather than an automatic retry), for the sandbox
 * to settle the invoice.
 */
export type StoredPaymentIntent = Omit<GatewayPaymentIntent, 'metadata'> & {
  metadata: GatewayPaymentIntent['metadata'] & { invoice?: string; manual?: 'true' }
}

/** As the provider shows a charge: one made for an invoice carries none of our metadata. */
export const publicIntent = ({
  metadata,
  ...intent
}: StoredPaymentIntent): GatewayPaymentIntent => ({
  ...intent,
  metadata: metadata.invoice
    ? { price_id: '', user_id: '' }
    : { price_id: metadata.price_id, user_id: metadata.user_id },
})

type StoredSubscription = GatewaySubscription & {
  sandbox: {
    /** Periods started since the billing cycle anchor (0 for the first). */
    cycle: number
    /** The start of the last period that got its invoice. */
    invoiced?: number
    installments: number | null
    paid_installments: number
    /**
     * A schedule was attached to the plan (Stripe's `from_subscription`) and not yet given its
     * end; with `installments` set, the schedule ends the plan.
     */
    scheduled?: boolean
  }
}

const publicSubscription = ({
  sandbox: _,
  ...subscription
}: StoredSubscription): GatewaySubscription => subscription

/**
 * `months` calendar months after `epoch` (UTC), on the anchor's day of the month or the last day
 * of a shorter month, at the same time of day: Jan 31 → Feb 28 → Mar 31.
 */
export function addMonths(epoch: number, months: number): number {
  const start = new Date(epoch * 1000)
  const target = new Date(
    Date.UTC(
      start.getUTCFullYear(),
      start.getUTCMonth() + months,
      1,
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
    ),
  )
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate()
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay))
  return Math.floor(target.getTime() / 1000)
}

const ENDED: GatewaySubscription['status'][] = ['canceled', 'incomplete_expired']

/** Whether a schedule manages the plan: FOUR PAYMENTS, or one being made so by an upgrade. */
const isScheduled = (subscription: StoredSubscription) =>
  subscription.sandbox.installments !== null || subscription.sandbox.scheduled === true

/** What the sandbox tells: the event type and the customer it is about (sent as a webhook). */
export interface SandboxEvent {
  type:
    | 'payment_intent.succeeded'
    | 'payment_intent.payment_failed'
    | 'invoice.paid'
    | 'invoice.payment_failed'
    | 'customer.subscription.updated'
    | 'customer.subscription.deleted'
    | 'customer.subscription.paused'
    | 'customer.subscription.resumed'
    | 'invoice.finalized'
    | 'invoice.voided'
    | 'setup_intent.succeeded'
    | 'charge.refunded'
  customer: string
  /** The payment a charge's event is about (Stripe's charge names it). */
  paymentIntent?: string
}

/** What the plans need of the rest of the sandbox. */
export interface PlanContext {
  store: SandboxStore
  emit(event: SandboxEvent): Promise<void>
  /**
   * Charges a card, as a payment intent: refused at once or `processing` until the bank answers,
   * which then calls `afterCharge`.
   */
  charge(
    input: {
      id: string
      amount: number
      customer: string
      paymentMethod: string
      receiptEmail: string | null
      metadata: StoredPaymentIntent['metadata']
      /** Made while the member is away (a renewal, a retry): a card set up for it needs no check. */
      offSession?: boolean
    },
    options: RequestOptions,
  ): Promise<StoredPaymentIntent>
  /**
   * Asks for `runDue(customer)` at a real moment (a delayed job); false when nothing can run
   * jobs (the operator command).
   */
  schedule(customer: string, at: Date): Promise<boolean>
}

export function sandboxPlans(context: PlanContext) {
  const { store, emit } = context

  async function customerOf(id: string): Promise<StoredCustomer> {
    const customer = await store.retrieve<StoredCustomer>(id, 'customer')
    if (!customer) throw missing('customer', id)
    return customer
  }

  /** The customer's clock: real time plus what it was advanced by. */
  const clockOf = (customer: StoredCustomer) =>
    Math.floor(Date.now() / 1000) + (customer.sandbox?.advanced_seconds ?? 0)

  const getSubscription = (id: string) => store.retrieve<StoredSubscription>(id, 'subscription')
  const getInvoice = (id: string) => store.retrieve<GatewayInvoice>(id, 'invoice')

  async function changeSubscription(
    id: string,
    edit: (current: StoredSubscription) => StoredSubscription,
  ): Promise<StoredSubscription> {
    const changed = await store.change<StoredSubscription>(id, 'subscription', edit)
    if (!changed) throw missing('subscription', id)
    return changed
  }

  /** A new finalized invoice, numbered without gaps; the key makes a repeat return the first. */
  async function makeInvoice(
    customer: StoredCustomer,
    now: number,
    input: {
      subscription: string | null
      reason: GatewayInvoice['billing_reason']
      price: GatewayPrice
      period: { start: number; end: number }
      receiptEmail: string | null
      paid: { paymentIntent: string } | null
      /** A credit for unused time, as a negative amount. */
      credit?: { amount: number; description: string; period: { start: number; end: number } }
      endsSubscription?: string
    },
    idempotencyKey: string,
    /** The id a draft had (Stripe keeps it when the draft is finalized). */
    id = sandboxId('in'),
  ): Promise<GatewayInvoice> {
    const charged = input.price.unit_amount
    const amount = charged + (input.credit?.amount ?? 0)
    return store.create<GatewayInvoice>(
      'invoice',
      id,
      async (next) => ({
        id,
        object: 'invoice',
        number: `HZ-${String(await next('invoice_number')).padStart(6, '0')}`,
        customer: customer.id,
        subscription: input.subscription,
        status: input.paid ? 'paid' : 'open',
        billing_reason: input.reason,
        currency: 'usd',
        subtotal: amount,
        total: amount,
        amount_due: amount,
        amount_paid: input.paid ? amount : 0,
        lines: {
          data: [
            {
              id: sandboxId('il'),
              description: input.price.nickname.replaceAll('_', ' '),
              amount: charged,
              price: input.price.id,
              proration: false,
              period: input.period,
            },
            ...(input.credit
              ? [
                  {
                    id: sandboxId('il'),
                    description: input.credit.description,
                    amount: input.credit.amount,
                    price: null,
                    proration: true,
                    period: input.credit.period,
                  },
                ]
              : []),
          ],
        },
        customer_name: customer.name,
        customer_email: customer.email,
        customer_address: customer.address,
        receipt_email: input.receiptEmail,
        payment_intent: input.paid?.paymentIntent ?? null,
        payment_intents: input.paid ? [input.paid.paymentIntent] : [],
        attempt_count: input.paid ? 1 : 0,
        next_payment_attempt: null,
        status_transitions: {
          finalized_at: now,
          paid_at: input.paid ? now : null,
          voided_at: null,
        },
        period_start: input.period.start,
        period_end: input.period.end,
        metadata: {
          user_id: customer.metadata.user_id,
          ...(input.endsSubscription ? { ends_subscription: input.endsSubscription } : {}),
        },
        created: now,
      }),
      { idempotencyKey },
    )
  }

  /**
   * An invoice of a one-time price less a credit, of no plan (ONE PAYMENT bought as an
   * upgrade), open until paid, marked as ending the plan it replaces.
   */
  function oneTimeInvoice(
    customer: StoredCustomer,
    now: number,
    input: {
      price: GatewayPrice
      credit: { amount: number; description: string; period: { start: number; end: number } } | null
      endsSubscription: string | null
    },
    idempotencyKey: string,
    id?: string,
  ): Promise<GatewayInvoice> {
    return makeInvoice(
      customer,
      now,
      {
        subscription: null,
        reason: 'manual',
        price: input.price,
        period: { start: now, end: now },
        receiptEmail: null,
        paid: null,
        ...(input.credit ? { credit: input.credit } : {}),
        ...(input.endsSubscription ? { endsSubscription: input.endsSubscription } : {}),
      },
      idempotencyKey,
      id,
    )
  }

  /** Voids an open invoice; a charge of it still with the bank is cancelled, as the provider does. */
  async function voidInvoice(id: string, now: number): Promise<void> {
    const voided = await store.change<GatewayInvoice>(id, 'invoice', (invoice) =>
      invoice.status !== 'open'
        ? invoice
        : {
            ...invoice,
            status: 'void',
            next_payment_attempt: null,
            status_transitions: { ...invoice.status_transitions, voided_at: now },
          },
    )
    if (voided?.payment_intent) {
      // Still with the bank, or waiting for the member's check: it can no longer pay.
      await store.change<GatewayPaymentIntent>(voided.payment_intent, 'payment_intent', (intent) =>
        intent.status === 'processing' || intent.status === 'requires_action'
          ? { ...intent, status: 'canceled' }
          : intent,
      )
    }
  }

  /** Whether the invoice's latest charge is still with the bank. */
  async function chargeRunning(invoice: GatewayInvoice): Promise<boolean> {
    if (!invoice.payment_intent) return false
    const intent = await store.retrieve<GatewayPaymentIntent>(
      invoice.payment_intent,
      'payment_intent',
    )
    return intent?.status === 'processing'
  }

  /**
   * One try at an open invoice with a card. The try is claimed first, under the invoice's row
   * lock: its count goes up and it names its charge, so a second try while this one is with the
   * bank (a double click, a retry job) finds the invoice changed and charges nothing. A try the
   * member makes ('Pay Actual Invoice') leaves the automatic retries as they were.
   */
  async function attempt(
    invoice: GatewayInvoice,
    paymentMethod: string | null,
    { manual = false } = {},
  ): Promise<void> {
    const busy = () =>
      new GatewayError('invoice_payment_in_progress', `Invoice ${invoice.id} is being paid.`)
    // The invoice's latest charge, read under its row lock (the member's answer to its check
    // changes it under the same lock): still with the bank, this try waits; waiting for the
    // member's check, this try replaces it, as Stripe confirms the invoice's charge again, so
    // the old one can no longer be confirmed and nothing pays twice.
    let running = false
    if (invoice.payment_intent) {
      await store.change<GatewayPaymentIntent>(
        invoice.payment_intent,
        'payment_intent',
        (intent) => {
          if (intent.status === 'processing') running = true
          return intent.status === 'requires_action' ? { ...intent, status: 'canceled' } : intent
        },
      )
    }
    if (running) {
      if (manual) throw busy()
      return
    }
    const tries = invoice.attempt_count + 1
    const intentId = sandboxId('pi')
    let claimed = false
    await store.change<GatewayInvoice>(invoice.id, 'invoice', (current) => {
      if (
        current.status !== 'open' ||
        current.attempt_count !== invoice.attempt_count ||
        current.payment_intent !== invoice.payment_intent
      )
        return current
      claimed = true
      return {
        ...current,
        attempt_count: tries,
        payment_intent: intentId,
        payment_intents: [...(current.payment_intents ?? []), intentId],
        next_payment_attempt: manual ? current.next_payment_attempt : null,
      }
    })
    if (!claimed) {
      if (manual) throw busy()
      return
    }
    const price = invoice.lines.data[0]?.price ?? ''
    // A credit that covers the whole amount leaves nothing to charge.
    if (invoice.amount_due <= 0) {
      await afterPaidInvoice(invoice.id, null)
      return
    }
    if (!paymentMethod) {
      await afterFailedCharge(invoice.id, manual)
      return
    }
    const intent = await context.charge(
      {
        id: intentId,
        amount: invoice.amount_due,
        customer: invoice.customer,
        paymentMethod,
        receiptEmail: invoice.receipt_email,
        metadata: {
          price_id: price,
          user_id: invoice.metadata.user_id,
          invoice: invoice.id,
          ...(manual ? { manual: 'true' as const } : {}),
        },
        // The first try of a plan's first month or of an upgrade is made during the member's
        // request, as is a Pay now; a renewal and every automatic retry, while they are away.
        offSession:
          !manual && (invoice.billing_reason === 'subscription_cycle' || invoice.attempt_count > 0),
      },
      { idempotencyKey: `${invoice.id}-attempt-${tries}` },
    )
    if (intent.status === 'requires_payment_method') await afterFailedCharge(invoice.id, manual)
  }

  /** The card a plan's charges use: its own, else the customer's default. */
  async function cardFor(subscription: GatewaySubscription): Promise<string | null> {
    if (subscription.default_payment_method) return subscription.default_payment_method
    const customer = await customerOf(subscription.customer)
    return customer.invoice_settings.default_payment_method
  }

  /** Makes the invoice of the plan's current period and charges it. */
  async function invoicePeriod(
    subscription: StoredSubscription,
    reason: GatewayInvoice['billing_reason'],
  ): Promise<void> {
    const customer = await customerOf(subscription.customer)
    const now = clockOf(customer)
    const priceId = subscription.items.data[0]?.price ?? ''
    const price = await store.retrieve<GatewayPrice>(priceId, 'price')
    if (!price) throw missing('price', priceId)
    const invoice = await makeInvoice(
      customer,
      now,
      {
        subscription: subscription.id,
        reason,
        price,
        period: {
          start: subscription.current_period_start,
          end: subscription.current_period_end,
        },
        receiptEmail: null,
        paid: null,
      },
      `${subscription.id}-period-${subscription.current_period_start}`,
    )
    await changeSubscription(subscription.id, (current) => ({
      ...current,
      latest_invoice: invoice.id,
      sandbox: { ...current.sandbox, invoiced: subscription.current_period_start },
    }))
    if (invoice.attempt_count === 0) await attempt(invoice, await cardFor(subscription))
  }

  async function afterFailedCharge(invoiceId: string, manual = false): Promise<void> {
    const invoice = await getInvoice(invoiceId)
    if (invoice?.status !== 'open') return
    const customer = await customerOf(invoice.customer)
    const now = clockOf(customer)
    // An invoice of no plan (ONE PAYMENT bought as an upgrade) is not retried: the app drops
    // it (billing's sync voids it), as Stripe leaves it open for whoever made it.
    if (manual || !invoice.subscription) {
      await emit({ type: 'invoice.payment_failed', customer: invoice.customer })
      return
    }
    const subscription = invoice.subscription ? await getSubscription(invoice.subscription) : null
    const retries =
      subscription && invoice.billing_reason !== 'subscription_create' && !subscription.ended_at
    // The retries count the automatic tries only; a member's own tries do not use them up.
    const automatic =
      (await store.listOf<StoredPaymentIntent>('payment_intent', invoice.customer)).filter(
        (intent) => intent.metadata.invoice === invoiceId && !intent.metadata.manual,
      ).length || invoice.attempt_count
    const exhausted = automatic >= MAX_ATTEMPTS
    const waitDays = RETRY_AFTER_DAYS[automatic - 1]
    await store.change<GatewayInvoice>(invoiceId, 'invoice', (current) => ({
      ...current,
      next_payment_attempt: retries && !exhausted && waitDays ? now + waitDays * DAY_SECONDS : null,
    }))
    if (subscription && retries) {
      // A resumption's charge that failed leaves the plan paused: it is retried, and the plan
      // starts again only once it is paid.
      await changeSubscription(subscription.id, (current) =>
        ENDED.includes(current.status) || current.status === 'unpaid' || current.status === 'paused'
          ? current
          : { ...current, status: exhausted ? 'unpaid' : 'past_due' },
      )
    }
    await emit({ type: 'invoice.payment_failed', customer: invoice.customer })
    await scheduleNext(invoice.customer)
  }

  async function afterPaidInvoice(invoiceId: string, paymentIntent: string | null): Promise<void> {
    const invoice = await getInvoice(invoiceId)
    if (!invoice) return
    const customer = await customerOf(invoice.customer)
    const now = clockOf(customer)
    let newlyPaid = false
    await store.change<GatewayInvoice>(invoiceId, 'invoice', (current) => {
      // A void invoice cancelled its charge; nothing but an open one is ever paid.
      if (current.status !== 'open') return current
      newlyPaid = true
      return {
        ...current,
        status: 'paid',
        amount_paid: current.amount_due,
        payment_intent: paymentIntent ?? current.payment_intent,
        next_payment_attempt: null,
        status_transitions: { ...current.status_transitions, paid_at: now, voided_at: null },
      }
    })
    if (!newlyPaid) return
    if (invoice.subscription) {
      await changeSubscription(invoice.subscription, (current) => {
        if (ENDED.includes(current.status)) return current
        const paidInstallments = current.sandbox.paid_installments + 1
        if (current.status !== 'unpaid') {
          return {
            ...current,
            status: 'active',
            sandbox: { ...current.sandbox, paid_installments: paidInstallments },
          }
        }
        // An unpaid plan stopped renewing; paid again, it starts a new month from today.
        const installments = current.sandbox.installments
        return {
          ...current,
          status: 'active',
          billing_cycle_anchor: now,
          current_period_start: now,
          current_period_end: addMonths(now, 1),
          cancel_at: installments ? addMonths(now, installments - paidInstallments + 1) : null,
          // The invoice just paid is this new month's.
          sandbox: {
            ...current.sandbox,
            cycle: 0,
            paid_installments: paidInstallments,
            invoiced: now,
          },
        }
      })
    }
    await emit({ type: 'invoice.paid', customer: invoice.customer })
    await scheduleNext(invoice.customer)
  }

  /** The credit for the unused part of a plan's current period, at `now`. */
  async function unusedCredit(subscription: StoredSubscription, now: number, limit: number) {
    const priceId = subscription.items.data[0]?.price ?? ''
    const price = await store.retrieve<GatewayPrice>(priceId, 'price')
    const start = subscription.current_period_start
    const end = subscription.current_period_end
    // Only a month that was paid for is credited.
    const latest = subscription.latest_invoice
      ? await getInvoice(subscription.latest_invoice)
      : null
    const paidFor = latest?.status === 'paid' && latest.period_start === start
    const unused = paidFor ? Math.max(0, Math.min(1, (end - now) / Math.max(1, end - start))) : 0
    return {
      // Never more than the new price: an invoice does not pay the member back.
      amount: -Math.min(limit, Math.round((price?.unit_amount ?? 0) * unused)),
      description: `Unused time on ${(price?.nickname ?? 'the plan').replaceAll('_', ' ')}`,
      period: { start: now, end },
    }
  }

  async function upgradeTarget(id: string, priceId: string) {
    const subscription = await getSubscription(id)
    if (!subscription) throw missing('subscription', id)
    if (subscription.status !== 'active') {
      throw new GatewayError(
        'invalid_request_error',
        'Only an active subscription can move to another price.',
      )
    }
    const price = await store.retrieve<GatewayPrice>(priceId, 'price')
    if (!price?.active) throw missing('price', priceId)
    const customer = await customerOf(subscription.customer)
    return { subscription, price, customer, now: clockOf(customer) }
  }

  /**
   * A plan moved to FOUR PAYMENTS' price whose end was not given yet: it ends `installments`
   * months from its anchor (the move). Answers the move's invoice.
   */
  async function finishInstallments(
    subscription: StoredSubscription,
    installments: number,
  ): Promise<GatewayInvoice> {
    if (subscription.cancel_at === null) {
      await changeSubscription(subscription.id, (current) => ({
        ...current,
        cancel_at: addMonths(current.billing_cycle_anchor, installments),
        sandbox: { ...current.sandbox, installments },
      }))
      await emit({ type: 'customer.subscription.updated', customer: subscription.customer })
      await scheduleNext(subscription.customer)
    }
    const invoice = subscription.latest_invoice
      ? await getInvoice(subscription.latest_invoice)
      : null
    if (!invoice) throw missing('invoice', subscription.latest_invoice ?? '')
    return invoice
  }

  /** Ends a plan at `at`: no more invoices; an open one is left for the record. */
  async function end(subscription: StoredSubscription, at: number): Promise<void> {
    await changeSubscription(subscription.id, (current) =>
      ENDED.includes(current.status)
        ? current
        : { ...current, status: 'canceled', canceled_at: current.canceled_at ?? at, ended_at: at },
    )
    // Nothing of an ended plan is collected any more: its open invoices are voided.
    for (const invoice of await store.listOf<GatewayInvoice>('invoice', subscription.customer)) {
      if (invoice.subscription === subscription.id && invoice.status === 'open') {
        await voidInvoice(invoice.id, at)
      }
    }
    await emit({ type: 'customer.subscription.deleted', customer: subscription.customer })
  }

  /** Everything due on the customer's clock: expiries, renewals, installments, retries, ends. */
  async function runDue(customerId: string): Promise<void> {
    const customer = await customerOf(customerId)
    const now = clockOf(customer)
    const subscriptions = await store.listOf<StoredSubscription>('subscription', customerId)
    for (const listed of subscriptions) {
      // Months may have passed: one period at a time, until the plan is up to date.
      for (let guard = 0; guard < 1200; guard++) {
        const subscription = await getSubscription(listed.id)
        if (!subscription || ENDED.includes(subscription.status)) break
        if (subscription.status === 'incomplete') {
          if (now < subscription.created + INCOMPLETE_EXPIRES_SECONDS) break
          // A first payment still with the bank is answered before the plan can expire.
          const first = subscription.latest_invoice
            ? await getInvoice(subscription.latest_invoice)
            : null
          if (first && (await chargeRunning(first))) break
          await changeSubscription(subscription.id, (current) =>
            current.status === 'incomplete'
              ? { ...current, status: 'incomplete_expired', ended_at: now }
              : current,
          )
          if (subscription.latest_invoice) await voidInvoice(subscription.latest_invoice, now)
          await emit({ type: 'customer.subscription.deleted', customer: customerId })
          break
        }
        // An unpaid plan waits for its open invoice: no new months, and no end as if paid. A
        // paused one starts no period until it is resumed.
        if (subscription.status === 'unpaid' || subscription.status === 'paused') break
        // A run that moved the period on but stopped before its invoice (a crash, a retried
        // job) leaves a month without one: it is made now, once, by its key.
        const invoiced = subscription.sandbox.invoiced
        if (invoiced !== undefined && invoiced !== subscription.current_period_start) {
          await invoicePeriod(subscription, 'subscription_cycle')
          continue
        }
        const periodEnd = subscription.current_period_end
        if (subscription.cancel_at !== null && now >= subscription.cancel_at) {
          await end(subscription, subscription.cancel_at)
          break
        }
        if (now < periodEnd) break
        if (subscription.cancel_at_period_end) {
          await end(subscription, periodEnd)
          break
        }
        const cycle = subscription.sandbox.cycle + 1
        const renewed = await changeSubscription(subscription.id, (current) =>
          current.current_period_end !== periodEnd
            ? current
            : {
                ...current,
                current_period_start: periodEnd,
                current_period_end: addMonths(current.billing_cycle_anchor, cycle + 1),
                sandbox: { ...current.sandbox, cycle },
              },
        )
        await invoicePeriod(renewed, 'subscription_cycle')
        await emit({ type: 'customer.subscription.updated', customer: customerId })
      }
    }
    // Retries of failed renewals whose day has come.
    for (const invoice of await store.listOf<GatewayInvoice>('invoice', customerId)) {
      if (invoice.status !== 'open' || invoice.next_payment_attempt === null) continue
      if (now < invoice.next_payment_attempt) continue
      const subscription = invoice.subscription ? await getSubscription(invoice.subscription) : null
      if (!subscription || ENDED.includes(subscription.status)) continue
      await attempt(invoice, await cardFor(subscription))
    }
    await scheduleNext(customerId)
  }

  /** Asks for the next run of the due work at the real moment the customer's clock reaches it. */
  async function scheduleNext(customerId: string): Promise<void> {
    const customer = await customerOf(customerId)
    const offset = customer.sandbox?.advanced_seconds ?? 0
    const moments: number[] = []
    for (const subscription of await store.listOf<StoredSubscription>('subscription', customerId)) {
      if (ENDED.includes(subscription.status)) continue
      if (subscription.status === 'incomplete') {
        moments.push(subscription.created + INCOMPLETE_EXPIRES_SECONDS)
        continue
      }
      if (subscription.status !== 'unpaid' && subscription.status !== 'paused')
        moments.push(subscription.current_period_end)
      if (subscription.cancel_at !== null) moments.push(subscription.cancel_at)
    }
    for (const invoice of await store.listOf<GatewayInvoice>('invoice', customerId)) {
      if (invoice.status === 'open' && invoice.next_payment_attempt !== null)
        moments.push(invoice.next_payment_attempt)
    }
    if (moments.length === 0) return
    const next = Math.min(...moments)
    // One job per moment: each change to a plan asks again, and only a new moment is sent.
    if (customer.sandbox?.next_run === next) return
    if (!(await context.schedule(customerId, new Date((next - offset) * 1000)))) return
    await store.change<StoredCustomer>(customerId, 'customer', (current) => ({
      ...current,
      sandbox: {
        ...current.sandbox,
        advanced_seconds: current.sandbox?.advanced_seconds ?? 0,
        next_run: next,
      },
    }))
  }

  return {
    clockOf,
    timeOf: async (customer: string) => clockOf(await customerOf(customer)),
    runDue,
    /** Live plans' customers, for the jobs to pick up after a restart. */
    async customersWithLivePlans(): Promise<string[]> {
      const live = await store.listAll<StoredSubscription>(
        'subscription',
        sql`${sandboxData}->>'status' not in ('canceled', 'incomplete_expired')`,
      )
      return [...new Set(live.map((subscription) => subscription.customer))]
    },

    /** The bank's answer for a charge that paid (or tried to pay) an invoice. */
    async afterCharge(intent: StoredPaymentIntent): Promise<void> {
      if (!intent.metadata.invoice) return
      if (intent.status === 'succeeded') await afterPaidInvoice(intent.metadata.invoice, intent.id)
      else if (intent.status === 'requires_payment_method')
        await afterFailedCharge(intent.metadata.invoice, intent.metadata.manual === 'true')
    },

    /** A one-time payment that succeeded gets its paid invoice (the provider's `invoice_creation`). */
    async invoiceOneTimePayment(intent: StoredPaymentIntent): Promise<void> {
      if (intent.metadata.invoice || intent.status !== 'succeeded') return
      const customer = await customerOf(intent.customer)
      const now = clockOf(customer)
      const price = await store.retrieve<GatewayPrice>(intent.metadata.price_id, 'price')
      if (!price) throw missing('price', intent.metadata.price_id)
      await makeInvoice(
        customer,
        now,
        {
          subscription: null,
          reason: 'manual',
          price: { ...price, unit_amount: intent.amount },
          period: { start: now, end: now },
          receiptEmail: intent.receipt_email,
          paid: { paymentIntent: intent.id },
        },
        `${intent.id}-invoice`,
      )
      await emit({ type: 'invoice.paid', customer: intent.customer })
    },

    /** Moves the customer's clock forward, then does what became due (renewals, retries, ends). */
    async advanceClock(customerId: string, seconds: number): Promise<number> {
      const changed = await store.change<StoredCustomer>(customerId, 'customer', (current) => ({
        ...current,
        sandbox: {
          ...current.sandbox,
          advanced_seconds: (current.sandbox?.advanced_seconds ?? 0) + seconds,
        },
      }))
      if (!changed) throw missing('customer', customerId)
      await runDue(customerId)
      return clockOf(changed)
    },

    async createSubscription(
      input: Parameters<PaymentGateway['createSubscription']>[0],
      options?: RequestOptions,
    ): Promise<GatewaySubscription> {
      const customer = await customerOf(input.customer)
      const price = await store.retrieve<GatewayPrice>(input.price, 'price')
      if (!price?.recurring || !price.active) {
        throw new GatewayError(
          'invalid_request_error',
          `The price ${input.price} is not an active recurring price.`,
        )
      }
      const method = await store.retrieve<{ customer: string | null }>(
        input.paymentMethod,
        'payment_method',
      )
      if (method?.customer !== customer.id) {
        throw new GatewayError(
          'invalid_request_error',
          `The payment method ${input.paymentMethod} does not belong to customer ${customer.id}.`,
        )
      }
      const now = clockOf(customer)
      const id = sandboxId('sub')
      const created = await store.create<StoredSubscription>(
        'subscription',
        id,
        () => ({
          id,
          object: 'subscription',
          customer: customer.id,
          status: 'incomplete',
          items: { data: [{ id: sandboxId('si'), price: price.id }] },
          billing_cycle_anchor: now,
          current_period_start: now,
          current_period_end: addMonths(now, 1),
          cancel_at_period_end: false,
          cancel_at: input.installments ? addMonths(now, input.installments) : null,
          canceled_at: null,
          ended_at: null,
          // Charges use the customer's default card, so 'make default' changes which card pays.
          default_payment_method: null,
          latest_invoice: null,
          metadata: input.metadata,
          created: now,
          sandbox: { cycle: 0, installments: input.installments, paid_installments: 0 },
        }),
        options,
      )
      // A repeated call (same key) finds the first invoice by its own key and charges it once.
      await invoicePeriod(created, 'subscription_create')
      await scheduleNext(customer.id)
      const current = await getSubscription(created.id)
      if (!current) throw missing('subscription', created.id)
      return publicSubscription(current)
    },

    async retrieveSubscription(id: string): Promise<GatewaySubscription | null> {
      const subscription = await getSubscription(id)
      return subscription ? publicSubscription(subscription) : null
    },

    async listSubscriptions(customer: string): Promise<GatewaySubscription[]> {
      return (await store.listOf<StoredSubscription>('subscription', customer)).map(
        publicSubscription,
      )
    },

    async updateSubscription(
      id: string,
      input: { cancelAtPeriodEnd: boolean },
    ): Promise<GatewaySubscription> {
      const existing = await getSubscription(id)
      if (!existing) throw missing('subscription', id)
      if (ENDED.includes(existing.status)) {
        throw new GatewayError(
          'invalid_request_error',
          'A canceled subscription can only update its cancellation details and metadata.',
        )
      }
      if (isScheduled(existing)) {
        throw new GatewayError(
          'invalid_request_error',
          'A plan paid in installments ends by its schedule: its cancellation cannot be changed.',
        )
      }
      const now = clockOf(await customerOf(existing.customer))
      const updated = await changeSubscription(id, (current) => ({
        ...current,
        cancel_at_period_end: input.cancelAtPeriodEnd,
        canceled_at: input.cancelAtPeriodEnd ? now : null,
      }))
      await emit({ type: 'customer.subscription.updated', customer: updated.customer })
      await scheduleNext(updated.customer)
      return publicSubscription(updated)
    },

    async pauseSubscription(id: string): Promise<GatewaySubscription> {
      const existing = await getSubscription(id)
      if (!existing) throw missing('subscription', id)
      if (isScheduled(existing)) {
        throw new GatewayError(
          'invalid_request_error',
          'Cannot pause subscriptions with attached schedules.',
        )
      }
      if (existing.status === 'paused') return publicSubscription(existing)
      if (existing.status !== 'active') {
        throw new GatewayError(
          'invalid_request_error',
          `Only an active subscription can be paused; this one is ${existing.status}.`,
        )
      }
      const paused = await changeSubscription(id, (current) =>
        current.status === 'active' ? { ...current, status: 'paused' } : current,
      )
      await emit({ type: 'customer.subscription.paused', customer: paused.customer })
      await scheduleNext(paused.customer)
      return publicSubscription(paused)
    },

    /**
     * Resumes as Stripe's resume is asked (`billingCycleAnchor`): `unchanged` goes on with the
     * plan's months, moved on to the one around now if the month paid for is over, charging
     * nothing (no prorations); `now` starts a new month now and charges it, the plan paused
     * until that is paid. Not asked (the contract's call), it chooses as the app does: unchanged
     * within the month paid for, now after it.
     */
    async resumeSubscription(
      id: string,
      options?: RequestOptions & { billingCycleAnchor?: 'now' | 'unchanged' },
    ): Promise<GatewaySubscription> {
      const existing = await getSubscription(id)
      if (!existing) throw missing('subscription', id)
      if (existing.status !== 'paused') {
        throw new GatewayError(
          'invalid_request_error',
          `Only a paused subscription can be resumed; this one is ${existing.status}.`,
        )
      }
      const now = clockOf(await customerOf(existing.customer))
      const latest = existing.latest_invoice ? await getInvoice(existing.latest_invoice) : null
      // Already resuming: its charge decides, and a second request changes nothing.
      if (latest?.status === 'open') return publicSubscription(existing)
      const anchor =
        options?.billingCycleAnchor ?? (now < existing.current_period_end ? 'unchanged' : 'now')
      if (anchor === 'unchanged') {
        // The period around now, counted from the anchor: the one it was in while the month
        // paid for lasts. A later one is marked invoiced, so nothing is charged for it.
        let cycle = existing.sandbox.cycle
        while (addMonths(existing.billing_cycle_anchor, cycle + 1) <= now) cycle += 1
        const resumed = await changeSubscription(id, (current) => {
          if (current.status !== 'paused') return current
          if (cycle === current.sandbox.cycle) return { ...current, status: 'active' }
          const start = addMonths(current.billing_cycle_anchor, cycle)
          return {
            ...current,
            status: 'active',
            current_period_start: start,
            current_period_end: addMonths(current.billing_cycle_anchor, cycle + 1),
            sandbox: { ...current.sandbox, cycle, invoiced: start },
          }
        })
        await emit({ type: 'customer.subscription.resumed', customer: resumed.customer })
        await scheduleNext(resumed.customer)
        return publicSubscription(resumed)
      }
      // A new month starts now and is charged; paid, the plan is active again (so a pause never
      // gives a month away).
      const restarted = await changeSubscription(id, (current) => ({
        ...current,
        billing_cycle_anchor: now,
        current_period_start: now,
        current_period_end: addMonths(now, 1),
        sandbox: { ...current.sandbox, cycle: 0 },
      }))
      await invoicePeriod(restarted, 'subscription_update')
      await scheduleNext(restarted.customer)
      return publicSubscription((await getSubscription(id)) ?? restarted)
    },

    /** `prorationDate` counts the unused time from that moment instead of now (Stripe's). */
    async previewUpgrade(id: string, input: { price: string; prorationDate?: number }) {
      const { subscription, price, now } = await upgradeTarget(id, input.price)
      const credit = await unusedCredit(subscription, input.prorationDate ?? now, price.unit_amount)
      return {
        amount: price.unit_amount,
        credit: credit.amount,
        total: price.unit_amount + credit.amount,
      }
    },

    async upgradeSubscription(
      id: string,
      input: { price: string; installments: number | null },
      options?: RequestOptions,
    ): Promise<GatewayInvoice> {
      const existing = await getSubscription(id)
      if (
        input.installments &&
        existing &&
        !ENDED.includes(existing.status) &&
        existing.items.data[0]?.price === input.price
      ) {
        // Already moved to the price (the upgrade's calls through the server stopped before
        // its end): only the end is given, and nothing is invoiced again.
        return finishInstallments(existing, input.installments)
      }
      const { subscription, price, customer, now } = await upgradeTarget(id, input.price)
      const credit = await unusedCredit(subscription, now, price.unit_amount)
      const key = options?.idempotencyKey ?? `${id}-upgrade-${now}`
      if (!price.recurring) {
        // ONE PAYMENT: an invoice of its own, marked as ending the plan; the plan runs on until
        // the app ends it (as Stripe knows nothing of the mark).
        const invoice = await oneTimeInvoice(
          customer,
          now,
          { price, credit, endsSubscription: id },
          key,
        )
        if (invoice.attempt_count === 0) {
          await attempt(invoice, customer.invoice_settings.default_payment_method)
        }
        return (await getInvoice(invoice.id)) ?? invoice
      }
      // FOUR PAYMENTS: the months start again today on the new price, the credit on its first.
      const moved = await changeSubscription(id, (current) => ({
        ...current,
        items: { data: [{ id: current.items.data[0]?.id ?? sandboxId('si'), price: price.id }] },
        metadata: { ...current.metadata, plan: price.metadata.plan, price_id: price.id },
        billing_cycle_anchor: now,
        current_period_start: now,
        current_period_end: addMonths(now, 1),
        cancel_at_period_end: false,
        canceled_at: null,
        cancel_at: input.installments ? addMonths(now, input.installments) : null,
        sandbox: { cycle: 0, installments: input.installments, paid_installments: 0 },
      }))
      const invoice = await makeInvoice(
        customer,
        now,
        {
          subscription: id,
          reason: 'subscription_update',
          price,
          period: { start: now, end: moved.current_period_end },
          receiptEmail: null,
          paid: null,
          credit,
        },
        key,
      )
      await changeSubscription(id, (current) => ({
        ...current,
        latest_invoice: invoice.id,
        sandbox: { ...current.sandbox, invoiced: now },
      }))
      if (invoice.attempt_count === 0) await attempt(invoice, await cardFor(moved))
      await emit({ type: 'customer.subscription.updated', customer: customer.id })
      await scheduleNext(customer.id)
      return (await getInvoice(invoice.id)) ?? invoice
    },

    /** Whether a schedule manages the plan (it is then neither paused nor cancelled by hand). */
    async isScheduled(id: string): Promise<boolean> {
      const subscription = await getSubscription(id)
      if (!subscription) throw missing('subscription', id)
      return isScheduled(subscription)
    },

    /** A schedule attached to a running plan, which goes on as it is until given an end. */
    async attachSchedule(id: string): Promise<GatewaySubscription> {
      const existing = await getSubscription(id)
      if (!existing) throw missing('subscription', id)
      if (ENDED.includes(existing.status)) {
        throw new GatewayError(
          'invalid_request_error',
          'A schedule cannot be attached to a canceled subscription.',
        )
      }
      const attached = await changeSubscription(id, (current) => ({
        ...current,
        sandbox: { ...current.sandbox, scheduled: true },
      }))
      return publicSubscription(attached)
    },

    /**
     * The schedule's one phase, from the plan's billing cycle anchor, lasts `months` and then
     * cancels the plan: FOUR PAYMENTS after an upgrade moved it to its price.
     */
    async endScheduleAfter(id: string, months: number): Promise<GatewaySubscription> {
      const existing = await getSubscription(id)
      if (!existing) throw missing('subscription', id)
      if (!isScheduled(existing)) {
        throw new GatewayError('invalid_request_error', `No schedule manages ${id}.`)
      }
      const ended = await changeSubscription(id, (current) => ({
        ...current,
        cancel_at: addMonths(current.billing_cycle_anchor, months),
        sandbox: { ...current.sandbox, installments: months },
      }))
      await emit({ type: 'customer.subscription.updated', customer: ended.customer })
      await scheduleNext(ended.customer)
      return publicSubscription(ended)
    },

    /**
     * A draft finalized: an open, numbered invoice of the price less a credit, under the draft's
     * id, that is charged only when paid. An invoice that ends a plan (ONE PAYMENT bought as an
     * upgrade) ends it once paid, and is voided if its charge is refused.
     */
    async issueInvoice(
      input: {
        id: string
        customer: string
        price: string
        credit: {
          amount: number
          description: string
          period: { start: number; end: number }
        } | null
        endsSubscription: string | null
      },
      options: RequestOptions,
    ): Promise<GatewayInvoice> {
      const customer = await customerOf(input.customer)
      const price = await store.retrieve<GatewayPrice>(input.price, 'price')
      if (!price?.active) throw missing('price', input.price)
      if (input.endsSubscription) {
        const ended = await getSubscription(input.endsSubscription)
        if (ended?.customer !== customer.id || ENDED.includes(ended.status)) {
          throw new GatewayError(
            'invalid_request_error',
            `The invoice cannot end ${input.endsSubscription}: it is not a running plan of this customer.`,
          )
        }
      }
      const now = clockOf(customer)
      const invoice = await oneTimeInvoice(
        customer,
        now,
        { price, credit: input.credit, endsSubscription: input.endsSubscription },
        options.idempotencyKey ?? `${input.id}-finalize`,
        input.id,
      )
      await emit({ type: 'invoice.finalized', customer: customer.id })
      return invoice
    },

    /** Voids an open invoice (a charge of it still with the bank is cancelled). */
    async voidOpenInvoice(id: string): Promise<GatewayInvoice> {
      const invoice = await getInvoice(id)
      if (!invoice) throw missing('invoice', id)
      if (invoice.status !== 'open' && invoice.status !== 'void') {
        throw new GatewayError('invoice_not_open', `Invoice ${id} is ${invoice.status}.`)
      }
      await voidInvoice(id, clockOf(await customerOf(invoice.customer)))
      await emit({ type: 'invoice.voided', customer: invoice.customer })
      return (await getInvoice(id)) ?? invoice
    },

    /** Ends a plan now, crediting nothing: what it still had was credited on the invoice that replaced it. */
    async cancelSubscription(id: string): Promise<GatewaySubscription> {
      const existing = await getSubscription(id)
      if (!existing) throw missing('subscription', id)
      if (!ENDED.includes(existing.status)) {
        await end(existing, clockOf(await customerOf(existing.customer)))
        await scheduleNext(existing.customer)
      }
      return publicSubscription((await getSubscription(id)) ?? existing)
    },

    retrieveInvoice: getInvoice,

    listInvoices: (customer: string) => store.listOf<GatewayInvoice>('invoice', customer),

    async payInvoice(id: string, { paymentMethod }: { paymentMethod: string }) {
      const invoice = await getInvoice(id)
      if (!invoice) throw missing('invoice', id)
      if (invoice.status !== 'open') {
        throw new GatewayError('invoice_not_open', `Invoice ${id} is ${invoice.status}.`)
      }
      await attempt(invoice, paymentMethod, { manual: true })
      const current = await getInvoice(id)
      if (!current) throw missing('invoice', id)
      return current
    },
  }
}
