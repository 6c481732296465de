import { randomUUID } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { messageText } from '../../../domain/messages'
import { apiCallsTo, memberWithCookie } from '../../../tests/support/api-calls'
import { setUpTestApp } from '../../../tests/support/test-app'
import { translate } from '../../i18n'
import { syncCustomer } from './customers'

// Saved cards and billing information through the API, on the sandbox gateway: the way the
// Add Credit Card and Modify Billing Info screens use them.

const testApp = setUpTestApp()

const member = () => memberWithCookie(testApp.app)

const call = apiCallsTo(() => testApp.app)

const nextYear = new Date().getUTCFullYear() + 1

/** Types a card into the sandbox's card field; returns the payment method id. */
async function cardField(cookie: string, number: string, language = 'en') {
  return call(
    'POST',
    '/api/billing/sandbox/cards',
    cookie,
    { number, expMonth: 12, expYear: nextYear, cvc: '123' },
    language,
  )
}

/** The card field, then Save: what Add Credit Card does. */
/** Each payment's status by its id (payments made in the same second list in any order). */
const statusesOf = (payments: { id: string; status: string }[]) =>
  Object.fromEntries(payments.map((payment) => [payment.id, payment.status]))

async function addCard(cookie: string, number: string, cardType = 'credit', language = 'en') {
  const made = await cardField(cookie, number, language)
  if (made.statusCode !== 200) return made
  return call(
    'POST',
    '/api/billing/cards',
    cookie,
    { paymentMethodId: made.json().id, cardType },
    language,
  )
}

describe('saved cards', () => {
  it('keeps brand, last four digits, expiry and the chosen type, never the number', async () => {
    const { cookie } = await member()
    const saved = await addCard(cookie, '4242 4242 4242 4242', 'debit')
    expect(saved.statusCode).toBe(200)
    expect(saved.json()).toMatchObject({
      sandbox: true,
      cards: [
        {
          brand: 'visa',
          last4: '4242',
          expMonth: 12,
          expYear: nextYear,
          cardType: 'debit',
          isDefault: true,
        },
      ],
    })
    expect((await call('GET', '/api/billing/account', cookie)).json()).toEqual(saved.json())

    const { rows } = await testApp.app.database.executeSql(
      `select count(*)::int as found from sandbox_object where data::text like '%4242424242424242%'`,
    )
    expect(rows[0]?.found).toBe(0)
  })

  it('a second card is not the default until chosen; removing the default promotes another', async () => {
    const { cookie } = await member()
    await addCard(cookie, '4242424242424242')
    const two = (await addCard(cookie, '5555 5555 5555 4444')).json().cards
    expect(
      two.map((card: { last4: string; isDefault: boolean }) => [card.last4, card.isDefault]),
    ).toEqual([
      ['4242', true],
      ['4444', false],
    ])
    const mastercard = two[1].id

    const chosen = await call('PUT', `/api/billing/cards/${mastercard}/default`, cookie)
    expect(chosen.json().cards[0]).toMatchObject({ last4: '4444', isDefault: true })

    const removed = await call('DELETE', `/api/billing/cards/${mastercard}`, cookie)
    expect(removed.statusCode).toBe(200)
    expect(removed.json().cards).toEqual([
      expect.objectContaining({ last4: '4242', isDefault: true }),
    ])
  })

  it('says why the bank refused a card, in the user’s language, and saves nothing', async () => {
    const { cookie } = await member()
    const declined = await addCard(cookie, '4000000000000002')
    expect(declined.statusCode).toBe(402)
    expect(declined.json().message).toBe('Your card was declined.')

    const spanish = await addCard(cookie, '4000000000000069', 'credit', 'es')
    expect(spanish.statusCode).toBe(402)
    expect(spanish.json().message).toBe(translate('billing.expiredCard', 'es'))

    const live = await addCard(cookie, '4111111111111111')
    expect(live.statusCode).toBe(402)
    expect(live.json().message).toBe(translate('billing.testCardsOnly', 'en'))

    expect((await call('GET', '/api/billing/account', cookie)).json().cards).toEqual([])
  })

  it('saves the cards whose charges fail later, as the provider does', async () => {
    const { cookie } = await member()
    for (const number of ['4000000000000341', '4000000000009995']) {
      expect((await addCard(cookie, number)).statusCode).toBe(200)
    }
    expect((await call('GET', '/api/billing/account', cookie)).json().cards).toHaveLength(2)
  })

  it('checks the number, the expiry and the security code before asking the bank', async () => {
    const { cookie } = await member()
    const mistyped = await cardField(cookie, '4242 4242 4242 4241')
    expect(mistyped.statusCode).toBe(400)
    expect(mistyped.json().issues).toEqual([
      { field: 'body.number', message: 'Your card number is invalid.' },
    ])
    const past = await call(
      'POST',
      '/api/billing/sandbox/cards',
      cookie,
      {
        number: '4242424242424242',
        expMonth: 1,
        expYear: 2020,
        cvc: '12',
      },
      'es',
    )
    expect(past.statusCode).toBe(400)
    expect(past.json().issues).toEqual(
      expect.arrayContaining([
        { field: 'body.cvc', message: messageText('billing.cvcInvalid', 'es') },
      ]),
    )
  })

  it('belong to their owner only: another member can neither see, use, choose nor remove them', async () => {
    const owner = await member()
    const stranger = await member()
    const card = (await addCard(owner.cookie, '4242424242424242')).json().cards[0].id
    const loose = (await cardField(owner.cookie, '5555555555554444')).json().id

    for (const attempt of [
      call('PUT', `/api/billing/cards/${card}/default`, stranger.cookie),
      call('DELETE', `/api/billing/cards/${card}`, stranger.cookie),
      call('POST', '/api/billing/cards', stranger.cookie, {
        paymentMethodId: card,
        cardType: 'credit',
      }),
    ]) {
      const response = await attempt
      expect(response.statusCode).toBe(404)
      expect(response.json().message).toBe('This card is not saved on your account.')
    }
    // A card made by the card field but not saved yet is its maker's, to save or pay with.
    expect((await call('GET', '/api/billing/account', stranger.cookie)).json().cards).toEqual([])
    expect(
      (
        await call('POST', '/api/billing/cards', owner.cookie, {
          paymentMethodId: loose,
          cardType: 'credit',
        })
      ).statusCode,
    ).toBe(200)
    expect((await call('GET', '/api/billing/account', owner.cookie)).json().cards).toHaveLength(2)
  })

  it('made by the card field, belong to the member who typed them: another who learns the id can neither save nor pay with it', async () => {
    const maker = await member()
    const stranger = await member()
    const loose = (await cardField(maker.cookie, '4242424242424242')).json().id
    const prices = (await call('GET', '/api/billing/prices', stranger.cookie)).json().prices as {
      id: string
      plan: string
    }[]
    const once = prices.find((price) => price.plan === 'one_payment')?.id

    const paid = await call('POST', '/api/billing/one-payment', stranger.cookie, {
      priceId: once,
      paymentMethodId: loose,
      attemptId: randomUUID(),
    })
    const saved = await call('POST', '/api/billing/cards', stranger.cookie, {
      paymentMethodId: loose,
      cardType: 'credit',
    })
    for (const response of [paid, saved]) {
      expect(response.statusCode, response.body).toBe(404)
      // The same answer as for an id that does not exist.
      expect(response.json().message).toBe('This card is not saved on your account.')
    }
    expect((await call('GET', '/api/billing/payments', stranger.cookie)).json().payments).toEqual(
      [],
    )
    expect((await call('GET', '/api/billing/account', stranger.cookie)).json().cards).toEqual([])
    const missing = await call('POST', '/api/billing/cards', stranger.cookie, {
      paymentMethodId: 'pm_doesNotExist000000000000',
      cardType: 'credit',
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('This card is not saved on your account.')

    // Its maker still saves it.
    const own = await call('POST', '/api/billing/cards', maker.cookie, {
      paymentMethodId: loose,
      cardType: 'credit',
    })
    expect(own.statusCode).toBe(200)
  })

  it('are for members only', async () => {
    expect((await call('GET', '/api/billing/account', '')).statusCode).toBe(401)
    expect((await cardField('', '4242424242424242')).statusCode).toBe(401)
  })

  it('limit how many cards a member may try in an hour', async () => {
    const { cookie } = await member()
    const statuses: number[] = []
    for (let attempt = 0; attempt < 21; attempt++) {
      statuses.push((await cardField(cookie, '4000000000000002')).statusCode)
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true)
    expect(statuses[20]).toBe(429)
  })
})

/** The sandbox's card field as the pages use it: the typed card, then the bank's check of it. */
async function setUpCard(cookie: string, number: string, language = 'en') {
  const made = await cardField(cookie, number, language)
  const paymentMethodId = made.json().id as string
  const confirmed = await call(
    'POST',
    '/api/billing/cards/confirm',
    cookie,
    { paymentMethodId },
    language,
  )
  return { paymentMethodId, confirmed, clientSecret: confirmed.json().clientSecret as string }
}

/**
 * A card whose bank checks each payment made with the member present (4000 0025 0000 3155),
 * checked once as it is set up, and the ONE PAYMENT price to pay with it.
 */
async function checkedCardToPay(cookie: string) {
  const { paymentMethodId, clientSecret } = await setUpCard(cookie, '4000002500003155')
  await call('POST', '/api/billing/sandbox/setups/check', cookie, {
    clientSecret,
    outcome: 'complete',
  })
  const prices = (await call('GET', '/api/billing/prices', cookie)).json().prices as {
    id: string
    plan: string
  }[]
  return { paymentMethodId, priceId: prices.find((price) => price.plan === 'one_payment')?.id }
}

describe('cards checked by the bank through a setup, as the pages do', () => {
  it('saves a card the bank accepts, and says why it refused another, saving nothing', async () => {
    const { cookie } = await member()
    const refused = await setUpCard(cookie, '4000000000000002', 'es')
    expect(refused.confirmed.statusCode).toBe(402)
    expect(refused.confirmed.json().message).toBe('Tu tarjeta ha sido rechazada.')
    const { confirmed, paymentMethodId } = await setUpCard(cookie, '4242424242424242')
    expect(confirmed.json()).toEqual({ status: 'succeeded', clientSecret: null })
    const saved = await call('POST', '/api/billing/cards', cookie, {
      paymentMethodId,
      cardType: 'debit',
    })
    expect(saved.json().cards).toEqual([
      expect.objectContaining({ last4: '4242', cardType: 'debit', isDefault: true }),
    ])
  })

  it('a card the bank accepted is the default of a member who had none, even if the page never saves it', async () => {
    const { cookie } = await member()
    const first = await setUpCard(cookie, '4242424242424242')
    const second = await setUpCard(cookie, '5555555555554444')
    const { cards } = (await call('GET', '/api/billing/account', cookie)).json()
    expect(cards).toEqual([
      expect.objectContaining({ id: first.paymentMethodId, isDefault: true }),
      expect.objectContaining({ id: second.paymentMethodId, isDefault: false }),
    ])
  })

  it('waits for the bank’s check (3-D Secure): failed, nothing is saved; completed, the card is saved', async () => {
    const { cookie } = await member()
    const first = await setUpCard(cookie, '4000002500003155')
    expect(first.confirmed.json()).toEqual({
      status: 'requires_action',
      clientSecret: expect.stringMatching(/^seti_\w+_secret_\w+$/),
    })
    const failed = await call(
      'POST',
      '/api/billing/sandbox/setups/check',
      cookie,
      { clientSecret: first.clientSecret, outcome: 'fail' },
      'es',
    )
    expect(failed.statusCode).toBe(402)
    expect(failed.json().message).toBe(
      'Tu banco no pudo confirmar esta tarjeta, así que no se ha guardado. Inténtalo de nuevo o usa otra tarjeta.',
    )
    expect((await call('GET', '/api/billing/account', cookie)).json().cards).toEqual([])

    const again = await setUpCard(cookie, '4000 0025 0000 3155')
    expect(again.confirmed.json().status).toBe('requires_action')
    const completed = await call('POST', '/api/billing/sandbox/setups/check', cookie, {
      clientSecret: again.clientSecret,
      outcome: 'complete',
    })
    expect(completed.json()).toEqual({ status: 'succeeded', clientSecret: null })
    const saved = await call('POST', '/api/billing/cards', cookie, {
      paymentMethodId: again.paymentMethodId,
      cardType: 'credit',
    })
    expect(saved.json().cards).toEqual([expect.objectContaining({ last4: '3155' })])
  })

  it('a payment the bank wants to check waits for the member’s check, then goes to the bank; a failed check says so in the member’s language', async () => {
    const { cookie } = await member()
    const { paymentMethodId, priceId } = await checkedCardToPay(cookie)
    const payNow = () =>
      call('POST', '/api/billing/one-payment', cookie, {
        priceId,
        paymentMethodId,
        attemptId: randomUUID(),
      })
    const access = async () => (await call('GET', '/api/access', cookie)).json().hasAccess

    // Failed: refused in the member's language, nothing charged.
    const failing = await payNow()
    expect(failing.statusCode).toBe(200)
    expect(failing.json().payment.status).toBe('requires_action')
    const failed = await call(
      'POST',
      '/api/billing/sandbox/payments/check',
      cookie,
      { clientSecret: failing.json().clientSecret, outcome: 'fail' },
      'es',
    )
    expect(failed.statusCode).toBe(402)
    expect(failed.json().message).toBe(
      'Tu banco no pudo confirmar este pago, así que no se ha cobrado nada. Inténtalo de nuevo o usa otra tarjeta.',
    )

    // Completed: with the bank, then paid, and the panels open.
    const made = await payNow()
    const { payment, clientSecret: secret } = made.json()
    expect(secret).toMatch(new RegExp(`^${payment.id}_secret_`))
    expect(await access()).toBe(false)
    const checked = await call('POST', '/api/billing/sandbox/payments/check', cookie, {
      clientSecret: secret,
      outcome: 'complete',
    })
    expect(checked.statusCode).toBe(200)
    expect(checked.json()).toEqual({
      payment: expect.objectContaining({ id: payment.id, status: 'processing' }),
      clientSecret: null,
    })
    // The same check again is over.
    const again = await call('POST', '/api/billing/sandbox/payments/check', cookie, {
      clientSecret: secret,
      outcome: 'complete',
    })
    expect(again.statusCode).toBe(409)
    await vi.waitFor(
      async () => {
        const { payments } = (await call('GET', '/api/billing/payments', cookie)).json()
        // Refused at the check, the payment is closed so its secret confirms nothing more.
        expect(statusesOf(payments)).toEqual({
          [failing.json().payment.id]: 'canceled',
          [payment.id]: 'succeeded',
        })
      },
      { timeout: 15_000, interval: 200 },
    )
    expect(await access()).toBe(true)
    const { payments } = (await call('GET', '/api/billing/payments', cookie)).json()
    expect(
      payments.find((listed: { id: string }) => listed.id === failing.json().payment.id),
    ).toMatchObject({
      failure:
        'Your bank could not confirm this payment, so nothing was charged. Try again or use another card.',
    })
  })

  it('a check left unanswered is given up by the next purchase, so only one payment is ever made', async () => {
    const { cookie } = await member()
    const pay = await checkedCardToPay(cookie)
    const left = (
      await call('POST', '/api/billing/one-payment', cookie, { ...pay, attemptId: randomUUID() })
    ).json()
    expect(left.payment.status).toBe('requires_action')
    // The member closed the page; later they pay again.
    const next = (
      await call('POST', '/api/billing/one-payment', cookie, { ...pay, attemptId: randomUUID() })
    ).json()
    expect(next.payment.id).not.toBe(left.payment.id)
    const { payments } = (await call('GET', '/api/billing/payments', cookie)).json()
    expect(statusesOf(payments)).toEqual({
      [left.payment.id]: 'canceled',
      [next.payment.id]: 'requires_action',
    })
    // The check of the given-up payment cannot be answered any more.
    const late = await call('POST', '/api/billing/sandbox/payments/check', cookie, {
      clientSecret: left.clientSecret,
      outcome: 'complete',
    })
    expect(late.statusCode).toBe(409)
    expect(late.json().message).toBe(
      'This check is over: the payment was answered in another window or replaced by another purchase. Look at your payments below.',
    )
  })

  it('the check of a payment is its own member’s: another member, or a made-up secret, reads 404', async () => {
    const owner = await member()
    const stranger = await member()
    const made = (
      await call('POST', '/api/billing/one-payment', owner.cookie, {
        ...(await checkedCardToPay(owner.cookie)),
        attemptId: randomUUID(),
      })
    ).json()
    const attempts = [
      await call('POST', '/api/billing/sandbox/payments/check', stranger.cookie, {
        clientSecret: made.clientSecret,
        outcome: 'complete',
      }),
      await call('POST', '/api/billing/sandbox/payments/check', owner.cookie, {
        clientSecret: `${made.payment.id}_secret_madeUp`,
        outcome: 'complete',
      }),
    ]
    attempts.push(
      await call('POST', '/api/billing/one-payment/checked', stranger.cookie, {
        paymentId: made.payment.id,
      }),
    )
    for (const answer of attempts) {
      expect(answer.statusCode).toBe(404)
      expect(answer.json().message).toBe('This payment does not exist.')
    }
    // Its own member reads it again (in Stripe mode, after Stripe's page ran the check).
    const own = await call('POST', '/api/billing/one-payment/checked', owner.cookie, {
      paymentId: made.payment.id,
    })
    expect(own.json()).toEqual({
      payment: expect.objectContaining({ id: made.payment.id, status: 'requires_action' }),
      clientSecret: null,
    })
    const malformed = await call('POST', '/api/billing/sandbox/payments/check', owner.cookie, {
      clientSecret: 'seti_123_secret_456',
      outcome: 'maybe',
    })
    expect(malformed.statusCode).toBe(400)
    for (const paymentId of [`${made.payment.id}\u0007`, `pi_${'a'.repeat(5_000)}`, 42, null]) {
      const refused = await call('POST', '/api/billing/one-payment/checked', owner.cookie, {
        paymentId,
      })
      expect(refused.statusCode).toBe(400)
      expect([
        'This payment does not exist.',
        'Some of the information sent is not valid.',
      ]).toContain(refused.json().message)
    }
    const plan = await call('POST', '/api/billing/sandbox/plan/check', owner.cookie, {
      clientSecret: { nested: true },
      outcome: 'complete',
    })
    expect(plan.statusCode).toBe(400)
    const { payments } = (await call('GET', '/api/billing/payments', owner.cookie)).json()
    expect(payments.map((listed: { status: string }) => listed.status)).toEqual(['requires_action'])
  })

  it('belong to the member who typed the card: another member, with cards of their own, can use neither card nor secret', async () => {
    const owner = await member()
    const stranger = await member()
    // The stranger has a customer of their own, so it is the comparison that refuses them.
    await addCard(stranger.cookie, '5555555555554444')
    const { clientSecret, paymentMethodId } = await setUpCard(owner.cookie, '4000002500003155')
    const attempts = [
      await call('POST', '/api/billing/cards/confirm', stranger.cookie, { paymentMethodId }),
      await call('POST', '/api/billing/sandbox/setups/check', stranger.cookie, {
        clientSecret,
        outcome: 'complete',
      }),
    ]
    for (const answer of attempts) {
      expect(answer.statusCode).toBe(404)
      expect(answer.json().message).toBe('This card is not saved on your account.')
    }
    expect((await call('GET', '/api/billing/account', owner.cookie)).json().cards).toEqual([])
    expect((await call('GET', '/api/billing/account', stranger.cookie)).json().cards).toHaveLength(
      1,
    )
  })
})

describe('billing information', () => {
  const form = {
    name: 'Ana Water',
    email: 'Billing@Example.com',
    line1: 'Calle Mayor 1',
    line2: '',
    city: 'Madrid',
    state: 'Madrid, Comunidad de',
    postalCode: '28013',
    country: 'ES',
  }

  it('is saved with the address and shown back', async () => {
    const { cookie } = await member()
    const saved = await call('PUT', '/api/billing/info', cookie, form)
    expect(saved.statusCode).toBe(200)
    expect(saved.json().billingInfo).toEqual({
      name: 'Ana Water',
      email: 'billing@example.com',
      line1: 'Calle Mayor 1',
      line2: null,
      city: 'Madrid',
      state: 'Madrid, Comunidad de',
      postalCode: '28013',
      country: 'ES',
    })
  })

  it('names each missing field in the user’s language, and keeps what was saved', async () => {
    const { cookie } = await member()
    await call('PUT', '/api/billing/info', cookie, form)
    const bad = await call(
      'PUT',
      '/api/billing/info',
      cookie,
      { ...form, line1: ' ', postalCode: '', country: 'Spain' },
      'es',
    )
    expect(bad.statusCode).toBe(400)
    expect(bad.json().issues).toEqual([
      { field: 'body.line1', message: messageText('billing.addressRequired', 'es') },
      { field: 'body.postalCode', message: messageText('billing.postalCodeRequired', 'es') },
      { field: 'body.country', message: messageText('billing.countryRequired', 'es') },
    ])
    const unknown = await call('PUT', '/api/billing/info', cookie, { ...form, country: 'XX' })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().message).toBe('Please choose your country')
    const foreignState = await call('PUT', '/api/billing/info', cookie, {
      ...form,
      state: 'California',
    })
    expect(foreignState.statusCode).toBe(400)
    expect(foreignState.json().message).toBe(
      'Please choose a state or province of the chosen country.',
    )
    expect((await call('GET', '/api/billing/account', cookie)).json().billingInfo.line1).toBe(
      'Calle Mayor 1',
    )
  })

  it('comes from the gateway by a sync that can run twice at once', async () => {
    const { user, cookie } = await member()
    await addCard(cookie, '4242424242424242')
    const before = (await call('GET', '/api/billing/account', cookie)).json()
    const { rows } = await testApp.app.database.executeSql(
      'select customer_id from billing_customer where user_id = $1',
      [user.id],
    )
    const customerId = String(rows[0]?.customer_id)
    const deps = { db: testApp.app.db, payments: testApp.app.payments }
    await Promise.all([syncCustomer(deps, customerId), syncCustomer(deps, customerId)])
    expect((await call('GET', '/api/billing/account', cookie)).json()).toEqual(before)
    const counted = await testApp.app.database.executeSql(
      'select count(*)::int as cards from billing_payment_method where user_id = $1',
      [user.id],
    )
    expect(counted.rows[0]).toEqual({ cards: 1 })
  })
})
