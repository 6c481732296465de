import { randomUUID } from 'node:crypto'
import Stripe from 'stripe'
import { STRIPE_API_VERSION, verifyEvent } from './events'
import {
  type CardField,
  type GatewayAddress,
  GatewayError,
  type GatewayInvoice,
  type GatewayPaymentIntent,
  type GatewayPaymentMethod,
  type GatewayPrice,
  type GatewayRefund,
  type GatewaySubscription,
  type PaymentGateway,
  paymentIntentOfSecret,
  setupIntentOfSecret,
} from './gateway'
import { canonical, derivedKey } from './idempotency'
import { stripeTestClocks } from './stripe-clocks'
import {
  idOf,
  toCustomer,
  toInvoice,
  toPaymentIntent,
  toPaymentMethod,
  toPrice,
  toProduct,
  toRefund,
  toSetupIntent,
  toSubscription,
} from './stripe-objects'
import {
  addressOf,
  asGatewayError,
  call,
  isLoopback,
  orNull,
  postUnderDerivedKey,
} from './stripe-requests'

// The gateway that talks to Stripe through its official SDK, pinned to the API version the app
// is written against. The sandbox's HTTP server speaks the same API on loopback (apiUrl), so the
// code that takes real money is the code that runs in sandbox mode.
//
// Every POST carries an idempotency key: the caller's when it keeps a record of the attempt,
// otherwise one made from the call itself (idempotency.ts), so that a retry is done once.

export interface StripeGatewayOptions {
  secretKey: string
  /** The webhook endpoint's signing secret (`whsec_…`). */
  webhookSecret: string
  /** Where the API answers when it is not Stripe's own: the sandbox's `http://127.0.0.1:<port>`. */
  apiUrl?: string
  /**
   * With an apiUrl on this machine (the sandbox's server): a card field that posts the numbers
   * with this key, as Stripe.js does from the browser. Against Stripe itself the card field is
   * Stripe's own and this is unused.
   */
  publishableKey?: string
  /**
   * Test mode: each customer is made on a test clock of its own, which `testClocks` moves (the
   * operator's `billing advance`). Off in live mode, where `testClocks` is null.
   */
  testClocks?: boolean
  /**
   * `sandbox` when the API is the sandbox's server (no real money, and the screens say so);
   * `stripe` otherwise.
   */
  kind?: PaymentGateway['kind']
}

const sameAddress = (a: GatewayAddress | null, b: GatewayAddress) =>
  JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))

/** Our charges in a list; charges made outside the app in other currencies are left out. */
const ourPayments = (intents: Stripe.PaymentIntent[]) =>
  intents.map(toPaymentIntent).filter((intent): intent is GatewayPaymentIntent => intent !== null)

export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const stripe = new Stripe(options.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(options.apiUrl ? addressOf(options.apiUrl) : {}),
  })

  const clocks = options.testClocks ? stripeTestClocks(stripe) : null

  const retrievePrice = (id: string) => stripe.prices.retrieve(id)

  async function retrieveCustomer(id: string): Promise<Stripe.Customer | null> {
    const customer = await orNull(() => stripe.customers.retrieve(id))
    return customer && !customer.deleted ? customer : null
  }

  /** A plan with its schedule, whose end is FOUR PAYMENTS' last day. */
  const retrieveSubscription = (id: string) =>
    orNull(() => stripe.subscriptions.retrieve(id, { expand: ['schedule'] }))

  async function subscriptionOf(id: string): Promise<Stripe.Subscription> {
    const subscription = await retrieveSubscription(id)
    if (!subscription) throw new GatewayError('resource_missing', `No such subscription: '${id}'`)
    return subscription
  }

  const ourSubscription = (subscription: Stripe.Subscription): GatewaySubscription =>
    mustBeOurs(toSubscription(subscription), subscription.id)

  /** An invoice with the charges that tried to pay it, which tell a plan's charge apart. */
  const retrieveInvoice = (id: string) =>
    orNull(() => stripe.invoices.retrieve(id, { expand: ['payments'] }))

  /**
   * The invoice an upgrade would make now, as it will be made: to a monthly price, the item
   * moved now with its months starting again; to a one-time price, the plan cancelled now with
   * its unused time credited, and the price invoiced. `prorationDate` credits the time unused
   * from that moment rather than from now.
   */
  async function previewOf(
    id: string,
    price: string,
    prorationDate?: number,
  ): Promise<Stripe.Invoice> {
    const subscription = await subscriptionOf(id)
    const item = subscription.items.data[0]
    if (!item) throw new Error(`Stripe answered the subscription ${id} without its item.`)
    const target = await call(() => retrievePrice(price))
    const customer = idOf(subscription.customer) ?? ''
    const params: Stripe.InvoiceCreatePreviewParams = target.recurring
      ? {
          customer,
          subscription: id,
          subscription_details: {
            items: [{ id: item.id, price }],
            proration_behavior: 'always_invoice',
            billing_cycle_anchor: { type: 'now' },
          },
        }
      : {
          customer,
          subscription: id,
          subscription_details: {
            cancel_now: true,
            proration_behavior: 'create_prorations',
            ...(prorationDate === undefined ? {} : { proration_date: prorationDate }),
          },
          invoice_items: [{ price }],
        }
    // A preview changes nothing and depends on the moment: each is a new request, never
    // answered from an earlier one's record.
    return call(() =>
      stripe.invoices.createPreview(params, { idempotencyKey: `preview-${id}-${randomUUID()}` }),
    )
  }

  /**
   * ONE PAYMENT bought as an upgrade: an invoice of the price less the plan's unused time,
   * finalized and charged now, marked as ending the plan. Stripe knows nothing of that mark: the
   * app's sync ends the plan once the invoice is paid, or voids the invoice if it was refused,
   * whenever the bank answers. Each step under a key made from `base`, the caller's record.
   */
  async function upgradeToOneTime(
    current: Stripe.Subscription,
    price: string,
    base: string,
  ): Promise<GatewayInvoice> {
    const id = current.id
    const customer = idOf(current.customer) ?? ''
    const draft = await call(() =>
      stripe.invoices.create(
        {
          customer,
          collection_method: 'charge_automatically',
          auto_advance: false,
          pending_invoice_items_behavior: 'exclude',
          metadata: { user_id: current.metadata.user_id ?? '', ends_subscription: id },
        },
        { idempotencyKey: `${base}-invoice` },
      ),
    )
    const invoiceId = draft.id ?? ''
    // The unused time as of the draft's making, not of this call: a retry of the attempt (the
    // same draft, answered from its key) then sends the same credit under the same key, where a
    // credit of the moment would differ and Stripe would refuse the key.
    const preview = await previewOf(id, price, draft.created)
    const credit = preview.lines.data.find((line) => line.amount < 0)
    const charged = preview.lines.data.find((line) => line.amount > 0)?.amount ?? 0
    await call(() =>
      stripe.invoiceItems.create(
        { customer, invoice: invoiceId, pricing: { price } },
        { idempotencyKey: `${base}-price` },
      ),
    )
    if (credit) {
      await call(() =>
        stripe.invoiceItems.create(
          {
            customer,
            invoice: invoiceId,
            // Never more than the price: the invoice pays for ONE PAYMENT and pays nobody back.
            amount: Math.max(credit.amount, -charged),
            currency: 'usd',
            description: credit.description ?? 'Unused time',
            period: { start: credit.period.start, end: credit.period.end },
          },
          { idempotencyKey: `${base}-credit` },
        ),
      )
    }
    await call(() =>
      stripe.invoices.finalizeInvoice(
        invoiceId,
        { auto_advance: false },
        { idempotencyKey: `${base}-finalize` },
      ),
    )
    try {
      // The member is present (paying an invoice is off session unless told otherwise): the
      // bank may ask for its check, which their page then runs.
      await stripe.invoices.pay(
        invoiceId,
        { off_session: false },
        { idempotencyKey: `${base}-pay` },
      )
    } catch (error) {
      if (!refusedOrWaiting(error)) throw asGatewayError(error)
    }
    const final = await retrieveInvoice(invoiceId)
    return mustBeOurs(final && toInvoice(final), invoiceId)
  }

  const publishableKey = options.publishableKey
  // Only toward the sandbox on this machine: against Stripe, card numbers go from the browser
  // to Stripe's own field and never pass through our server.
  const cardField: CardField | null =
    options.kind === 'sandbox' && options.apiUrl && publishableKey && isLoopback(options.apiUrl)
      ? {
          async createCardPaymentMethod({ number, expMonth, expYear, cvc }) {
            const method = await call(() =>
              stripe.paymentMethods.create(
                { type: 'card', card: { number, exp_month: expMonth, exp_year: expYear, cvc } },
                // Never a key made from the card: a digest of a card number is undone by trying
                // the numbers of its brand. Each card typed is a new attempt.
                { apiKey: publishableKey, idempotencyKey: `card-${randomUUID()}` },
              ),
            )
            return toPaymentMethod(method)
          },
          // As Stripe.js answers the bank's page: the publishable key and the setup's secret.
          async authenticateCardSetup({ clientSecret, outcome }) {
            const intent = await call(() =>
              stripe.rawRequest(
                'POST',
                `/v1/setup_intents/${setupIntentOfSecret(clientSecret)}/authenticate`,
                { client_secret: clientSecret, outcome },
                { apiKey: publishableKey, idempotencyKey: `card-check-${randomUUID()}` },
              ),
            )
            return toSetupIntent(intent as Stripe.SetupIntent)
          },
          async authenticateCardPayment({ clientSecret, outcome }) {
            const id = paymentIntentOfSecret(clientSecret)
            const intent = await call(() =>
              stripe.rawRequest(
                'POST',
                `/v1/payment_intents/${id}/authenticate`,
                { client_secret: clientSecret, outcome },
                { apiKey: publishableKey, idempotencyKey: `payment-check-${randomUUID()}` },
              ),
            )
            return mustBeOurs(toPaymentIntent(intent as Stripe.PaymentIntent), id)
          },
        }
      : null

  return {
    kind: options.kind ?? 'stripe',
    cardField,
    publishableKey: cardField ? null : (publishableKey ?? null),
    testClocks: clocks?.testClocks ?? null,

    retrieveProduct: async (id) => {
      const product = await orNull(() => stripe.products.retrieve(id))
      return product ? toProduct(product) : null
    },

    async createProduct({ id, name }, requestOptions) {
      const idempotencyKey = requestOptions?.idempotencyKey ?? derivedKey('product', id, { name })
      return toProduct(await call(() => stripe.products.create({ id, name }, { idempotencyKey })))
    },

    async createPrice({ product, nickname, unitAmount, currency, plan }, requestOptions) {
      const params: Stripe.PriceCreateParams = {
        product,
        nickname,
        unit_amount: unitAmount,
        currency,
        ...(plan === 'one_payment' ? {} : { recurring: { interval: 'month' } }),
        metadata: { plan },
      }
      const send = (idempotencyKey: string) => stripe.prices.create(params, { idempotencyKey })
      const key = requestOptions?.idempotencyKey
      // A price made again with the same parameters after the first was archived is a new
      // price on sale, not the archived one.
      const price = key
        ? await call(() => send(key))
        : await postUnderDerivedKey(derivedKey('price', product, params), send, async (made) => {
            const now = await retrievePrice(made.id)
            return now.active ? now : null
          })
      return mustBeOurs(toPrice(price), price.id)
    },

    async updatePrice(id, { active }) {
      try {
        const price = await postUnderDerivedKey(
          derivedKey('price-update', id, { active }),
          (idempotencyKey) => stripe.prices.update(id, { active }, { idempotencyKey }),
          async () => {
            const now = await retrievePrice(id)
            return now.active === active ? now : null
          },
        )
        return mustBeOurs(toPrice(price), id)
      } catch (error) {
        if (error instanceof GatewayError && error.code === 'resource_missing') return null
        throw error
      }
    },

    async listPrices(product) {
      const prices: GatewayPrice[] = []
      await call(async () => {
        for await (const price of stripe.prices.list({ product, limit: 100 })) {
          const ours = toPrice(price)
          if (ours) prices.push(ours)
        }
      })
      return prices
    },

    async createCustomer({ email, name, userId }, requestOptions) {
      // On a clock of its own from the start: Stripe puts a customer on a clock only when it is
      // made.
      const testClock = clocks ? await clocks.clockFor(userId) : undefined
      const params: Stripe.CustomerCreateParams = {
        email,
        name,
        metadata: { user_id: userId },
        ...(testClock ? { test_clock: testClock } : {}),
      }
      const idempotencyKey =
        requestOptions?.idempotencyKey ?? derivedKey('customer', userId, params)
      return toCustomer(await call(() => stripe.customers.create(params, { idempotencyKey })))
    },

    async retrieveCustomer(id) {
      const customer = await retrieveCustomer(id)
      return customer ? toCustomer(customer) : null
    },

    async deleteCustomer(id) {
      await orNull(() => stripe.customers.del(id))
    },

    async updateCustomer(id, input) {
      const { address, defaultPaymentMethod } = input
      const params: Stripe.CustomerUpdateParams = {
        ...(input.email === undefined ? {} : { email: input.email }),
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(address
          ? {
              // An empty string clears a field in Stripe's API; null is not sent.
              address: {
                line1: address.line1,
                line2: address.line2 ?? '',
                city: address.city ?? '',
                state: address.state ?? '',
                postal_code: address.postal_code,
                country: address.country,
              },
            }
          : {}),
        ...(defaultPaymentMethod === undefined
          ? {}
          : { invoice_settings: { default_payment_method: defaultPaymentMethod ?? '' } }),
      }
      const asAsked = (customer: Stripe.Customer) => {
        const now = toCustomer(customer)
        return (
          (input.email === undefined || now.email === input.email) &&
          (input.name === undefined || now.name === input.name) &&
          (!address || sameAddress(now.address, address)) &&
          (defaultPaymentMethod === undefined ||
            now.invoice_settings.default_payment_method === defaultPaymentMethod)
        )
      }
      const customer = await postUnderDerivedKey(
        derivedKey('customer-update', id, params),
        (idempotencyKey) => stripe.customers.update(id, params, { idempotencyKey }),
        async () => {
          const now = await retrieveCustomer(id)
          return now && asAsked(now) ? now : null
        },
      )
      return toCustomer(customer)
    },

    async retrievePaymentMethod(id) {
      const method = await orNull(() => stripe.paymentMethods.retrieve(id))
      return method ? toPaymentMethod(method) : null
    },

    async attachPaymentMethod(id, { customer, cardType }) {
      const attachedTo = async () => {
        const now = await stripe.paymentMethods.retrieve(id)
        return idOf(now.customer) === customer ? now : null
      }
      let attached: Stripe.PaymentMethod
      try {
        attached = await postUnderDerivedKey(
          derivedKey('card-attach', id, { customer }),
          (idempotencyKey) => stripe.paymentMethods.attach(id, { customer }, { idempotencyKey }),
          attachedTo,
        )
      } catch (error) {
        // Already saved to this customer (by the setup that checked it): nothing to do, whatever
        // Stripe says of attaching it again.
        const now = error instanceof GatewayError ? await call(attachedTo) : null
        if (!now) throw error
        attached = now
      }
      if (!cardType) return toPaymentMethod(attached)
      // Stripe's attach takes no metadata: the card type the member chose is set right after.
      const metadata = { card_type: cardType }
      const typed = await postUnderDerivedKey(
        derivedKey('card-type', id, metadata),
        (idempotencyKey) => stripe.paymentMethods.update(id, { metadata }, { idempotencyKey }),
        async () => {
          const now = await stripe.paymentMethods.retrieve(id)
          return now.metadata?.card_type === cardType ? now : null
        },
      )
      return toPaymentMethod(typed)
    },

    async detachPaymentMethod(id) {
      const detached = await postUnderDerivedKey(
        derivedKey('card-detach', id, {}),
        (idempotencyKey) => stripe.paymentMethods.detach(id, {}, { idempotencyKey }),
        async () => {
          const now = await stripe.paymentMethods.retrieve(id)
          return now.customer === null ? now : null
        },
      )
      return toPaymentMethod(detached)
    },

    async listPaymentMethods(customer) {
      const methods: GatewayPaymentMethod[] = []
      try {
        await call(async () => {
          for await (const method of stripe.customers.listPaymentMethods(customer, {
            type: 'card',
            limit: 100,
          })) {
            methods.push(toPaymentMethod(method))
          }
        })
      } catch (error) {
        // A customer that is not there has no cards, as the sandbox answers.
        if (error instanceof GatewayError && error.code === 'resource_missing') return []
        throw error
      }
      return methods
    },

    async createSetupIntent({ customer, paymentMethod }, requestOptions) {
      const params: Stripe.SetupIntentCreateParams = {
        customer,
        // Saved for the plan's charges made while the member is away (renewals, retries), so
        // the bank asks for any authentication now, in the page, rather than at a renewal.
        usage: 'off_session',
        allowed_payment_method_types: ['card'],
        // Confirmed here: the bank's check, if it asks for one, is left for Stripe.js to run
        // in the page (handleNextAction with the intent's secret).
        ...(paymentMethod
          ? { payment_method: paymentMethod, confirm: true, use_stripe_sdk: true }
          : {}),
      }
      const intent = await call(() =>
        stripe.setupIntents.create(params, {
          // Each card the member types is a new attempt: never answered from an earlier one.
          idempotencyKey: requestOptions?.idempotencyKey ?? `setup-${customer}-${randomUUID()}`,
        }),
      )
      return toSetupIntent(intent)
    },

    async retrieveSetupIntent(id) {
      const intent = await orNull(() => stripe.setupIntents.retrieve(id))
      return intent && toSetupIntent(intent)
    },

    async createPaymentIntent(input, requestOptions) {
      const params: Stripe.PaymentIntentCreateParams = {
        amount: input.amount,
        currency: input.currency,
        customer: input.customer,
        payment_method: input.paymentMethod,
        allowed_payment_method_types: ['card'],
        confirm: true,
        // Confirmed here, where every try is counted; when the bank asks the member to confirm
        // the payment (3-D Secure) it waits in requires_action, and Stripe.js's
        // handleNextAction runs the check in the page.
        use_stripe_sdk: true,
        ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
        metadata: { ...input.metadata },
      }
      const idempotencyKey =
        requestOptions?.idempotencyKey ?? derivedKey('payment', input.customer, params)
      try {
        const intent = await stripe.paymentIntents.create(params, { idempotencyKey })
        return mustBeOurs(toPaymentIntent(intent), intent.id)
      } catch (error) {
        // A card refused at confirmation is a 402 that carries the payment as it now is.
        if (error instanceof Stripe.errors.StripeCardError && error.payment_intent) {
          return mustBeOurs(toPaymentIntent(error.payment_intent), error.payment_intent.id)
        }
        throw asGatewayError(error)
      }
    },

    async retrievePaymentIntent(id) {
      const intent = await orNull(() => stripe.paymentIntents.retrieve(id))
      return intent && mustBeOurs(toPaymentIntent(intent), id)
    },

    async cancelPaymentIntent(id, requestOptions) {
      const intent = await call(() =>
        stripe.paymentIntents.cancel(
          id,
          { cancellation_reason: 'abandoned' },
          { idempotencyKey: requestOptions?.idempotencyKey ?? `cancel-${id}` },
        ),
      )
      return mustBeOurs(toPaymentIntent(intent), id)
    },

    async listPaymentIntents(customer) {
      const intents: Stripe.PaymentIntent[] = []
      await call(async () => {
        for await (const intent of stripe.paymentIntents.list({ customer, limit: 100 })) {
          intents.push(intent)
        }
      })
      return ourPayments(intents)
    },

    async createSubscription(input, requestOptions) {
      // No card of its own: Stripe then charges the customer's default card, so the renewals
      // and retries follow the card the member makes the default, with nothing to keep in step.
      const metadata = { ...input.metadata }
      if (input.installments) {
        // FOUR PAYMENTS: one phase of that many months, then the plan is cancelled (Stripe
        // removed the phase's iterations; duration replaces them).
        const params: Stripe.SubscriptionScheduleCreateParams = {
          customer: input.customer,
          start_date: 'now',
          end_behavior: 'cancel',
          billing_mode: { type: 'flexible' },
          phases: [
            {
              items: [{ price: input.price }],
              duration: { interval: 'month', interval_count: input.installments },
              metadata,
            },
          ],
        }
        const idempotencyKey =
          requestOptions?.idempotencyKey ?? derivedKey('schedule', input.customer, params)
        const schedule = await call(() =>
          stripe.subscriptionSchedules.create(params, { idempotencyKey }),
        )
        const id = idOf(schedule.subscription)
        if (!id) throw new Error(`Stripe made the schedule ${schedule.id} without a subscription.`)
        return ourSubscription(await subscriptionOf(id))
      }
      const params: Stripe.SubscriptionCreateParams = {
        customer: input.customer,
        items: [{ price: input.price }],
        // Made at once and incomplete until its first invoice is paid, which is charged now,
        // with the member present: a bank may ask for its check, which their page then runs.
        payment_behavior: 'allow_incomplete',
        // Pausing needs the flexible billing mode.
        billing_mode: { type: 'flexible' },
        metadata,
      }
      const idempotencyKey =
        requestOptions?.idempotencyKey ?? derivedKey('subscription', input.customer, params)
      return ourSubscription(
        await call(() => stripe.subscriptions.create(params, { idempotencyKey })),
      )
    },

    async retrieveSubscription(id) {
      const subscription = await retrieveSubscription(id)
      return subscription ? toSubscription(subscription) : null
    },

    async listSubscriptions(customer) {
      const plans: GatewaySubscription[] = []
      await call(async () => {
        for await (const subscription of stripe.subscriptions.list({
          customer,
          status: 'all',
          limit: 100,
          expand: ['data.schedule'],
        })) {
          const ours = toSubscription(subscription)
          if (ours) plans.push(ours)
        }
      })
      return plans
    },

    async updateSubscription(id, { cancelAtPeriodEnd }) {
      const params = { cancel_at_period_end: cancelAtPeriodEnd }
      const updated = await postUnderDerivedKey(
        derivedKey('subscription-cancel', id, params),
        (idempotencyKey) => stripe.subscriptions.update(id, params, { idempotencyKey }),
        async () => {
          const now = await retrieveSubscription(id)
          return now?.cancel_at_period_end === cancelAtPeriodEnd ? now : null
        },
      )
      return ourSubscription(updated)
    },

    async pauseSubscription(id) {
      const current = await subscriptionOf(id)
      if (current.status === 'paused') return ourSubscription(current)
      // Nothing credited: resumed within the month paid for, the plan uses the rest of it.
      const params: Stripe.SubscriptionPauseParams = {
        type: 'subscription',
        bill_for: { unused_time_from: { type: 'none' } },
      }
      const paused = await postUnderDerivedKey(
        derivedKey('subscription-pause', id, params),
        (idempotencyKey) => stripe.subscriptions.pause(id, params, { idempotencyKey }),
        async () => {
          const now = await retrieveSubscription(id)
          return now?.status === 'paused' ? now : null
        },
      )
      return ourSubscription(paused)
    },

    async resumeSubscription(id, requestOptions) {
      const current = await subscriptionOf(id)
      const plan = ourSubscription(current)
      // The customer's time, which on a test clock is the clock's, not ours.
      const now = clocks ? await clocks.nowOf(plan.customer) : Math.floor(Date.now() / 1000)
      const params: Stripe.SubscriptionResumeParams = {
        // Within the month paid for it goes on; after it a new month starts now and is charged.
        billing_cycle_anchor: { type: now < plan.current_period_end ? 'unchanged' : 'now' },
        proration_behavior: 'none',
        // Paused (no sessions) until that charge succeeds, which Stripe retries if refused.
        payment_behavior: 'resume_on_payment_success',
      }
      const send = (idempotencyKey: string) =>
        stripe.subscriptions.resume(id, params, { idempotencyKey })
      const key = requestOptions?.idempotencyKey
      const resumed = key
        ? await call(() => send(key))
        : await postUnderDerivedKey(
            derivedKey('subscription-resume', id, params),
            send,
            async () => {
              // A replay counts if this pause was resumed: running again, or charging a new month.
              const now = await retrieveSubscription(id)
              const resuming = now && idOf(now.latest_invoice) !== idOf(current.latest_invoice)
              return now && (now.status !== 'paused' || resuming) ? now : null
            },
          )
      return ourSubscription(resumed)
    },

    async previewUpgrade(id, { price }) {
      const preview = await previewOf(id, price)
      // Two lines at most (the new price, the unused time), all on the preview's first page.
      let amount = 0
      let credit = 0
      for (const line of preview.lines.data) {
        if (line.amount < 0) credit += line.amount
        else amount += line.amount
      }
      return { amount, credit, total: amount + credit }
    },
    async upgradeSubscription(id, { price, installments }, requestOptions) {
      const current = await subscriptionOf(id)
      const item = current.items.data[0]
      if (!item) throw new Error(`Stripe answered the subscription ${id} without its item.`)
      const target = await call(() => retrievePrice(price))
      // Each step under a key made from the caller's record of the upgrade, so a retry after a
      // time-out or a crash does each step once.
      const base =
        requestOptions?.idempotencyKey ?? derivedKey('upgrade', id, { price, installments })
      if (!target.recurring) return upgradeToOneTime(current, price, base)
      const plan = toPrice(target)?.metadata.plan
      if (plan !== 'subscription' && plan !== 'four_payments') {
        throw new GatewayError('resource_missing', `No monthly plan is sold at ${price}.`)
      }
      const user = current.metadata.user_id ?? ''
      const metadata = { plan, user_id: user, price_id: price }
      // Already on the price: this upgrade was made before and stopped before its end (a crash
      // between its calls), and is asked again, by a retry or by billing's sync. Moved again,
      // the plan's months would start again and be charged a second time: only what is left is
      // done.
      const moved =
        item.price.id === price
          ? current
          : // The item moves to the new price now; its months start again today, and the price
            // less the unused time is invoiced and charged at once.
            await call(() =>
              stripe.subscriptions.update(
                id,
                {
                  items: [{ id: item.id, price }],
                  proration_behavior: 'always_invoice',
                  billing_cycle_anchor: { type: 'now' },
                  payment_behavior: 'allow_incomplete',
                  metadata,
                },
                { idempotencyKey: `${base}-move` },
              ),
            )
      if (installments) {
        // FOUR PAYMENTS: a schedule attached to the plan keeps it so for that many months,
        // counted from the move, and then cancels it. Until it is given that end the plan is
        // on a monthly price with no end, so billing's sync finishes an upgrade that stopped
        // here (customers.ts).
        const attached = typeof current.schedule === 'string' ? null : current.schedule
        const schedule =
          attached ??
          (await call(() =>
            stripe.subscriptionSchedules.create(
              { from_subscription: id },
              { idempotencyKey: `${base}-schedule` },
            ),
          ))
        const start = schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date
        if (start === undefined) throw new Error(`Stripe made ${schedule.id} without a phase.`)
        if (schedule.end_behavior !== 'cancel') {
          await call(() =>
            stripe.subscriptionSchedules.update(
              schedule.id,
              {
                end_behavior: 'cancel',
                proration_behavior: 'none',
                phases: [
                  {
                    items: [{ price }],
                    start_date: start,
                    duration: { interval: 'month', interval_count: installments },
                    metadata,
                  },
                ],
              },
              { idempotencyKey: `${base}-end` },
            ),
          )
        }
      }
      const invoiceId = idOf(moved.latest_invoice)
      const invoice = invoiceId ? await retrieveInvoice(invoiceId) : null
      if (!invoice) throw new Error(`Stripe moved ${id} without invoicing the move.`)
      return mustBeOurs(toInvoice(invoice), invoice.id)
    },
    async cancelSubscription(id) {
      // A DELETE: Stripe takes no idempotency key for it, and a second one answers the plan
      // as it ended.
      const current = await subscriptionOf(id)
      if (current.status === 'canceled' || current.status === 'incomplete_expired') {
        return ourSubscription(current)
      }
      return ourSubscription(
        await call(() => stripe.subscriptions.cancel(id, { prorate: false, invoice_now: false })),
      )
    },

    async voidInvoice(id) {
      const voided = await postUnderDerivedKey(
        derivedKey('invoice-void', id, {}),
        (idempotencyKey) => stripe.invoices.voidInvoice(id, {}, { idempotencyKey }),
        async () => {
          const now = await retrieveInvoice(id)
          return now?.status === 'void' ? now : null
        },
      )
      const invoice = await retrieveInvoice(voided.id ?? id)
      return mustBeOurs(invoice && toInvoice(invoice), id)
    },

    async retrieveInvoice(id) {
      const invoice = await retrieveInvoice(id)
      return invoice ? toInvoice(invoice) : null
    },

    async createRefund({ paymentIntent, amount, metadata }, requestOptions) {
      // Two refunds of one payment may ask the very same thing (two partial refunds of $5), so
      // a key made from the call would merge them: the caller keys each refund it means.
      const idempotencyKey = requestOptions?.idempotencyKey
      if (!idempotencyKey) throw new Error('A refund needs the idempotency key of its request.')
      const refund = await call(() =>
        stripe.refunds.create(
          {
            payment_intent: paymentIntent,
            amount,
            reason: 'requested_by_customer',
            metadata: { ...metadata },
          },
          { idempotencyKey },
        ),
      )
      return mustBeOurs(toRefund(refund), refund.id)
    },

    async listRefunds(paymentIntent) {
      const refunds: GatewayRefund[] = []
      await call(async () => {
        for await (const refund of stripe.refunds.list({
          payment_intent: paymentIntent,
          limit: 100,
        })) {
          const ours = toRefund(refund)
          if (ours) refunds.push(ours)
        }
      })
      return refunds
    },

    async listInvoices(customer) {
      const invoices: GatewayInvoice[] = []
      await call(async () => {
        for await (const invoice of stripe.invoices.list({
          customer,
          limit: 100,
          expand: ['data.payments'],
        })) {
          const ours = toInvoice(invoice)
          if (ours) invoices.push(ours)
        }
      })
      return invoices
    },

    async payInvoice(id, { paymentMethod }) {
      const before = await retrieveInvoice(id)
      if (!before) throw new GatewayError('resource_missing', `No such invoice: '${id}'`)
      // The member is present (they press Pay; paying an invoice is off session unless told
      // otherwise): the bank may ask for its check.
      const params = { payment_method: paymentMethod, off_session: false }
      // One key per try: a retry of this request is done once, a later try is a new charge.
      const idempotencyKey = derivedKey('invoice-pay', id, {
        ...params,
        attempt: before.attempt_count,
      })
      try {
        await stripe.invoices.pay(id, params, { idempotencyKey })
      } catch (error) {
        // Refused by the bank, or waiting for the member's check: the invoice stays open, with
        // that charge among its payments.
        if (!refusedOrWaiting(error)) throw asGatewayError(error)
      }
      const after = await retrieveInvoice(id)
      if (!after) throw new GatewayError('resource_missing', `No such invoice: '${id}'`)
      return mustBeOurs(toInvoice(after), id)
    },

    readEvent: (payload, signature) => verifyEvent(payload, signature, options.webhookSecret),
  }
}

/**
 * Paying an invoice answers 402 when the bank refuses the charge, and when it asks the member
 * to confirm it first (3-D Secure): either way the invoice is read again for what happened.
 */
const refusedOrWaiting = (error: unknown) =>
  error instanceof Stripe.errors.StripeCardError ||
  (error instanceof Stripe.errors.StripeError &&
    error.code === 'invoice_payment_intent_requires_action')

/** An object the app made that does not read as one of ours is a fault, not a member's error. */
function mustBeOurs<T>(object: T | null, id: string): T {
  if (object === null) throw new Error(`Stripe answered ${id} in a shape the app does not make.`)
  return object
}
