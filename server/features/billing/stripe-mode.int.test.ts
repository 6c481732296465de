import { randomUUID } from 'node:crypto'
import { eq, isNull, like } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { billingCustomers, billingEvents } from '../../../db/schema/billing'
import { mailOutbox } from '../../../db/schema/mail'
import { apiCallsTo, memberWithCookie } from '../../../tests/support/api-calls'
import { STRIPE_PDFS, startStripeStandIn } from '../../../tests/support/stripe-standin'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'

// The app with PAYMENTS=stripe, as an operator runs it with Stripe's keys, pointed by
// STRIPE_API_URL at a Stripe-compatible stand-in (the sandbox's server on a database of its
// own). The app has no sandbox here: a card reaches it only as a payment method saved through a
// setup intent that the page confirmed with Stripe, never as numbers.

let stripeSide: { environment: TestEnvironment; app: FastifyInstance } | undefined
let standIn: Awaited<ReturnType<typeof startStripeStandIn>> | undefined
let environment: TestEnvironment | undefined
let app: FastifyInstance | undefined

beforeAll(async () => {
  // Stripe's own database: a second environment, never read by the app under test.
  const stripeEnvironment = await createTestEnvironment()
  stripeSide = { environment: stripeEnvironment, app: await stripeEnvironment.build() }
  standIn = await startStripeStandIn(stripeSide.app.db)
  environment = await createTestEnvironment(standIn.env)
  // Retries a second apart: the outage test waits for the job to try again.
  app = await environment.build({ jobs: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 } })
  standIn.sendEventsTo(() => built(app))
})

afterAll(async () => {
  await app?.close()
  await environment?.destroy()
  await standIn?.close()
  await stripeSide?.app.close()
  await stripeSide?.environment.destroy()
})

function built<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('built in beforeAll')
  return value
}

const call = apiCallsTo(() => built(app))
const stripe = () => built(standIn)

/**
 * Add Credit Card in Stripe mode: Stripe's field makes the card, the app has the bank check it
 * (a setup confirmed on the server), then Save.
 */
async function saveThroughStripe(cookie: string, number: string, cardType = 'credit') {
  const made = await stripe().makeCard(number)
  const paymentMethodId = made.id ?? ''
  const confirmed = await call('POST', '/api/billing/cards/confirm', cookie, { paymentMethodId })
  if (confirmed.statusCode !== 200) return { refused: confirmed, saved: null, paymentMethodId }
  expect(confirmed.json()).toEqual({ status: 'succeeded', clientSecret: null })
  const saved = await call('POST', '/api/billing/cards', cookie, { paymentMethodId, cardType })
  return { refused: null, saved, paymentMethodId }
}

/** An event about a customer, signed as Stripe signs them: with the SDK and the endpoint's secret. */
function signedEvent(customer: string) {
  const id = `evt_${randomUUID().replaceAll('-', '')}`
  const payload = JSON.stringify({
    id,
    object: 'event',
    type: 'customer.updated',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: customer, object: 'customer' } },
  })
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: stripe().webhookSecret,
  })
  return { id, payload, signature }
}

describe('Stripe mode', () => {
  it('starts against the Stripe API named, and tells the page to use Stripe’s card field', async () => {
    expect((await built(app).inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
    const { cookie } = await memberWithCookie(built(app))
    const account = await call('GET', '/api/billing/account', cookie)
    expect(account.json()).toMatchObject({
      sandbox: false,
      publishableKey: stripe().publishableKey,
      cards: [],
    })
    // Card numbers never reach the app in Stripe mode: the sandbox's field is not there.
    const typed = await call('POST', '/api/billing/sandbox/cards', cookie, {
      number: '4242424242424242',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 1,
      cvc: '123',
    })
    expect(typed.statusCode).toBe(404)
    // Stripe's hosts are allowed on the pages, so its field can load.
    const page = await built(app).inject({ method: 'GET', url: '/' })
    expect(page.headers['content-security-policy']).toContain('https://js.stripe.com')
  })

  it('saves a card confirmed with Stripe to the member’s own customer, and the first is the default', async () => {
    const { cookie, user } = await memberWithCookie(built(app))
    const { saved, paymentMethodId } = await saveThroughStripe(cookie, '4000056655665556', 'debit')
    expect(saved?.statusCode).toBe(200)
    expect(saved?.json().cards).toEqual([
      expect.objectContaining({
        id: paymentMethodId,
        brand: 'visa',
        last4: '5556',
        cardType: 'debit',
        isDefault: true,
      }),
    ])
    // Stripe holds the member's customer, traced back to them, with the card as its default.
    const customers = await stripe().sandbox.listPaymentMethods(
      (await stripe().sandbox.retrievePaymentMethod(paymentMethodId ?? ''))?.customer ?? '',
    )
    expect(customers.map((method) => method.id)).toEqual([paymentMethodId])
    const customer = await stripe().sandbox.retrieveCustomer(customers[0]?.customer ?? '')
    expect(customer?.metadata.user_id).toBe(user.id)
    expect(customer?.invoice_settings.default_payment_method).toBe(paymentMethodId)
  })

  it('a card Stripe refuses at the setup is saved nowhere, and another member cannot take a saved one', async () => {
    const { cookie } = await memberWithCookie(built(app))
    const { refused, paymentMethodId: declined } = await saveThroughStripe(
      cookie,
      '4000000000000002',
    )
    expect(refused?.statusCode).toBe(402)
    expect(refused?.json().message).toBe('Your card was declined.')
    expect((await call('GET', '/api/billing/account', cookie)).json().cards).toEqual([])
    expect((await stripe().sandbox.retrievePaymentMethod(declined))?.customer).toBeNull()

    const { paymentMethodId } = await saveThroughStripe(cookie, '4242424242424242')
    const other = await memberWithCookie(built(app))
    const taken = await call('POST', '/api/billing/cards', other.cookie, {
      paymentMethodId,
      cardType: 'credit',
    })
    expect(taken.statusCode).toBe(404)
    expect((await call('GET', '/api/billing/account', other.cookie)).json().cards).toEqual([])
  })

  it('hands the page a secret only for the bank’s check, and counts every card tried', async () => {
    const { cookie } = await memberWithCookie(built(app))
    const checked = await stripe().makeCard('4000002500003155')
    const waiting = await call('POST', '/api/billing/cards/confirm', cookie, {
      paymentMethodId: checked.id,
    })
    expect(waiting.json()).toEqual({
      status: 'requires_action',
      clientSecret: expect.stringMatching(/^seti_\w+_secret_\w+$/),
    })
    // Stripe.js runs the bank's page with it; the card is saved once the check is complete.
    const secret = waiting.json().clientSecret as string
    await stripe().sandbox.authenticateSetupIntent(secret.split('_secret_')[0] ?? '', {
      clientSecret: secret,
      outcome: 'complete',
    })
    const saved = await call('POST', '/api/billing/cards', cookie, {
      paymentMethodId: checked.id,
      cardType: 'credit',
    })
    expect(saved.json().cards).toEqual([expect.objectContaining({ last4: '3155' })])

    // Trying cards is limited per member (20 an hour, the one above included), whatever the bank says.
    const statuses: number[] = []
    for (let attempt = 0; attempt < 20; attempt++) {
      const card = await stripe().makeCard('4000000000000002')
      statuses.push(
        (await call('POST', '/api/billing/cards/confirm', cookie, { paymentMethodId: card.id }))
          .statusCode,
      )
    }
    expect(statuses.slice(0, 18).every((status) => status === 402)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
  })

  it('a sync while Stripe does not answer is retried when it answers again, and loses nothing', async () => {
    const { cookie, user } = await memberWithCookie(built(app))
    const { paymentMethodId } = await saveThroughStripe(cookie, '4242424242424242')
    const customer =
      (await stripe().sandbox.retrievePaymentMethod(paymentMethodId ?? ''))?.customer ?? ''
    // The syncs of what came before are done, so what tries Stripe below is this event's.
    await vi.waitFor(
      async () => {
        const [waiting] = await built(app)
          .db.select({ id: billingEvents.id })
          .from(billingEvents)
          .where(isNull(billingEvents.processedAt))
        expect(waiting).toBeUndefined()
      },
      { timeout: 30_000, interval: 100 },
    )
    // Changed at Stripe (its dashboard), then Stripe is out of reach when the event comes.
    await stripe().sandbox.updateCustomer(customer, { name: 'Renamed At Stripe' })
    await stripe().goAway()
    const event = signedEvent(customer)
    const delivered = await built(app).inject({
      method: 'POST',
      url: '/api/billing/webhook',
      payload: event.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    })
    // Recorded and answered at once: the sync is the job's, which fails and is retried.
    expect(delivered.statusCode).toBe(200)
    const processed = async () =>
      (
        await built(app)
          .db.select({ at: billingEvents.processedAt })
          .from(billingEvents)
          .where(eq(billingEvents.id, event.id))
      )[0]?.at ?? null
    // The SDK tries three times per sync; more than that is the job trying again.
    await vi.waitFor(() => expect(stripe().outage.attempts).toBeGreaterThan(3), {
      timeout: 30_000,
      interval: 100,
    })
    expect(await processed()).toBeNull()

    await stripe().comeBack()
    await vi.waitFor(async () => expect(await processed()).not.toBeNull(), {
      timeout: 60_000,
      interval: 200,
    })
    const [row] = await built(app)
      .db.select({ name: billingCustomers.name })
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, user.id))
    expect(row?.name).toBe('Renamed At Stripe')
    expect((await call('GET', '/api/billing/account', cookie)).json().cards).toEqual([
      expect.objectContaining({ id: paymentMethodId, isDefault: true }),
    ])
  })

  it('takes ONE PAYMENT with the saved card, with its receipt sent by Stripe, and opens the panels', async () => {
    const { cookie } = await memberWithCookie(built(app))
    const { paymentMethodId } = await saveThroughStripe(cookie, '4242424242424242')
    const prices = (await call('GET', '/api/billing/prices', cookie)).json().prices as {
      id: string
      plan: string
    }[]
    const price = prices.find((candidate) => candidate.plan === 'one_payment')
    const paid = await call('POST', '/api/billing/one-payment', cookie, {
      priceId: price?.id,
      paymentMethodId,
      receiptEmail: 'Copy@Example.com',
      attemptId: randomUUID(),
    })
    expect(paid.statusCode).toBe(200)
    const sent = stripe().server.requests.find(
      (request) =>
        request.method === 'POST' &&
        request.path === '/v1/payment_intents' &&
        request.body.payment_method === paymentMethodId,
    )
    expect(sent?.body).toMatchObject({ receipt_email: 'copy@example.com', confirm: 'true' })
    // Stripe's event reaches the webhook, whose sync opens the panels.
    await vi.waitFor(
      async () => {
        const access = (await call('GET', '/api/access', cookie)).json()
        expect(access).toMatchObject({ hasAccess: true })
      },
      { timeout: 15_000, interval: 100 },
    )

    // Stripe's invoice, with Stripe's PDF: the history sends the member there, and the mail
    // links to it rather than attaching one of ours.
    const [invoice] = (await call('GET', '/api/billing/invoices', cookie)).json().invoices as {
      id: string
      number: string
      pdfUrl: string
    }[]
    const stripePdf = `${STRIPE_PDFS}/${invoice?.id}/pdf`
    const pdf = await call('GET', invoice?.pdfUrl ?? '', cookie)
    expect(pdf.statusCode).toBe(302)
    expect(pdf.headers.location).toBe(stripePdf)
    const mails = await vi.waitFor(
      async () => {
        const rows = await built(app)
          .db.select()
          .from(mailOutbox)
          .where(like(mailOutbox.subject, `%${invoice?.number}%`))
        if (rows.length < 2) throw new Error('invoice mail not delivered yet')
        return rows
      },
      { timeout: 15_000, interval: 100 },
    )
    // The mail's link goes through the app, which sends the member to Stripe's address of now.
    const link = `${built(app).config.publicUrl}${invoice?.pdfUrl}`
    for (const mail of mails) {
      expect(mail.attachments).toEqual([])
      expect(mail.text).toContain(`Download invoice ${invoice?.number} (PDF)\n${link}`)
      expect(mail.html).toContain(`<a href="${link}"`)
    }
  })
})
