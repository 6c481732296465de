import { randomUUID } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { apiCallsTo, billingCallsTo, memberWithCookie } from '../../../tests/support/api-calls'
import { setUpTestApp } from '../../../tests/support/test-app'
import { SANDBOX_BANK_DELAY } from '../../payments/plugin'

// ONE PAYMENT through the API on the sandbox: the charge, the bank's answer a moment later
// (a job, as a provider's webhook), and what that opens.

const testApp = setUpTestApp({}, { jobs: { pollingIntervalSeconds: 0.5 } })

const member = () => memberWithCookie(testApp.app)

const call = apiCallsTo(() => testApp.app)

const { priceOf, cardField: card, saveCard } = billingCallsTo(call)

async function payNow(cookie: string, number: string, extra: object = {}, language = 'en') {
  return call(
    'POST',
    '/api/billing/one-payment',
    cookie,
    {
      priceId: await priceOf(cookie, 'one_payment'),
      paymentMethodId: await card(cookie, number),
      attemptId: randomUUID(),
      ...extra,
    },
    language,
  )
}

const paymentsOf = async (cookie: string) =>
  (await call('GET', '/api/billing/payments', cookie)).json().payments as {
    id: string
    status: string
  }[]

/** The payment once the bank has answered, as the pay screen's polling sees it. */
async function settled(cookie: string, id: string) {
  return vi.waitFor(
    async () => {
      const payment = (await paymentsOf(cookie)).find((candidate) => candidate.id === id)
      if (!payment || payment.status === 'processing') throw new Error('still processing')
      return payment
    },
    { timeout: 30_000, interval: 200 },
  )
}

interface Card {
  last4: string
  isDefault: boolean
}

const access = async (cookie: string) => (await call('GET', '/api/access', cookie)).json()

describe('Pay now (ONE PAYMENT)', () => {
  it('is pending at once, paid a moment later, and then opens the panels', async () => {
    const { cookie } = await member()
    const paid = await payNow(cookie, '4242424242424242', { receiptEmail: 'Copy@Example.com' })
    expect(paid.statusCode).toBe(200)
    const { payment } = paid.json()
    // The bank answers in a job, so the answer to Pay now is always the pending state.
    expect(payment).toMatchObject({ status: 'processing', amount: 14_900, failure: null })
    // The product's window, which only tests that never look at a charge with the bank shorten.
    const { rows } = await testApp.app.database.executeSql(
      `select extract(epoch from start_after - created_on)::float8 as delay from pgboss.job
       where name = 'sandbox.bank' and data->'data'->>'paymentIntentId' = $1`,
      [payment.id],
    )
    expect(rows).toHaveLength(1)
    expect(Number(rows[0]?.delay)).toBeGreaterThanOrEqual(SANDBOX_BANK_DELAY.minSeconds)
    expect(Number(rows[0]?.delay)).toBeLessThanOrEqual(SANDBOX_BANK_DELAY.maxSeconds)

    expect(await settled(cookie, payment.id)).toMatchObject({ status: 'succeeded' })
    expect(await access(cookie)).toMatchObject({
      hasAccess: true,
      flow: { kind: 'payment', status: 'paid' },
    })
  })

  it('says at once when the bank refuses the card, in the user’s language, and a new try may follow', async () => {
    const { cookie } = await member()
    const refused = await payNow(cookie, '4000000000000002', {}, 'es')
    expect(refused.statusCode).toBe(402)
    expect(refused.json().message).toBe('Tu tarjeta ha sido rechazada.')
    expect(await paymentsOf(cookie)).toEqual([
      expect.objectContaining({
        status: 'requires_payment_method',
        failure: 'Your card was declined.',
      }),
    ])
    expect(await access(cookie)).toMatchObject({
      hasAccess: false,
      flow: { kind: 'payment', status: 'unpaid' },
    })

    const retry = await payNow(cookie, '4242424242424242')
    expect(retry.statusCode).toBe(200)
    expect(await settled(cookie, retry.json().payment.id)).toMatchObject({ status: 'succeeded' })
    expect((await access(cookie)).hasAccess).toBe(true)
  })

  it('reports a charge the bank refuses later (insufficient funds) when it settles', async () => {
    const { cookie } = await member()
    const paid = await payNow(cookie, '4000000000009995')
    expect(paid.statusCode).toBe(200)
    expect(await settled(cookie, paid.json().payment.id)).toMatchObject({
      status: 'requires_payment_method',
      failure: 'Your card has insufficient funds.',
    })
    expect((await access(cookie)).hasAccess).toBe(false)
  })

  it('makes the card that paid the default, not the saved card the bank refused before it', async () => {
    const { cookie } = await member()
    const defaults = async () =>
      Object.fromEntries(
        ((await call('GET', '/api/billing/account', cookie)).json().cards as Card[]).map(
          (saved) => [saved.last4, saved.isDefault],
        ),
      )
    const pay = async (paymentMethodId: string) => {
      const made = await call('POST', '/api/billing/one-payment', cookie, {
        priceId: await priceOf(cookie, 'one_payment'),
        paymentMethodId,
        attemptId: randomUUID(),
      })
      expect(made.statusCode, made.body).toBe(200)
      return settled(cookie, made.json().payment.id)
    }
    // The pay page saves a typed card before paying with it; the first is the default.
    const poor = await saveCard(cookie, '4000000000009995')
    expect(await pay(poor)).toMatchObject({ status: 'requires_payment_method' })
    expect(await defaults()).toEqual({ '9995': true })

    const good = await saveCard(cookie, '4242424242424242')
    expect(await defaults()).toEqual({ '9995': true, '4242': false })
    expect(await pay(good)).toMatchObject({ status: 'succeeded' })
    await vi.waitFor(async () => expect(await defaults()).toEqual({ '9995': false, '4242': true }))

    // Afterwards the member's own choice stands: later syncs do not move it back.
    expect((await call('PUT', `/api/billing/cards/${poor}/default`, cookie)).statusCode).toBe(200)
    await saveCard(cookie, '5555555555554444')
    expect(await defaults()).toEqual({ '9995': true, '4242': false, '4444': false })
  })

  it('charges once for two tries at the same moment, and never again once paid', async () => {
    const { user, cookie } = await member()
    const priceId = await priceOf(cookie, 'one_payment')
    const [first, second] = await Promise.all(
      [await card(cookie, '4242424242424242'), await card(cookie, '4242424242424242')].map(
        (paymentMethodId) =>
          call('POST', '/api/billing/one-payment', cookie, {
            priceId,
            paymentMethodId,
            attemptId: randomUUID(),
          }),
      ),
    )
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 409])
    const made = [first, second].find((response) => response?.statusCode === 200)
    await settled(cookie, made?.json().payment.id)
    const again = await payNow(cookie, '4242424242424242')
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe(
      'This plan is already paid, or its payment is still in progress.',
    )
    const { rows } = await testApp.app.database.executeSql(
      `select count(*)::int as charges from sandbox_object
        where type = 'payment_intent' and data->'metadata'->>'user_id' = $1`,
      [user.id],
    )
    expect(rows[0]?.charges).toBe(1)
  })

  it('takes only a one-time price, on sale, with a card that is not someone else’s', async () => {
    const owner = await member()
    const stranger = await member()
    const ownersCard = await card(owner.cookie, '4242424242424242')
    await call('POST', '/api/billing/cards', owner.cookie, {
      paymentMethodId: ownersCard,
      cardType: 'credit',
    })
    const attempt = (priceId: string, paymentMethodId: string) =>
      call('POST', '/api/billing/one-payment', stranger.cookie, {
        priceId,
        paymentMethodId,
        attemptId: randomUUID(),
      })

    const subscription = await attempt(
      await priceOf(stranger.cookie, 'subscription'),
      await card(stranger.cookie, '4242424242424242'),
    )
    expect(subscription.statusCode).toBe(400)
    expect(subscription.json().message).toBe('This price is not a one-time payment.')

    const unknown = await attempt('price_unknown', await card(stranger.cookie, '4242424242424242'))
    expect(unknown.statusCode).toBe(404)

    const borrowed = await attempt(await priceOf(stranger.cookie, 'one_payment'), ownersCard)
    expect(borrowed.statusCode).toBe(404)
    expect(borrowed.json().message).toBe('This card is not saved on your account.')
    expect((await call('GET', '/api/billing/payments', stranger.cookie)).json().payments).toEqual(
      [],
    )
  })

  it('asks for a price when none is chosen, in the spec’s words', async () => {
    const { cookie } = await member()
    const response = await call('POST', '/api/billing/one-payment', cookie, {
      priceId: '',
      paymentMethodId: await card(cookie, '4242424242424242'),
      attemptId: randomUUID(),
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().issues).toEqual([
      { field: 'body.priceId', message: '*Select a Price Plan first' },
    ])
  })
})
