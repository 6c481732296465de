import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setUpTestApp } from '../../../tests/support/test-app'
import { STRIPE_API_VERSION } from '../events'
import { createSandboxGateway } from './gateway'
import { type SandboxServer, startSandboxServer } from './server'

// The sandbox's Stripe-compatible server, spoken to with plain fetch: the rules it keeps that
// the SDK would otherwise hide (keys, the pinned version, idempotency keys, Stripe's errors and
// lists). What it answers through the SDK is the gateway contract's (../contract.int.test.ts).

const SECRET_KEY = 'sk_test_server0123456789'
const PUBLISHABLE_KEY = 'pk_test_server0123456789'

const nextYear = new Date().getUTCFullYear() + 1

const testApp = setUpTestApp()
let started: SandboxServer | undefined

// After setUpTestApp's own hooks: its app exists here, and is closed after the server.
beforeAll(async () => {
  await testApp.app.ready()
  started = await startSandboxServer({
    record: true,
    gateway: createSandboxGateway(testApp.app.db, { webhookSecret: 'whsec_test' }),
    secretKey: SECRET_KEY,
  })
})

afterAll(async () => {
  await started?.close()
})

const server = () => {
  if (!started) throw new Error('started in beforeAll; use it in a test')
  return started
}

describe("the sandbox's server keeps Stripe's HTTP rules", () => {
  /** The fields of Stripe's answers the tests read (objects, lists, errors). */
  interface Answered {
    id: string
    name: string
    data: { id: string }[]
    error?: { type: string; code?: string; param?: string; message: string }
    [field: string]: unknown
  }

  /** A request as the SDK sends one, with any header left out or replaced. */
  async function send(
    method: 'GET' | 'POST',
    path: string,
    {
      form,
      headers = {},
    }: { form?: Record<string, string>; headers?: Record<string, string | undefined> } = {},
  ) {
    const all: Record<string, string | undefined> = {
      authorization: `Bearer ${SECRET_KEY}`,
      'stripe-version': STRIPE_API_VERSION,
      ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...headers,
    }
    const response = await fetch(`${server().url}${path}`, {
      method,
      headers: Object.fromEntries(
        Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    })
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Answered,
    }
  }

  it('refuses a request without a key, with a wrong one, or a publishable one', async () => {
    const missing = await send('GET', '/v1/customers/cus_x', {
      headers: { authorization: undefined },
    })
    expect(missing).toMatchObject({
      status: 401,
      body: {
        error: {
          type: 'invalid_request_error',
          message: expect.stringContaining('You did not provide an API key'),
        },
      },
    })
    const wrong = await send('GET', '/v1/customers/cus_x', {
      headers: { authorization: 'Bearer sk_test_wrong0000000000' },
    })
    expect(wrong).toMatchObject({
      status: 401,
      body: {
        error: {
          type: 'invalid_request_error',
          message: expect.stringContaining('Invalid API Key'),
        },
      },
    })
    expect(JSON.stringify(wrong.body)).not.toContain('sk_test_wrong0000000000')
    const live = await send('GET', '/v1/customers/cus_x', {
      headers: { authorization: 'Bearer sk_live_0000000000000000' },
    })
    expect(live.status).toBe(401)
    const publishable = await send('GET', '/v1/customers/cus_x', {
      headers: { authorization: `Bearer ${PUBLISHABLE_KEY}` },
    })
    expect(publishable).toMatchObject({
      status: 401,
      body: { error: { message: expect.stringContaining('publishable API key') } },
    })
  })

  it('answers the pinned API version only', async () => {
    const other = await send('GET', '/v1/customers/cus_x', {
      headers: { 'stripe-version': '2020-08-27' },
    })
    expect(other).toMatchObject({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          message: expect.stringContaining('Invalid Stripe API version: 2020-08-27'),
        },
      },
    })
    const none = await send('GET', '/v1/customers/cus_x', {
      headers: { 'stripe-version': undefined },
    })
    expect(none.status).toBe(400)
    const known = await send('GET', '/v1/customers/cus_x')
    expect(known).toMatchObject({
      status: 404,
      body: { error: { type: 'invalid_request_error', code: 'resource_missing' } },
    })
    expect(known.headers.get('stripe-version')).toBe(STRIPE_API_VERSION)
    expect(known.headers.get('request-id')).toMatch(/^req_/)
  })

  it('needs an idempotency key on every POST, and answers a key again as it first did', async () => {
    const form = { email: 'keys@example.com', name: 'Keys', 'metadata[user_id]': 'user-keys' }
    const unkeyed = await send('POST', '/v1/customers', {
      form,
      headers: { 'idempotency-key': undefined },
    })
    expect(unkeyed).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining('Idempotency-Key') } },
    })

    const key = `keys-${randomUUID()}`
    const first = await send('POST', '/v1/customers', { form, headers: { 'idempotency-key': key } })
    expect(first.status).toBe(200)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const again = await send('POST', '/v1/customers', { form, headers: { 'idempotency-key': key } })
    expect(again.body).toEqual(first.body)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    const changed = await send('POST', '/v1/customers', {
      form: { ...form, name: 'Other' },
      headers: { 'idempotency-key': key },
    })
    expect(changed).toMatchObject({ status: 400, body: { error: { type: 'idempotency_error' } } })

    // An update is answered from the key's record too, even once the object has changed.
    const id = first.body.id
    const rename = { 'idempotency-key': `rename-${randomUUID()}` }
    const renamed = await send('POST', `/v1/customers/${id}`, {
      form: { name: 'Renamed' },
      headers: rename,
    })
    await send('POST', `/v1/customers/${id}`, { form: { name: 'Changed since' } })
    const replayed = await send('POST', `/v1/customers/${id}`, {
      form: { name: 'Renamed' },
      headers: rename,
    })
    expect(replayed.body).toEqual(renamed.body)
    expect((await send('GET', `/v1/customers/${id}`)).body.name).toBe('Changed since')

    // A refusal is kept like an answer: the same request gets the same refusal.
    const refusedKey = { 'idempotency-key': `refused-${randomUUID()}` }
    const refused = await send('POST', '/v1/payment_methods/pm_missing/attach', {
      form: { customer: id },
      headers: refusedKey,
    })
    expect(refused.status).toBe(404)
    const refusedAgain = await send('POST', '/v1/payment_methods/pm_missing/attach', {
      form: { customer: id },
      headers: refusedKey,
    })
    expect(refusedAgain).toMatchObject({ status: 404, body: refused.body })
    expect(refusedAgain.headers.get('idempotent-replayed')).toBe('true')
  })

  it("refuses what it does not know, in Stripe's words", async () => {
    expect(
      await send('POST', '/v1/customers', {
        form: { name: 'Typo', 'metadata[user_id]': 'user-typo', emial: 'typo@example.com' },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        error: { type: 'invalid_request_error', code: 'parameter_unknown', param: 'emial' },
      },
    })
    expect(await send('GET', '/v1/charges')).toMatchObject({
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          message: 'Unrecognized request URL (GET: /v1/charges).',
        },
      },
    })
    expect(
      await send('POST', '/v1/payment_intents', {
        form: { amount: 'lots', currency: 'usd' },
      }),
    ).toMatchObject({
      status: 400,
      body: { error: { code: 'parameter_invalid_integer', param: 'amount' } },
    })
  })

  it('refuses a plan asked for other than the app asks, naming the parameter', async () => {
    const refused = async (path: string, form: Record<string, string>) => {
      const answer = await send(
        path.startsWith('GET ') ? 'GET' : 'POST',
        path.slice(path.indexOf(' ') + 1),
        { form: path.startsWith('GET ') ? undefined : form },
      )
      expect(answer.status, path).toBe(400)
      return answer.body.error?.param
    }
    const plan = {
      customer: 'cus_nobody',
      'items[0][price]': 'price_nothing',
      'billing_mode[type]': 'flexible',
      'metadata[plan]': 'subscription',
      'metadata[user_id]': 'user-nobody',
      'metadata[price_id]': 'price_nothing',
    }
    // Charged at once and incomplete until paid, in the billing mode pausing needs.
    expect(await refused('POST /v1/subscriptions', plan)).toBe('payment_behavior')
    expect(
      await refused('POST /v1/subscriptions', {
        ...plan,
        payment_behavior: 'allow_incomplete',
        'billing_mode[type]': 'classic',
      }),
    ).toBe('billing_mode[type]')
    // FOUR PAYMENTS lasts a number of months, not a count of charges Stripe no longer has.
    expect(
      await refused('POST /v1/subscription_schedules', {
        customer: 'cus_nobody',
        start_date: 'now',
        end_behavior: 'cancel',
        'billing_mode[type]': 'flexible',
        'phases[0][items][0][price]': 'price_nothing',
        'phases[0][iterations]': '4',
      }),
    ).toBe('phases[0][iterations]')
    // A pause that would credit the rest of the month, and a resume that would not wait for
    // its charge.
    expect(await refused('POST /v1/subscriptions/sub_nothing/pause', {})).toBe(
      'bill_for[unused_time_from][type]',
    )
    expect(
      await refused('POST /v1/subscriptions/sub_nothing/resume', {
        'billing_cycle_anchor[type]': 'now',
        proration_behavior: 'none',
      }),
    ).toBe('payment_behavior')
    expect(await refused('GET /v1/subscriptions?customer=cus_nobody', {})).toBe('status')
    expect(await refused('GET /v1/invoices?customer=cus_nobody&expand[0]=data.charge', {})).toBe(
      'expand',
    )
  })

  it('takes card numbers from the browser only, with the publishable key', async () => {
    const card = {
      type: 'card',
      'card[number]': '4242424242424242',
      'card[exp_month]': '12',
      'card[exp_year]': String(nextYear),
      'card[cvc]': '123',
    }
    const fromServer = await send('POST', '/v1/payment_methods', { form: card })
    expect(fromServer).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining('card numbers') } },
    })
    // As Stripe.js posts it: the publishable key in the body, no Authorization header.
    const fromBrowser = await send('POST', '/v1/payment_methods', {
      form: { ...card, key: PUBLISHABLE_KEY },
      headers: { authorization: undefined },
    })
    expect(fromBrowser).toMatchObject({
      status: 200,
      body: {
        object: 'payment_method',
        type: 'card',
        card: { brand: 'visa', display_brand: 'visa', last4: '4242', exp_month: 12 },
        customer: null,
        livemode: false,
      },
    })
    const recorded = server().requests.at(-1)
    expect(recorded).toMatchObject({ key: 'publishable', body: { card: { number: '…4242' } } })
    expect(JSON.stringify(server().requests)).not.toContain('4242424242424242')
    expect(JSON.stringify(recorded)).not.toContain('cvc')
    // Pages on any origin may read what Stripe.js's routes answer, and only those.
    expect(fromBrowser.headers.get('access-control-allow-origin')).toBe('*')
    const secretOnly = await send('GET', '/v1/customers/cus_none')
    expect(secretOnly.status).toBe(404)
    expect(secretOnly.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('pages lists newest first with has_more', async () => {
    const product = `prod_pages${randomUUID().replaceAll('-', '').slice(0, 12)}`
    await send('POST', '/v1/products', { form: { id: product, name: 'Pages' } })
    const ids: string[] = []
    for (const amount of ['100', '200', '300']) {
      const made = await send('POST', '/v1/prices', {
        form: {
          product,
          currency: 'usd',
          unit_amount: amount,
          nickname: `P${amount}`,
          'recurring[interval]': 'month',
          'metadata[plan]': 'subscription',
        },
      })
      expect(made.status).toBe(200)
      ids.unshift(made.body.id)
    }
    const first = await send('GET', `/v1/prices?product=${product}&limit=2`)
    expect(first.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/prices' })
    expect(first.body.data.map((price) => price.id)).toEqual(ids.slice(0, 2))
    const next = await send('GET', `/v1/prices?product=${product}&limit=2&starting_after=${ids[1]}`)
    expect(next.body).toMatchObject({ has_more: false })
    expect(next.body.data.map((price) => price.id)).toEqual(ids.slice(2))
    expect(next.body.data[0]).toMatchObject({
      object: 'price',
      unit_amount: 100,
      unit_amount_decimal: '100',
      recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
    })
    expect((await send('GET', `/v1/prices?product=${product}&limit=101`)).status).toBe(400)
  })

  it("moves a test clock forward only, refusing a frozen_time in its past in Stripe's words", async () => {
    const frozen = Math.floor(Date.now() / 1000)
    const made = await send('POST', '/v1/test_helpers/test_clocks', {
      form: { frozen_time: String(frozen), name: 'Server clock' },
    })
    expect(made).toMatchObject({
      status: 200,
      body: {
        id: expect.stringMatching(/^clock_/),
        object: 'test_helpers.test_clock',
        name: 'Server clock',
        status: 'ready',
        status_details: {},
        livemode: false,
      },
    })
    const clock = made.body.id
    const customer = await send('POST', '/v1/customers', {
      form: { name: 'On a clock', 'metadata[user_id]': 'user-on-a-clock', test_clock: clock },
    })
    expect(customer).toMatchObject({ status: 200, body: { test_clock: clock } })
    expect((await send('GET', `/v1/customers/${customer.body.id}`)).body.test_clock).toBe(clock)

    const past = await send('POST', `/v1/test_helpers/test_clocks/${clock}/advance`, {
      form: { frozen_time: String(frozen - 3_600) },
    })
    expect(past).toMatchObject({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          param: 'frozen_time',
          message: expect.stringContaining(
            "The frozen_time must be after the test clock's current frozen time",
          ),
        },
      },
    })

    // Answered at once, advancing; ready once the clock's customers have caught up.
    const target = frozen + 86_400
    const advancing = await send('POST', `/v1/test_helpers/test_clocks/${clock}/advance`, {
      form: { frozen_time: String(target) },
    })
    expect(advancing).toMatchObject({
      status: 200,
      body: { status: 'advancing', status_details: { advancing: { target_frozen_time: target } } },
    })
    let read = await send('GET', `/v1/test_helpers/test_clocks/${clock}`)
    for (let tries = 0; read.body.status === 'advancing' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      read = await send('GET', `/v1/test_helpers/test_clocks/${clock}`)
    }
    expect(read.body).toMatchObject({ status: 'ready', status_details: {} })
    expect(read.body.frozen_time).toBeGreaterThanOrEqual(target)
    // The time it was advanced to is now its past.
    expect(
      await send('POST', `/v1/test_helpers/test_clocks/${clock}/advance`, {
        form: { frozen_time: String(target) },
      }),
    ).toMatchObject({ status: 400, body: { error: { param: 'frozen_time' } } })

    expect(
      await send('POST', '/v1/test_helpers/test_clocks/clock_missing/advance', {
        form: { frozen_time: String(target) },
      }),
    ).toMatchObject({ status: 404, body: { error: { code: 'resource_missing' } } })
    expect(
      await send('POST', '/v1/customers', {
        form: { name: 'Lost', 'metadata[user_id]': 'user-lost', test_clock: 'clock_missing' },
      }),
    ).toMatchObject({
      status: 404,
      body: { error: { code: 'resource_missing', param: 'test_clock' } },
    })
  })
})
