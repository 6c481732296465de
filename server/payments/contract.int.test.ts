import { randomUUID } from 'node:crypto'
import { and, count, eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import qs from 'qs'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { sandboxObjects } from '../../db/schema/billing'
import { setUpTestApp } from '../../tests/support/test-app'
import { STRIPE_API_VERSION, signEvent } from './events'
import {
  type CardField,
  type GatewayCustomer,
  GatewayError,
  type GatewayPaymentIntent,
  type GatewayPrice,
  type GatewaySetupIntent,
  type PaymentGateway,
} from './gateway'
import { createSandboxGateway } from './sandbox/gateway'
import { type SandboxServer, startSandboxServer } from './sandbox/server'
import { createStripeGateway } from './stripe'
import { addressOf } from './stripe-requests'

// The gateway contract, run twice with the same assertions: on the in-process sandbox, and on
// the Stripe gateway (the official SDK) pointed at the sandbox's Stripe-compatible server over
// loopback HTTP. What passes here for the second is what the app's Stripe code does; where the
// two differ, the sandbox's server or the Stripe gateway is wrong. The server's own rules (keys,
// version, idempotency, Stripe's errors) are tested in sandbox/server.int.test.ts.

const WEBHOOK_SECRET = 'whsec_test'
const SECRET_KEY = 'sk_test_contract0123456789'
const PUBLISHABLE_KEY = 'pk_test_contract0123456789'

const nextYear = new Date().getUTCFullYear() + 1

/** The GatewayError a call fails with: its code and the bank's reason. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(GatewayError)
  const { code, declineCode } = error as GatewayError
  return { code, declineCode }
}

interface Subject {
  gateway: PaymentGateway
  /** The sandbox's HTTP server, when the gateway talks to it. */
  server: SandboxServer | null
  /** The browser's part of saving a card: the setup intent confirmed with the typed card. */
  confirmSetup(intent: GatewaySetupIntent, number: string, clientSecret?: string): Promise<unknown>
  /** The member's answer on the bank's 3-D Secure check, in Stripe.js's frame. */
  authenticate(intent: GatewaySetupIntent, outcome: 'complete' | 'fail'): Promise<unknown>
}

const typed = (number: string) => ({ number, expMonth: 12, expYear: nextYear, cvc: '123' })

/** As Stripe.js confirms from the page: a form post with the publishable key and the secret. */
async function confirmFromPage(
  url: string,
  intent: GatewaySetupIntent,
  number: string,
  clientSecret: string,
) {
  const response = await fetch(`${url}/v1/setup_intents/${intent.id}/confirm`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'stripe-version': STRIPE_API_VERSION,
      'idempotency-key': randomUUID(),
    },
    body: qs.stringify({
      key: PUBLISHABLE_KEY,
      client_secret: clientSecret,
      payment_method_data: {
        type: 'card',
        card: { number, exp_month: 12, exp_year: nextYear, cvc: '123' },
      },
    }),
  })
  return answerOf(response)
}

async function answerOf(response: Response) {
  const body = (await response.json()) as {
    error?: { code: string; message: string; decline_code?: string }
  }
  if (body.error)
    throw new GatewayError(body.error.code, body.error.message, body.error.decline_code)
  return body
}

/** The bank's check answered in Stripe.js's frame: a form post with the publishable key. */
async function authenticateFromPage(
  url: string,
  intent: GatewaySetupIntent,
  outcome: 'complete' | 'fail',
) {
  const response = await fetch(`${url}/v1/setup_intents/${intent.id}/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: qs.stringify({ key: PUBLISHABLE_KEY, client_secret: intent.client_secret, outcome }),
  })
  return answerOf(response)
}

/** A test app for a describe block (setUpTestApp), and what `make` builds on it. */
function onTestApp(make: (app: FastifyInstance) => Promise<Subject>) {
  const testApp = setUpTestApp()
  let subject: Subject | undefined
  // After setUpTestApp's own hooks: its app exists here, and is closed after the server.
  beforeAll(async () => {
    await testApp.app.ready()
    subject = await make(testApp.app)
  })
  afterAll(async () => {
    await subject?.server?.close()
  })
  const built = (): Subject => {
    if (!subject) throw new Error('built in beforeAll; use it in a test')
    return subject
  }
  return {
    get app() {
      return testApp.app
    },
    confirmSetup: (...args: Parameters<Subject['confirmSetup']>) => built().confirmSetup(...args),
    authenticate: (...args: Parameters<Subject['authenticate']>) => built().authenticate(...args),
    get gateway() {
      return built().gateway
    },
    get server() {
      return built().server
    },
  }
}

function contractSuite(name: string, make: (app: FastifyInstance) => Promise<Subject>) {
  describe(`the gateway contract: ${name}`, () => {
    const subject = onTestApp(make)
    const gateway = () => subject.gateway
    /** Letters and digits only: the sandbox's ids are a prefix, `_`, then those. */
    const run = randomUUID().replaceAll('-', '').slice(0, 12)

    const cardField = (): CardField => {
      const field = gateway().cardField
      if (!field) throw new Error('this gateway has no card field')
      return field
    }
    const typeCard = (number: string) =>
      cardField().createCardPaymentMethod({ number, expMonth: 12, expYear: nextYear, cvc: '123' })

    let customers = 0
    const newCustomer = (): Promise<GatewayCustomer> => {
      customers += 1
      return gateway().createCustomer(
        {
          email: `member${customers}-${run}@example.com`,
          name: `Member ${customers}`,
          userId: `user-${run}-${customers}`,
        },
        { idempotencyKey: `${run}-customer-${customers}` },
      )
    }
    async function customerWithCard(number: string) {
      const customer = await newCustomer()
      const card = await typeCard(number)
      await gateway().attachPaymentMethod(card.id, { customer: customer.id, cardType: 'credit' })
      return { customer, card }
    }

    let onePayment: GatewayPrice | undefined
    /** A price to buy, for the payments (the sandbox invoices a payment from its price). */
    async function priceToBuy(): Promise<GatewayPrice> {
      if (onePayment) return onePayment
      const product = `prod_shop${run}`
      await gateway().createProduct({ id: product, name: 'Shop' }, { idempotencyKey: product })
      onePayment = await gateway().createPrice(
        {
          product,
          nickname: 'ONE_PAYMENT',
          unitAmount: 14_900,
          currency: 'usd',
          plan: 'one_payment',
        },
        { idempotencyKey: `${product}-one` },
      )
      return onePayment
    }
    async function payment(customer: GatewayCustomer, card: string, key: string) {
      const price = await priceToBuy()
      return gateway().createPaymentIntent(
        {
          amount: price.unit_amount,
          currency: 'usd',
          customer: customer.id,
          paymentMethod: card,
          receiptEmail: customer.email,
          metadata: { price_id: price.id, user_id: customer.metadata.user_id },
        },
        { idempotencyKey: key },
      )
    }

    /** Rows the sandbox holds, to see that a repeated request made nothing new. */
    async function storedCount(type: string, where: ReturnType<typeof sql>) {
      const [row] = await subject.app.db
        .select({ found: count() })
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.type, type), where))
      return row?.found
    }

    it('keeps the product under our id and its prices with their plan, newest first', async () => {
      const id = `prod_contract${run}`
      expect(await gateway().retrieveProduct(id)).toBeNull()
      const product = await gateway().createProduct(
        { id, name: 'Contract' },
        { idempotencyKey: `${run}-product` },
      )
      expect(product).toEqual({
        id,
        object: 'product',
        name: 'Contract',
        active: true,
        created: expect.any(Number),
      })
      expect(await gateway().retrieveProduct(id)).toEqual(product)

      const price = (nickname: string, plan: GatewayPrice['metadata']['plan'], amount: number) =>
        gateway().createPrice(
          { product: id, nickname, unitAmount: amount, currency: 'usd', plan },
          { idempotencyKey: `${run}-${nickname}` },
        )
      const one = await price('ONE_PAYMENT', 'one_payment', 14_900)
      const four = await price('FOUR_PAYMENTS', 'four_payments', 3_900)
      const monthly = await price('SUBSCRIPTION', 'subscription', 1_500)
      expect(one).toEqual({
        id: expect.stringMatching(/^price_/),
        object: 'price',
        product: id,
        nickname: 'ONE_PAYMENT',
        unit_amount: 14_900,
        currency: 'usd',
        active: true,
        created: expect.any(Number),
        type: 'one_time',
        recurring: null,
        metadata: { plan: 'one_payment' },
      })
      for (const [recurring, plan] of [
        [four, 'four_payments'],
        [monthly, 'subscription'],
      ] as const) {
        expect(recurring).toMatchObject({
          type: 'recurring',
          recurring: { interval: 'month', interval_count: 1 },
          metadata: { plan },
        })
      }
      expect((await price('ONE_PAYMENT', 'one_payment', 14_900)).id).toBe(one.id)

      expect(await gateway().updatePrice(four.id, { active: false })).toEqual({
        ...four,
        active: false,
      })
      expect(await gateway().updatePrice('price_missing', { active: false })).toBeNull()
      expect(await gateway().listPrices(id)).toEqual([monthly, { ...four, active: false }, one])

      // Back on sale and off again: the second archiving is done, though it asks what the
      // first one asked.
      expect((await gateway().updatePrice(four.id, { active: true }))?.active).toBe(true)
      expect((await gateway().updatePrice(four.id, { active: false }))?.active).toBe(false)
      expect((await gateway().listPrices(id)).map((listed) => listed.active)).toEqual([
        true,
        false,
        true,
      ])
    })

    it('answers a price that does not exist as missing, however often it is asked to change', async () => {
      const missing = `price_missing${run}`
      for (let time = 0; time < 14; time++) {
        expect(await gateway().updatePrice(missing, { active: false })).toBeNull()
      }
    })

    it('makes a customer once per idempotency key and finds it again', async () => {
      const input = { email: `ada-${run}@example.com`, name: 'Ada Lovelace', userId: `ada-${run}` }
      const customer = await gateway().createCustomer(input, {
        idempotencyKey: `${run}-ada`,
      })
      expect(customer).toEqual({
        id: expect.stringMatching(/^cus_/),
        object: 'customer',
        email: input.email,
        name: 'Ada Lovelace',
        address: null,
        invoice_settings: { default_payment_method: null },
        metadata: { user_id: input.userId },
        created: expect.any(Number),
      })
      expect(await gateway().createCustomer(input, { idempotencyKey: `${run}-ada` })).toEqual(
        customer,
      )
      expect(await gateway().retrieveCustomer(customer.id)).toEqual(customer)
      expect(await gateway().retrieveCustomer('cus_missing')).toBeNull()
      expect(
        await storedCount(
          'customer',
          sql`${sandboxObjects.data}->'metadata'->>'user_id' = ${input.userId}`,
        ),
      ).toBe(1)
      const server = subject.server
      if (server) {
        const posts = server.requests.filter(
          (request) => request.method === 'POST' && request.path === '/v1/customers',
        )
        expect(
          posts.filter((request) => request.headers['idempotency-key'] === `${run}-ada`),
        ).toHaveLength(2)
      }
    })

    it('changes the billing information it is given and keeps the rest', async () => {
      const customer = await newCustomer()
      const address = {
        line1: '1 Main Street',
        line2: null,
        city: 'Springfield',
        state: 'IL',
        postal_code: '62701',
        country: 'US',
      }
      const updated = await gateway().updateCustomer(customer.id, {
        name: 'Ada King',
        email: `ada.king-${run}@example.com`,
        address,
      })
      expect(updated).toEqual({
        ...customer,
        name: 'Ada King',
        email: `ada.king-${run}@example.com`,
        address,
      })
      const moved = await gateway().updateCustomer(customer.id, {
        address: { ...address, line2: 'Apartment 4' },
      })
      expect(moved).toEqual({ ...updated, address: { ...address, line2: 'Apartment 4' } })
      // The same change again (a retry) changes nothing and answers the customer as it is.
      expect(
        await gateway().updateCustomer(customer.id, {
          address: { ...address, line2: 'Apartment 4' },
        }),
      ).toEqual(moved)
      expect(await gateway().retrieveCustomer(customer.id)).toEqual(moved)
      expect(await refusal(gateway().updateCustomer('cus_missing', { name: 'Nobody' }))).toEqual({
        code: 'resource_missing',
      })
    })

    it('deletes a customer for good: it is found no more, and deleting again is no error', async () => {
      const customer = await newCustomer()
      await gateway().deleteCustomer(customer.id)
      expect(await gateway().retrieveCustomer(customer.id)).toBeNull()
      await gateway().deleteCustomer(customer.id)
      await gateway().deleteCustomer('cus_missing')
      expect(await gateway().retrieveCustomer(customer.id)).toBeNull()
    })

    it('saves cards, refuses a declined one at saving, lists newest first, and detaches', async () => {
      const card = await typeCard('4242 4242 4242 4242')
      expect(card).toEqual({
        id: expect.stringMatching(/^pm_/),
        object: 'payment_method',
        type: 'card',
        customer: null,
        card: {
          brand: 'visa',
          last4: '4242',
          exp_month: 12,
          exp_year: nextYear,
          funding: 'credit',
        },
        metadata: {},
        created: expect.any(Number),
      })
      expect(await gateway().retrievePaymentMethod(card.id)).toEqual(card)
      expect(await gateway().retrievePaymentMethod('pm_missing')).toBeNull()
      expect(await refusal(typeCard('4012 8888 8888 1881'))).toEqual({
        code: 'card_declined',
        declineCode: 'test_mode_live_card',
      })

      const customer = await newCustomer()
      const saved = await gateway().attachPaymentMethod(card.id, {
        customer: customer.id,
        cardType: 'debit',
      })
      expect(saved).toEqual({ ...card, customer: customer.id, metadata: { card_type: 'debit' } })

      const declining = await typeCard('4000000000000002')
      expect(
        await refusal(gateway().attachPaymentMethod(declining.id, { customer: customer.id })),
      ).toEqual({ code: 'card_declined', declineCode: 'generic_decline' })
      expect((await gateway().retrievePaymentMethod(declining.id))?.customer).toBeNull()
      // Refused with a code and no reason of the bank's: the code alone says why.
      const expired = await typeCard('4000000000000069')
      const why = await refusal(
        gateway().attachPaymentMethod(expired.id, { customer: customer.id }),
      )
      expect(why).toEqual({ code: 'expired_card', declineCode: undefined })
      expect(why).not.toHaveProperty('declineCode', '')

      const mastercard = await typeCard('5555 5555 5555 4444')
      await gateway().attachPaymentMethod(mastercard.id, { customer: customer.id })
      expect((await gateway().listPaymentMethods(customer.id)).map((method) => method.id)).toEqual([
        mastercard.id,
        card.id,
      ])

      // The default card back and forth: the last change is made, though the first asked the same.
      await gateway().updateCustomer(customer.id, { defaultPaymentMethod: card.id })
      await gateway().updateCustomer(customer.id, { defaultPaymentMethod: mastercard.id })
      const back = await gateway().updateCustomer(customer.id, { defaultPaymentMethod: card.id })
      expect(back.invoice_settings.default_payment_method).toBe(card.id)
      expect((await gateway().retrieveCustomer(customer.id))?.invoice_settings).toEqual({
        default_payment_method: card.id,
      })

      // Detaching the default card leaves the customer without one.
      expect(await gateway().detachPaymentMethod(card.id)).toEqual({ ...saved, customer: null })
      expect((await gateway().retrieveCustomer(customer.id))?.invoice_settings).toEqual({
        default_payment_method: null,
      })
      expect((await gateway().listPaymentMethods(customer.id)).map((method) => method.id)).toEqual([
        mastercard.id,
      ])

      const other = await newCustomer()
      expect(
        await refusal(gateway().attachPaymentMethod(mastercard.id, { customer: other.id })),
      ).toEqual({ code: 'payment_method_unexpected_state' })
      expect(await gateway().listPaymentMethods(other.id)).toEqual([])
    })

    it('saves a card through a setup intent confirmed from the page, to that customer only', async () => {
      const customer = await newCustomer()
      const intent = await gateway().createSetupIntent(
        { customer: customer.id },
        { idempotencyKey: `${run}-setup` },
      )
      expect(intent).toEqual({
        id: expect.stringMatching(/^seti_/),
        object: 'setup_intent',
        customer: customer.id,
        client_secret: expect.stringMatching(new RegExp(`^${intent.id}_secret_`)),
        status: 'requires_payment_method',
        payment_method: null,
        next_action: null,
        last_setup_error: null,
        created: expect.any(Number),
      })
      expect(await gateway().retrieveSetupIntent(intent.id)).toEqual(intent)
      expect(await gateway().retrieveSetupIntent('seti_missing')).toBeNull()

      // The secret is what lets a page use the intent: another secret finds nothing.
      expect(
        await refusal(subject.confirmSetup(intent, '4242424242424242', `${intent.id}_secret_x`)),
      ).toEqual({ code: 'resource_missing', declineCode: undefined })

      // The bank refuses the card: nothing is saved and the intent says why.
      expect(await refusal(subject.confirmSetup(intent, '4000000000000002'))).toEqual({
        code: 'card_declined',
        declineCode: 'generic_decline',
      })
      expect(await gateway().retrieveSetupIntent(intent.id)).toEqual({
        ...intent,
        last_setup_error: {
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
        },
      })
      expect(await gateway().listPaymentMethods(customer.id)).toEqual([])

      // Another card on the same intent: saved to this customer.
      await subject.confirmSetup(intent, '5555555555554444')
      const done = await gateway().retrieveSetupIntent(intent.id)
      expect(done).toEqual({
        ...intent,
        status: 'succeeded',
        payment_method: expect.stringMatching(/^pm_/),
        last_setup_error: null,
      })
      const saved = await gateway().listPaymentMethods(customer.id)
      expect(saved.map((method) => [method.id, method.customer, method.card.last4])).toEqual([
        [done?.payment_method, customer.id, '4444'],
      ])
      expect(await refusal(subject.confirmSetup(intent, '4242424242424242'))).toEqual({
        code: 'setup_intent_unexpected_state',
        declineCode: undefined,
      })
      expect(await refusal(gateway().createSetupIntent({ customer: 'cus_missing' }))).toEqual({
        code: 'resource_missing',
        declineCode: undefined,
      })
    })

    it('confirms a setup on the server with a card the page made: saved, refused, or waiting for the bank’s check', async () => {
      const customer = await newCustomer()
      const good = await typeCard('4242424242424242')
      const saved = await gateway().createSetupIntent(
        { customer: customer.id, paymentMethod: good.id },
        { idempotencyKey: `${run}-setup-server` },
      )
      expect(saved).toMatchObject({ status: 'succeeded', payment_method: good.id })
      // Asked again under the same key (a retry): the same answer, nothing done twice.
      expect(
        await gateway().createSetupIntent(
          { customer: customer.id, paymentMethod: good.id },
          { idempotencyKey: `${run}-setup-server` },
        ),
      ).toEqual(saved)
      expect((await gateway().retrievePaymentMethod(good.id))?.customer).toBe(customer.id)

      const declining = await typeCard('4000000000000002')
      expect(
        await refusal(
          gateway().createSetupIntent({ customer: customer.id, paymentMethod: declining.id }),
        ),
      ).toEqual({ code: 'card_declined', declineCode: 'generic_decline' })
      expect((await gateway().retrievePaymentMethod(declining.id))?.customer).toBeNull()

      const checked = await typeCard('4000002500003155')
      const waiting = await gateway().createSetupIntent({
        customer: customer.id,
        paymentMethod: checked.id,
      })
      expect(waiting).toMatchObject({
        status: 'requires_action',
        next_action: { type: 'use_stripe_sdk' },
      })
      await subject.authenticate(waiting, 'complete')
      expect(await gateway().retrieveSetupIntent(waiting.id)).toMatchObject({
        status: 'succeeded',
        payment_method: checked.id,
      })
      expect((await gateway().retrievePaymentMethod(checked.id))?.customer).toBe(customer.id)
    })

    it('a card the bank checks (3-D Secure) is saved once the member completes the check, and a charge with the member present still needs the check', async () => {
      const customer = await newCustomer()
      const intent = await gateway().createSetupIntent({ customer: customer.id })
      await subject.confirmSetup(intent, '4000002500003155')
      const waiting = await gateway().retrieveSetupIntent(intent.id)
      expect(waiting).toMatchObject({
        status: 'requires_action',
        next_action: { type: 'use_stripe_sdk' },
        payment_method: expect.stringMatching(/^pm_/),
      })
      expect(await gateway().listPaymentMethods(customer.id)).toEqual([])

      // Failed (or abandoned): nothing saved, and the setup says why.
      await subject.authenticate(intent, 'fail')
      expect(await gateway().retrieveSetupIntent(intent.id)).toMatchObject({
        status: 'requires_payment_method',
        payment_method: null,
        next_action: null,
        last_setup_error: { code: 'setup_intent_authentication_failure', decline_code: null },
      })
      expect(await refusal(subject.authenticate(intent, 'complete'))).toEqual({
        code: 'setup_intent_unexpected_state',
        declineCode: undefined,
      })

      // The same card again, the check completed: saved to the customer.
      await subject.confirmSetup(intent, '4000 0025 0000 3155')
      await subject.authenticate(intent, 'complete')
      const saved = await gateway().retrieveSetupIntent(intent.id)
      expect(saved).toMatchObject({
        status: 'succeeded',
        next_action: null,
        last_setup_error: null,
      })
      const card = saved?.payment_method ?? ''
      expect((await gateway().retrievePaymentMethod(card))?.customer).toBe(customer.id)
      // Its bank checks every payment made with the member present: it waits for the check.
      const waitingPayment = await payment(customer, card, `${run}-3ds-present`)
      expect(waitingPayment).toMatchObject({
        status: 'requires_action',
        client_secret: expect.stringMatching(new RegExp(`^${waitingPayment.id}_secret_`)),
        last_payment_error: null,
      })
    })

    it('a payment the bank checks waits for the member: completed it goes to the bank, failed it is refused, unanswered it can be given up', async () => {
      const customer = await newCustomer()
      const intent = await gateway().createSetupIntent({ customer: customer.id })
      await subject.confirmSetup(intent, '4000002500003155')
      await subject.authenticate(intent, 'complete')
      const card = (await gateway().retrieveSetupIntent(intent.id))?.payment_method ?? ''
      const check = (paid: GatewayPaymentIntent, outcome: 'complete' | 'fail') =>
        cardField().authenticateCardPayment({ clientSecret: paid.client_secret, outcome })

      // Completed: with the bank, then paid (no bank is connected here: it answers at once).
      const first = await payment(customer, card, `${run}-3ds-complete`)
      expect(first.status).toBe('requires_action')
      expect((await check(first, 'complete')).status).toBe('processing')
      expect(await gateway().retrievePaymentIntent(first.id)).toMatchObject({
        status: 'succeeded',
        last_payment_error: null,
      })
      expect(await refusal(check(first, 'complete'))).toEqual({
        code: 'payment_intent_unexpected_state',
        declineCode: undefined,
      })
      // Paid, it cannot be given up.
      expect(await refusal(gateway().cancelPaymentIntent(first.id))).toEqual({
        code: 'payment_intent_unexpected_state',
        declineCode: undefined,
      })

      // Failed: refused with Stripe's reason, nothing charged.
      const second = await payment(customer, card, `${run}-3ds-fail`)
      expect(await check(second, 'fail')).toMatchObject({
        status: 'requires_payment_method',
        last_payment_error: { code: 'payment_intent_authentication_failure' },
      })

      // Never answered: given up, and then no check of it is taken.
      const third = await payment(customer, card, `${run}-3ds-left`)
      expect(await gateway().cancelPaymentIntent(third.id)).toMatchObject({ status: 'canceled' })
      expect((await gateway().cancelPaymentIntent(third.id)).status).toBe('canceled')
      expect(await refusal(check(third, 'complete'))).toEqual({
        code: 'payment_intent_unexpected_state',
        declineCode: undefined,
      })
      // Only the payment's own secret answers its check.
      expect(
        await refusal(
          cardField().authenticateCardPayment({
            clientSecret: `${third.id}_secret_notTheOne`,
            outcome: 'complete',
          }),
        ),
      ).toMatchObject({ code: 'resource_missing' })
      expect((await gateway().listPaymentIntents(customer.id)).map((made) => made.status)).toEqual([
        'canceled',
        'requires_payment_method',
        'succeeded',
      ])
    })

    it('charges once per key: processing, then succeeded when the bank settles', async () => {
      const { customer, card } = await customerWithCard('4242424242424242')
      const price = await priceToBuy()
      const made = await payment(customer, card.id, `${run}-pay-once`)
      expect(made).toEqual({
        id: expect.stringMatching(/^pi_/),
        object: 'payment_intent',
        amount: 14_900,
        currency: 'usd',
        customer: customer.id,
        payment_method: card.id,
        status: 'processing',
        receipt_email: customer.email,
        client_secret: expect.stringMatching(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/),
        last_payment_error: null,
        metadata: { price_id: price.id, user_id: customer.metadata.user_id },
        created: expect.any(Number),
      })
      expect((await payment(customer, card.id, `${run}-pay-once`)).id).toBe(made.id)
      // No bank is connected to this sandbox, so it settles at once.
      expect(await gateway().listPaymentIntents(customer.id)).toEqual<GatewayPaymentIntent[]>([
        { ...made, status: 'succeeded' },
      ])
      expect(await storedCount('payment_intent', eq(sandboxObjects.customer, customer.id))).toBe(1)
    })

    it('gives back part of a payment, then the rest, once per key, and never more than it took', async () => {
      const { customer, card } = await customerWithCard('4242424242424242')
      const paid = await payment(customer, card.id, `${run}-pay-refund`)
      await gateway().listPaymentIntents(customer.id)
      const metadata = { user_id: customer.metadata.user_id, invoice_id: 'in_refunded' }
      const part = await gateway().createRefund(
        { paymentIntent: paid.id, amount: 4_900, metadata },
        { idempotencyKey: `${run}-refund-1` },
      )
      expect(part).toEqual({
        id: expect.stringMatching(/^re_/),
        object: 'refund',
        amount: 4_900,
        currency: 'usd',
        payment_intent: paid.id,
        status: 'succeeded',
        reason: 'requested_by_customer',
        metadata,
        created: expect.any(Number),
      })
      // The same request again is the same refund, not a second one.
      const again = await gateway().createRefund(
        { paymentIntent: paid.id, amount: 4_900, metadata },
        { idempotencyKey: `${run}-refund-1` },
      )
      expect(again.id).toBe(part.id)
      expect(
        await refusal(
          gateway().createRefund(
            { paymentIntent: paid.id, amount: 10_001, metadata },
            { idempotencyKey: `${run}-refund-2` },
          ),
        ),
      ).toEqual({ code: 'amount_too_large', declineCode: undefined })
      const rest = await gateway().createRefund(
        { paymentIntent: paid.id, amount: 10_000, metadata },
        { idempotencyKey: `${run}-refund-3` },
      )
      expect(rest.amount).toBe(10_000)
      expect(
        await refusal(
          gateway().createRefund(
            { paymentIntent: paid.id, amount: 1, metadata },
            { idempotencyKey: `${run}-refund-4` },
          ),
        ),
      ).toEqual({ code: 'charge_already_refunded', declineCode: undefined })
      expect((await gateway().listRefunds(paid.id)).map((refund) => refund.id)).toEqual([
        rest.id,
        part.id,
      ])
      // The payment itself still reads as paid: a refund changes no payment, plan or invoice.
      expect((await gateway().retrievePaymentIntent(paid.id))?.status).toBe('succeeded')
    })

    it('refunds only a payment that went through', async () => {
      const { customer, card } = await customerWithCard('4000000000009995')
      const refused = await payment(customer, card.id, `${run}-pay-refused-refund`)
      await gateway().listPaymentIntents(customer.id)
      expect(
        await refusal(
          gateway().createRefund(
            {
              paymentIntent: refused.id,
              amount: 100,
              metadata: { user_id: customer.metadata.user_id, invoice_id: 'in_none' },
            },
            { idempotencyKey: `${run}-refund-refused` },
          ),
        ),
      ).toEqual({ code: 'payment_intent_unexpected_state', declineCode: undefined })
    })

    it('a card refused at the charge: processing, then refused for insufficient funds', async () => {
      const { customer, card } = await customerWithCard('4000000000009995')
      const made = await payment(customer, card.id, `${run}-pay-poor`)
      expect(made.status).toBe('processing')
      expect(await gateway().listPaymentIntents(customer.id)).toEqual([
        {
          ...made,
          status: 'requires_payment_method',
          last_payment_error: {
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
          },
        },
      ])
    })

    it('a card the bank refuses outright comes back refused, with the payment', async () => {
      const customer = await newCustomer()
      const card = await typeCard('4000000000000002')
      const made = await payment(customer, card.id, `${run}-pay-refused`)
      expect(made).toMatchObject({
        status: 'requires_payment_method',
        last_payment_error: {
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
        },
      })
      expect(await gateway().listPaymentIntents(customer.id)).toEqual([made])
    })

    let monthlyPrices: { subscription: GatewayPrice; fourPayments: GatewayPrice } | undefined
    /** The two monthly prices: the SUBSCRIPTION and FOUR PAYMENTS. */
    async function monthly() {
      if (monthlyPrices) return monthlyPrices
      const product = `prod_plans${run}`
      await gateway().createProduct({ id: product, name: 'Plans' }, { idempotencyKey: product })
      const price = (
        nickname: string,
        unitAmount: number,
        plan: 'subscription' | 'four_payments',
      ) =>
        gateway().createPrice(
          { product, nickname, unitAmount, currency: 'usd', plan },
          { idempotencyKey: `${product}-${plan}` },
        )
      monthlyPrices = {
        subscription: await price('SUBSCRIPTION', 1_500, 'subscription'),
        fourPayments: await price('FOUR_PAYMENTS', 4_900, 'four_payments'),
      }
      return monthlyPrices
    }
    /** A customer whose default card is `number`, on a plan of `price`. */
    async function onPlan(number: string, price: GatewayPrice, key: string) {
      const { customer, card } = await customerWithCard(number)
      await gateway().updateCustomer(customer.id, { defaultPaymentMethod: card.id })
      const plan = await gateway().createSubscription(
        {
          customer: customer.id,
          price: price.id,
          paymentMethod: card.id,
          installments: price.metadata.plan === 'four_payments' ? 4 : null,
          metadata: {
            plan: price.metadata.plan,
            user_id: customer.metadata.user_id,
            price_id: price.id,
          },
        },
        { idempotencyKey: key },
      )
      return { customer, card, plan }
    }

    it('starts the SUBSCRIPTION once per key, with its first invoice paid by the default card', async () => {
      const { subscription: price } = await monthly()
      const { customer, card, plan } = await onPlan('4242424242424242', price, `${run}-plan-sub`)
      expect(plan).toEqual({
        id: expect.stringMatching(/^sub_/),
        object: 'subscription',
        customer: customer.id,
        // No bank is connected to this sandbox: the first charge settles at once.
        status: 'active',
        items: { data: [{ id: expect.stringMatching(/^si_/), price: price.id }] },
        billing_cycle_anchor: plan.current_period_start,
        current_period_start: expect.any(Number),
        current_period_end: expect.any(Number),
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        default_payment_method: null,
        latest_invoice: expect.stringMatching(/^in_/),
        metadata: { plan: 'subscription', user_id: customer.metadata.user_id, price_id: price.id },
        created: plan.current_period_start,
      })
      const days = (plan.current_period_end - plan.current_period_start) / 86_400
      expect(days).toBeGreaterThanOrEqual(28)
      expect(days).toBeLessThanOrEqual(31)
      const again = await gateway().createSubscription(
        {
          customer: customer.id,
          price: price.id,
          paymentMethod: card.id,
          installments: null,
          metadata: plan.metadata,
        },
        { idempotencyKey: `${run}-plan-sub` },
      )
      expect(again.id).toBe(plan.id)
      expect(await gateway().retrieveSubscription(plan.id)).toEqual(plan)
      expect(await gateway().listSubscriptions(customer.id)).toEqual([plan])

      const [charge] = await gateway().listPaymentIntents(customer.id)
      expect(charge).toMatchObject({ status: 'succeeded', amount: 1_500, payment_method: card.id })
      const invoices = await gateway().listInvoices(customer.id)
      expect(invoices).toEqual([
        {
          id: plan.latest_invoice,
          object: 'invoice',
          number: expect.stringMatching(/^HZ-\d{6}$/),
          customer: customer.id,
          subscription: plan.id,
          status: 'paid',
          billing_reason: 'subscription_create',
          currency: 'usd',
          subtotal: 1_500,
          total: 1_500,
          amount_due: 1_500,
          amount_paid: 1_500,
          lines: {
            data: [
              {
                id: expect.any(String),
                description: 'SUBSCRIPTION',
                amount: 1_500,
                price: price.id,
                proration: false,
                period: { start: plan.current_period_start, end: plan.current_period_end },
              },
            ],
          },
          customer_name: customer.name,
          customer_email: customer.email,
          customer_address: null,
          receipt_email: null,
          payment_intent: charge?.id,
          payment_intents: [charge?.id],
          attempt_count: 1,
          next_payment_attempt: null,
          status_transitions: {
            finalized_at: expect.any(Number),
            paid_at: expect.any(Number),
            voided_at: null,
          },
          period_start: plan.current_period_start,
          period_end: plan.current_period_end,
          metadata: { user_id: customer.metadata.user_id },
          created: expect.any(Number),
        },
      ])
      // Made with the plan, a moment after it on a busy machine.
      const made = invoices[0]?.created ?? 0
      expect(made - plan.created).toBeGreaterThanOrEqual(0)
      expect(made - plan.created).toBeLessThanOrEqual(5)
      expect(invoices[0]?.status_transitions.finalized_at).toBe(made)
      expect(await gateway().retrieveInvoice(plan.latest_invoice ?? '')).toEqual(invoices[0])
      expect(await gateway().retrieveInvoice(`in_missing${run}`)).toBeNull()
      expect(await gateway().retrieveSubscription(`sub_missing${run}`)).toBeNull()
    })

    it('FOUR PAYMENTS ends by itself four months on, and is neither paused nor cancelled by hand', async () => {
      const { fourPayments: price } = await monthly()
      const { plan } = await onPlan('4242424242424242', price, `${run}-plan-four`)
      expect(plan).toMatchObject({ status: 'active', cancel_at_period_end: false })
      const start = new Date(plan.current_period_start * 1000)
      const end = new Date((plan.cancel_at ?? 0) * 1000)
      expect(
        (end.getUTCFullYear() - start.getUTCFullYear()) * 12 +
          end.getUTCMonth() -
          start.getUTCMonth(),
      ).toBe(4)
      expect(await gateway().retrieveSubscription(plan.id)).toEqual(plan)
      await expect(gateway().pauseSubscription(plan.id)).rejects.toThrow(
        'Cannot pause subscriptions with attached schedules.',
      )
      await expect(
        gateway().updateSubscription(plan.id, { cancelAtPeriodEnd: true }),
      ).rejects.toThrow()
      expect(await gateway().retrieveSubscription(plan.id)).toEqual(plan)
    })

    it('cancels at the period end and takes it back; pauses, and resumes within the month with nothing charged', async () => {
      const { subscription: price } = await monthly()
      const { customer, plan } = await onPlan('4242424242424242', price, `${run}-plan-change`)
      const cancelling = await gateway().updateSubscription(plan.id, { cancelAtPeriodEnd: true })
      expect(cancelling).toMatchObject({ status: 'active', cancel_at_period_end: true })
      expect(cancelling.canceled_at).toEqual(expect.any(Number))
      const kept = await gateway().updateSubscription(plan.id, { cancelAtPeriodEnd: false })
      expect(kept).toMatchObject({ cancel_at_period_end: false, canceled_at: null })
      // The same change again, after the other: done again, not answered from the first.
      expect(
        await gateway().updateSubscription(plan.id, { cancelAtPeriodEnd: true }),
      ).toMatchObject({ cancel_at_period_end: true })
      await gateway().updateSubscription(plan.id, { cancelAtPeriodEnd: false })

      const paused = await gateway().pauseSubscription(plan.id)
      expect(paused).toMatchObject({
        status: 'paused',
        current_period_end: plan.current_period_end,
      })
      expect((await gateway().pauseSubscription(plan.id)).status).toBe('paused')
      const resumed = await gateway().resumeSubscription(plan.id)
      expect(resumed).toMatchObject({
        status: 'active',
        current_period_start: plan.current_period_start,
        current_period_end: plan.current_period_end,
        latest_invoice: plan.latest_invoice,
      })
      // Paused and resumed a second time in the same month: done again, still nothing charged.
      expect((await gateway().pauseSubscription(plan.id)).status).toBe('paused')
      expect((await gateway().resumeSubscription(plan.id)).status).toBe('active')
      expect(await gateway().listInvoices(customer.id)).toHaveLength(1)
      expect(await gateway().listPaymentIntents(customer.id)).toHaveLength(1)
    })

    it('previews an upgrade as the new price less the unused part of the month, and not while paused', async () => {
      const { subscription: price, fourPayments } = await monthly()
      const { plan } = await onPlan('4242424242424242', price, `${run}-plan-preview`)
      for (const target of [fourPayments, await priceToBuy()]) {
        const preview = await gateway().previewUpgrade(plan.id, { price: target.id })
        expect(preview.amount).toBe(target.unit_amount)
        // Started a moment ago: nearly the whole month of $15 is unused.
        expect(preview.credit).toBeLessThanOrEqual(-1_490)
        expect(preview.credit).toBeGreaterThanOrEqual(-1_500)
        expect(preview.total).toBe(preview.amount + preview.credit)
      }
      await gateway().pauseSubscription(plan.id)
      await expect(gateway().previewUpgrade(plan.id, { price: fourPayments.id })).rejects.toThrow(
        'Only an active subscription can move to another price.',
      )
      // A refusal of the call (the member's screen was out of date), not a fault of the app's.
      expect(await refusal(gateway().previewUpgrade(plan.id, { price: fourPayments.id }))).toEqual({
        code: 'invalid_request_error',
        declineCode: undefined,
      })
    })

    it('upgrades the SUBSCRIPTION to FOUR PAYMENTS: the new price less the unused time at once, then four months from today', async () => {
      const { subscription: price, fourPayments } = await monthly()
      const { customer, plan } = await onPlan('4242424242424242', price, `${run}-plan-upgrade`)
      const upgrade = () =>
        gateway().upgradeSubscription(
          plan.id,
          { price: fourPayments.id, installments: 4 },
          { idempotencyKey: `${run}-upgrade` },
        )
      const invoice = await upgrade()
      expect(invoice).toMatchObject({
        subscription: plan.id,
        status: 'paid',
        billing_reason: 'subscription_update',
        amount_paid: invoice.total,
      })
      // Started a moment ago: nearly the whole month of $15 comes off $49.
      expect(invoice.total).toBeGreaterThanOrEqual(4_900 - 1_500)
      expect(invoice.total).toBeLessThanOrEqual(4_900 - 1_490)
      expect(invoice.lines.data.map((line) => [line.price, line.proration])).toEqual([
        [fourPayments.id, false],
        [null, true],
      ])
      const moved = await gateway().retrieveSubscription(plan.id)
      expect(moved).toMatchObject({
        status: 'active',
        items: { data: [{ price: fourPayments.id }] },
        latest_invoice: invoice.id,
        metadata: {
          plan: 'four_payments',
          user_id: customer.metadata.user_id,
          price_id: fourPayments.id,
        },
      })
      const start = new Date((moved?.billing_cycle_anchor ?? 0) * 1000)
      const end = new Date((moved?.cancel_at ?? 0) * 1000)
      expect(
        (end.getUTCFullYear() - start.getUTCFullYear()) * 12 +
          end.getUTCMonth() -
          start.getUTCMonth(),
      ).toBe(4)
      // A schedule now manages it: nothing is paused or cancelled by hand.
      await expect(gateway().pauseSubscription(plan.id)).rejects.toThrow(
        'Cannot pause subscriptions with attached schedules.',
      )
      expect(await gateway().listInvoices(customer.id)).toHaveLength(2)
      expect(await gateway().listPaymentIntents(customer.id)).toHaveLength(2)
      // Asked again, by a retry of the attempt or by billing's sync finishing an upgrade that
      // stopped between its calls (under keys of its own): nothing is moved or charged again.
      expect((await upgrade()).id).toBe(invoice.id)
      const again = await gateway().upgradeSubscription(plan.id, {
        price: fourPayments.id,
        installments: 4,
      })
      expect(again.id).toBe(invoice.id)
      expect(await gateway().retrieveSubscription(plan.id)).toEqual(moved)
      expect(await gateway().listInvoices(customer.id)).toHaveLength(2)
      expect(await gateway().listPaymentIntents(customer.id)).toHaveLength(2)
    })

    it('upgrades the SUBSCRIPTION to ONE PAYMENT: one invoice of the price less the unused time, marked as ending the plan, which the app then ends', async () => {
      const { subscription: price } = await monthly()
      const once = await priceToBuy()
      const { customer, plan } = await onPlan('4242424242424242', price, `${run}-plan-once`)
      const invoice = await gateway().upgradeSubscription(
        plan.id,
        { price: once.id, installments: null },
        { idempotencyKey: `${run}-upgrade-once` },
      )
      expect(invoice).toMatchObject({
        subscription: null,
        status: 'paid',
        billing_reason: 'manual',
        number: expect.stringMatching(/^HZ-/),
        metadata: { user_id: customer.metadata.user_id, ends_subscription: plan.id },
      })
      expect(invoice.total).toBeGreaterThanOrEqual(14_900 - 1_500)
      expect(invoice.total).toBeLessThanOrEqual(14_900 - 1_490)
      expect(invoice.lines.data.map((line) => [line.price, line.proration])).toEqual([
        [once.id, false],
        [null, true],
      ])
      // The provider knows nothing of the mark: the plan runs on until the app ends it.
      expect(await gateway().retrieveSubscription(plan.id)).toMatchObject({ status: 'active' })
      const ended = await gateway().cancelSubscription(plan.id)
      expect(ended).toMatchObject({ status: 'canceled', ended_at: expect.any(Number) })
      expect(await gateway().cancelSubscription(plan.id)).toEqual(ended)
      // Nothing more was invoiced at the end: the unused time was on the upgrade's invoice.
      expect(await gateway().listInvoices(customer.id)).toHaveLength(2)
      // The provider copies none of our metadata onto the charges it makes for invoices.
      const charge = (await gateway().listPaymentIntents(customer.id)).find(
        (intent) => intent.id === invoice.payment_intent,
      )
      expect(charge).toMatchObject({
        status: 'succeeded',
        amount: invoice.total,
        metadata: { price_id: '', user_id: '' },
      })
    })

    it('an upgrade to ONE PAYMENT the bank refuses stays open until the app voids it, and the plan goes on as it was', async () => {
      const { subscription: price } = await monthly()
      const { customer, plan } = await onPlan('4242424242424242', price, `${run}-plan-oncefail`)
      const failing = await typeCard('4000000000000341')
      await gateway().attachPaymentMethod(failing.id, { customer: customer.id })
      await gateway().updateCustomer(customer.id, { defaultPaymentMethod: failing.id })
      const invoice = await gateway().upgradeSubscription(
        plan.id,
        { price: (await priceToBuy()).id, installments: null },
        { idempotencyKey: `${run}-upgrade-oncefail` },
      )
      expect(invoice).toMatchObject({ status: 'open', amount_paid: 0, next_payment_attempt: null })
      const [refused] = await gateway().listPaymentIntents(customer.id)
      expect(refused).toMatchObject({
        id: invoice.payment_intent,
        status: 'requires_payment_method',
      })
      const voided = await gateway().voidInvoice(invoice.id)
      expect(voided).toMatchObject({ status: 'void', amount_paid: 0 })
      expect(voided.status_transitions.voided_at).toEqual(expect.any(Number))
      expect(await gateway().voidInvoice(invoice.id)).toEqual(voided)
      expect(await gateway().retrieveSubscription(plan.id)).toEqual({
        ...plan,
        default_payment_method: null,
      })
    })

    it('a first charge refused leaves the plan incomplete with its invoice open, paid later with another card', async () => {
      const { subscription: price } = await monthly()
      const { customer, card, plan } = await onPlan(
        '4000000000000341',
        price,
        `${run}-plan-refused`,
      )
      expect(plan.status).toBe('incomplete')
      const [open] = await gateway().listInvoices(customer.id)
      expect(open).toMatchObject({ status: 'open', attempt_count: 1, amount_paid: 0 })

      // Tried again with the same card: refused again, the invoice still open.
      const retried = await gateway().payInvoice(open?.id ?? '', { paymentMethod: card.id })
      expect(retried).toMatchObject({ status: 'open', attempt_count: 2 })
      expect(retried.payment_intents).toHaveLength(2)

      const good = await typeCard('4242424242424242')
      await gateway().attachPaymentMethod(good.id, { customer: customer.id })
      await gateway().updateCustomer(customer.id, { defaultPaymentMethod: good.id })
      const paid = await gateway().payInvoice(open?.id ?? '', { paymentMethod: good.id })
      expect(paid).toMatchObject({ status: 'paid', attempt_count: 3, amount_paid: 1_500 })
      expect(paid.payment_intents).toHaveLength(3)
      expect(paid.payment_intent).toBe(paid.payment_intents[2])
      expect((await gateway().retrieveSubscription(plan.id))?.status).toBe('active')
      expect(
        await refusal(gateway().payInvoice(open?.id ?? '', { paymentMethod: good.id })),
      ).toEqual({ code: 'invoice_not_open', declineCode: undefined })
    })

    it('a first charge the bank checks waits for the member: failed, the invoice stays open; paid again, the check is asked again and completed, the plan is active', async () => {
      const { subscription: price } = await monthly()
      const customer = await newCustomer()
      const setup = await gateway().createSetupIntent({ customer: customer.id })
      await subject.confirmSetup(setup, '4000002500003155')
      await subject.authenticate(setup, 'complete')
      const card = (await gateway().retrieveSetupIntent(setup.id))?.payment_method ?? ''
      await gateway().updateCustomer(customer.id, { defaultPaymentMethod: card })
      const plan = await gateway().createSubscription(
        {
          customer: customer.id,
          price: price.id,
          paymentMethod: card,
          installments: null,
          metadata: {
            plan: 'subscription',
            user_id: customer.metadata.user_id,
            price_id: price.id,
          },
        },
        { idempotencyKey: `${run}-plan-3ds` },
      )
      expect(plan.status).toBe('incomplete')
      const [open] = await gateway().listInvoices(customer.id)
      const first = await gateway().retrievePaymentIntent(open?.payment_intent ?? '')
      expect(first).toMatchObject({ status: 'requires_action', last_payment_error: null })
      const check = (charge: GatewayPaymentIntent | null, outcome: 'complete' | 'fail') =>
        cardField().authenticateCardPayment({ clientSecret: charge?.client_secret ?? '', outcome })

      expect((await check(first, 'fail')).status).toBe('requires_payment_method')
      expect(await gateway().retrieveInvoice(open?.id ?? '')).toMatchObject({ status: 'open' })
      expect((await gateway().retrieveSubscription(plan.id))?.status).toBe('incomplete')

      // Paid again with the member present: the bank asks again.
      const again = await gateway().payInvoice(open?.id ?? '', { paymentMethod: card })
      expect(again).toMatchObject({ status: 'open', attempt_count: 2 })
      const second = await gateway().retrievePaymentIntent(again.payment_intent ?? '')
      expect(second?.status).toBe('requires_action')
      // Paid once more before answering: the waiting charge is replaced, never paid twice.
      const third = await gateway().payInvoice(open?.id ?? '', { paymentMethod: card })
      expect((await gateway().retrievePaymentIntent(second?.id ?? ''))?.status).toBe('canceled')
      expect(await refusal(check(second, 'complete'))).toEqual({
        code: 'payment_intent_unexpected_state',
        declineCode: undefined,
      })
      const last = await gateway().retrievePaymentIntent(third.payment_intent ?? '')
      expect((await check(last, 'complete')).status).toBe('processing')
      expect(await gateway().retrieveInvoice(open?.id ?? '')).toMatchObject({
        status: 'paid',
        amount_paid: 1_500,
      })
      expect((await gateway().retrieveSubscription(plan.id))?.status).toBe('active')
    })

    it('reads an event signed with the endpoint secret, and refuses a wrong signature', async () => {
      const { payload, signature } = await signEvent(
        {
          id: `evt_${run}`,
          type: 'customer.updated',
          created: 1_800_000_000,
          data: { object: { object: 'customer', id: 'cus_event' } },
        },
        WEBHOOK_SECRET,
      )
      expect(await gateway().readEvent(Buffer.from(payload), signature)).toEqual({
        id: `evt_${run}`,
        type: 'customer.updated',
        created: 1_800_000_000,
        customer: 'cus_event',
        paymentIntent: null,
      })
      // A charge's event names its payment too: a refund made in the Dashboard is found by it.
      const refunded = await signEvent(
        {
          id: `evt_${run}_refund`,
          type: 'charge.refunded',
          created: 1_800_000_000,
          data: {
            object: { object: 'charge', customer: 'cus_event', payment_intent: 'pi_event' },
          },
        },
        WEBHOOK_SECRET,
      )
      expect(
        await gateway().readEvent(Buffer.from(refunded.payload), refunded.signature),
      ).toMatchObject({ customer: 'cus_event', paymentIntent: 'pi_event' })
      expect(await refusal(gateway().readEvent(Buffer.from(payload), 't=1,v1=00'))).toEqual({
        code: 'signature_invalid',
      })
    })

    const DAY = 86_400
    const testClocks = () => {
      const clocks = gateway().testClocks
      if (!clocks) throw new Error('this gateway has no test clocks')
      return clocks
    }
    /** Calendar months from one time to another (UTC), as a plan's periods count them. */
    const monthsBetween = (from: number, to: number) => {
      const start = new Date(from * 1000)
      const end = new Date(to * 1000)
      return (
        (end.getUTCFullYear() - start.getUTCFullYear()) * 12 +
        end.getUTCMonth() -
        start.getUTCMonth()
      )
    }
    /** The test-clock advances the SDK sent since `since` requests, when it talks to a server. */
    const advancesSince = (since: number) =>
      (subject.server?.requests ?? [])
        .slice(since)
        .filter((request) => /^\/v1\/test_helpers\/test_clocks\/[^/]+\/advance$/.test(request.path))
        .map((request) => Number(request.body.frozen_time))

    it('resumes after the month paid for with a new month from now, charged; the server resumes as asked, as Stripe does', async () => {
      const { subscription: price } = await monthly()
      const { customer, plan } = await onPlan('4242424242424242', price, `${run}-plan-late`)
      await gateway().pauseSubscription(plan.id)
      const time = await testClocks().advanceClock(customer.id, 40 * DAY)
      const sent = subject.server?.requests.length ?? 0
      const resumed = await gateway().resumeSubscription(plan.id)
      expect(resumed.current_period_start).toBeGreaterThanOrEqual(time)
      expect(resumed.billing_cycle_anchor).toBe(resumed.current_period_start)
      expect(monthsBetween(resumed.current_period_start, resumed.current_period_end)).toBe(1)
      const [charged] = await gateway().listInvoices(customer.id)
      expect(charged).toMatchObject({
        id: resumed.latest_invoice,
        billing_reason: 'subscription_update',
        amount_due: 1_500,
        period_start: resumed.current_period_start,
      })
      // No bank is connected to this sandbox: paid at once, the plan runs again.
      expect((await gateway().retrieveSubscription(plan.id))?.status).toBe('active')

      const server = subject.server
      if (!server) return
      const resume = server.requests
        .slice(sent)
        .find((request) => request.path === `/v1/subscriptions/${plan.id}/resume`)
      expect(resume?.body.billing_cycle_anchor).toEqual({ type: 'now' })
      // What the gateway asks is done, whatever the sandbox's clock would choose: a month that
      // ends between the gateway's read of the clock and its request is Stripe's to answer.
      const stripe = new Stripe(SECRET_KEY, {
        apiVersion: STRIPE_API_VERSION,
        ...addressOf(server.url),
      })
      const resumeAs = (id: string, type: 'now' | 'unchanged') =>
        stripe.subscriptions.resume(
          id,
          {
            billing_cycle_anchor: { type },
            proration_behavior: 'none',
            payment_behavior: 'resume_on_payment_success',
          },
          { idempotencyKey: `${run}-resume-${id}` },
        )
      // `now` within the month paid for: a new month starts now and is charged.
      const early = await onPlan('4242424242424242', price, `${run}-plan-early`)
      await gateway().pauseSubscription(early.plan.id)
      await testClocks().advanceClock(early.customer.id, DAY)
      await resumeAs(early.plan.id, 'now')
      const restarted = await gateway().retrieveSubscription(early.plan.id)
      expect(restarted?.latest_invoice).not.toBe(early.plan.latest_invoice)
      expect(restarted?.billing_cycle_anchor).toBe(restarted?.current_period_start)
      expect(await gateway().listInvoices(early.customer.id)).toHaveLength(2)
      // `unchanged` after it: the plan goes on in its month around now, nothing charged.
      const late = await onPlan('4242424242424242', price, `${run}-plan-unchanged`)
      await gateway().pauseSubscription(late.plan.id)
      const lateTime = await testClocks().advanceClock(late.customer.id, 40 * DAY)
      await resumeAs(late.plan.id, 'unchanged')
      const kept = await gateway().retrieveSubscription(late.plan.id)
      expect(kept).toMatchObject({
        status: 'active',
        billing_cycle_anchor: late.plan.billing_cycle_anchor,
        current_period_start: late.plan.current_period_end,
        latest_invoice: late.plan.latest_invoice,
      })
      expect(kept?.current_period_end).toBeGreaterThan(lateTime)
      expect(await gateway().listInvoices(late.customer.id)).toHaveLength(1)
    })

    it('renews the SUBSCRIPTION when its clock passes a month: a second paid invoice, the period a month on', async () => {
      const { subscription: price } = await monthly()
      const { customer, plan } = await onPlan('4242424242424242', price, `${run}-clock-sub`)
      await testClocks().advanceClock(customer.id, 31 * DAY)

      const renewed = await gateway().retrieveSubscription(plan.id)
      expect(renewed).toMatchObject({
        status: 'active',
        billing_cycle_anchor: plan.billing_cycle_anchor,
        current_period_start: plan.current_period_end,
      })
      expect(monthsBetween(plan.current_period_start, renewed?.current_period_end ?? 0)).toBe(2)
      const [second, first] = await gateway().listInvoices(customer.id)
      expect(first?.id).toBe(plan.latest_invoice)
      expect(second).toMatchObject({
        id: renewed?.latest_invoice,
        subscription: plan.id,
        status: 'paid',
        billing_reason: 'subscription_cycle',
        amount_paid: 1_500,
        period_start: plan.current_period_end,
        period_end: renewed?.current_period_end,
      })
      expect(await gateway().listInvoices(customer.id)).toHaveLength(2)
    })

    it('ends FOUR PAYMENTS advanced month by month after its fourth paid invoice', async () => {
      const { fourPayments: price } = await monthly()
      const { customer, plan } = await onPlan('4242424242424242', price, `${run}-clock-four`)
      // 31 days at a time: three steps pass the 2nd, 3rd and 4th month (at most 92 days), the
      // fourth passes the end (at least 120 days).
      for (const paid of [2, 3, 4]) {
        await testClocks().advanceClock(customer.id, 31 * DAY)
        const invoices = await gateway().listInvoices(customer.id)
        expect(invoices.map((invoice) => invoice.status)).toEqual(Array(paid).fill('paid'))
        expect((await gateway().retrieveSubscription(plan.id))?.status).toBe('active')
      }
      await testClocks().advanceClock(customer.id, 31 * DAY)
      expect(await gateway().retrieveSubscription(plan.id)).toMatchObject({
        status: 'canceled',
        cancel_at: plan.cancel_at,
        ended_at: plan.cancel_at,
      })
      const invoices = await gateway().listInvoices(customer.id)
      expect(invoices.map((invoice) => invoice.status)).toEqual(Array(4).fill('paid'))
      expect(invoices.every((invoice) => invoice.amount_paid === 4_900)).toBe(true)
    })

    it('answers the same upgrade to ONE PAYMENT sent again a day later with its first invoice, charged once', async () => {
      const { subscription: price } = await monthly()
      const once = await priceToBuy()
      const { customer, plan } = await onPlan('4242424242424242', price, `${run}-plan-onceagain`)
      const upgrade = () =>
        gateway().upgradeSubscription(
          plan.id,
          { price: once.id, installments: null },
          { idempotencyKey: `${run}-upgrade-onceagain` },
        )
      const first = await upgrade()
      expect(first).toMatchObject({ status: 'paid', metadata: { ends_subscription: plan.id } })
      // The answer was lost (a time-out) and the attempt is sent again when less of the month
      // is left: each step must ask what it first asked, or Stripe refuses the key.
      await testClocks().advanceClock(customer.id, DAY)
      expect(await upgrade()).toEqual(first)
      expect(await gateway().listInvoices(customer.id)).toHaveLength(2)
      expect(await gateway().listPaymentIntents(customer.id)).toHaveLength(2)
    })

    it('advances 70 days in one call and answers the new time', async () => {
      const customer = await newCustomer()
      const sent = subject.server?.requests.length ?? 0
      const before = Math.floor(Date.now() / 1000)
      const time = await testClocks().advanceClock(customer.id, 70 * DAY)
      const after = Math.floor(Date.now() / 1000)
      // The clock was set at the customer's making, a second before this at most.
      expect(time).toBeGreaterThanOrEqual(before - 1 + 70 * DAY)
      expect(time).toBeLessThanOrEqual(after + 70 * DAY)
      if (subject.server) {
        // Stripe takes at most two months at a time: 31 days, 31 days, then 8, each from where
        // the last one left the clock.
        const targets = advancesSince(sent)
        expect(targets).toHaveLength(3)
        const steps = targets.slice(1).map((target, index) => target - (targets[index] ?? 0))
        expect(steps.map((step) => Math.round(step / DAY))).toEqual([31, 8])
        expect(targets.at(-1)).toBeLessThanOrEqual(time)
      }
    })

    it('never moves a clock back, and leaves it where it was', async () => {
      const customer = await newCustomer()
      const time = await testClocks().advanceClock(customer.id, DAY)
      await expect(testClocks().advanceClock(customer.id, -DAY)).rejects.toThrow(
        "The frozen_time must be after the test clock's current frozen time",
      )
      const next = await testClocks().advanceClock(customer.id, DAY)
      expect(next - time).toBeGreaterThanOrEqual(DAY)
      expect(next - time).toBeLessThan(DAY + 60)
      // The customer's time is read where it was left, for the notices that fall due by it.
      const now = await testClocks().nowOf(customer.id)
      expect(now).toBeGreaterThanOrEqual(next)
      expect(now - next).toBeLessThan(60)
    })

    it('makes one test clock for a customer asked for twice, a few seconds apart', async () => {
      const input = { email: `clocked-${run}@example.com`, name: 'Clocked', userId: `clk-${run}` }
      const first = await gateway().createCustomer(input, { idempotencyKey: `${run}-clocked` })
      // The retry asks for a clock frozen at another second, under the same key.
      const now = Date.now()
      const later = vi.spyOn(Date, 'now').mockReturnValue(now + 5_000)
      try {
        const again = await gateway().createCustomer(input, { idempotencyKey: `${run}-clocked` })
        expect(again).toEqual(first)
      } finally {
        later.mockRestore()
      }
      const server = subject.server
      if (server) {
        const asked = server.requests.filter(
          (request) =>
            request.method === 'POST' &&
            request.path === '/v1/test_helpers/test_clocks' &&
            request.body.name === `user ${input.userId}`,
        )
        expect(new Set(asked.map((request) => request.body.frozen_time)).size).toBe(2)
        expect(
          await storedCount(
            'test_clock',
            sql`${sandboxObjects.data}->>'name' = ${`user ${input.userId}`}`,
          ),
        ).toBe(1)
      }
    })

    it('refuses to move the time of a customer that is not there, or made without a test clock', async () => {
      expect(await refusal(testClocks().advanceClock(`cus_missing${run}`, DAY))).toEqual({
        code: 'resource_missing',
        declineCode: undefined,
      })
      const server = subject.server
      if (!server) return
      // The Stripe gateway in live mode makes customers without clocks, and has no testClocks.
      const live = createStripeGateway({
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        apiUrl: server.url,
      })
      expect(live.testClocks).toBeNull()
      const customer = await live.createCustomer(
        { email: `unclocked-${run}@example.com`, name: 'Unclocked', userId: `unclocked-${run}` },
        { idempotencyKey: `${run}-unclocked` },
      )
      expect(await refusal(testClocks().advanceClock(customer.id, DAY))).toEqual({
        code: 'customer_without_test_clock',
        declineCode: undefined,
      })
    })

    it('sent the pinned version with every request, and a key of its own with every POST', () => {
      const server = subject.server
      if (!server) return
      // The app's own calls, with the secret key; what the page sends (Stripe.js) has neither.
      const ours = server.requests.filter((sent) => sent.key === 'secret')
      expect(ours.length).toBeGreaterThan(40)
      for (const request of ours) {
        expect(request.headers['stripe-version'], `${request.method} ${request.path}`).toBe(
          STRIPE_API_VERSION,
        )
      }
      for (const request of ours.filter((sent) => sent.method === 'POST')) {
        // The SDK keys a POST at random when it is not given one; the app gives one each time.
        expect(request.headers['idempotency-key'], request.path).toMatch(/^(?!stripe-node-retry-)./)
      }
    })
  })
}

contractSuite('the in-process sandbox', async (app) => {
  const sandbox = createSandboxGateway(app.db, { webhookSecret: WEBHOOK_SECRET })
  return {
    gateway: sandbox,
    server: null,
    async confirmSetup(intent, number, clientSecret = intent.client_secret) {
      const card = await sandbox.cardField.createCardPaymentMethod(typed(number))
      return sandbox.confirmSetupIntent(intent.id, { clientSecret, paymentMethod: card.id })
    },
    authenticate: (intent, outcome) =>
      sandbox.authenticateSetupIntent(intent.id, { clientSecret: intent.client_secret, outcome }),
  }
})

contractSuite('the Stripe SDK against the sandbox over HTTP', async (app) => {
  const server = await startSandboxServer({
    record: true,
    gateway: createSandboxGateway(app.db, { webhookSecret: WEBHOOK_SECRET }),
    secretKey: SECRET_KEY,
    publishableKey: PUBLISHABLE_KEY,
  })
  return {
    confirmSetup: (intent, number, clientSecret = intent.client_secret) =>
      confirmFromPage(server.url, intent, number, clientSecret),
    authenticate: (intent, outcome) => authenticateFromPage(server.url, intent, outcome),
    gateway: createStripeGateway({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: server.url,
      publishableKey: PUBLISHABLE_KEY,
      testClocks: true,
      // The sandbox's card field is how this suite types cards; Stripe mode has none.
      kind: 'sandbox',
    }),
    server,
  }
})
