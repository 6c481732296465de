import { randomInt, randomUUID } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { apiCallsTo, billingCallsTo, memberWithCookie } from '../../../tests/support/api-calls'
import { setUpTestApp } from '../../../tests/support/test-app'

// What a card tester gets through the API: card tries are limited per address as well as per
// member, and past three refusals in an hour (of the member or of the address) a refusal says
// only that the card was declined, whatever the bank's reason.

const testApp = setUpTestApp({}, { jobs: { pollingIntervalSeconds: 0.5 } })

const member = () => memberWithCookie(testApp.app)

const nextYear = new Date().getUTCFullYear() + 1

/**
 * Calls from an address of their own, shared by every member the test signs in there (random,
 * so that counts kept in a shared Redis by an earlier run are not found again).
 */
const newAddress = () =>
  apiCallsTo(() => testApp.app, {
    from: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
  })

type Call = ReturnType<typeof apiCallsTo>

const cardField = (call: Call, cookie: string, number: string, language = 'en') =>
  call(
    'POST',
    '/api/billing/sandbox/cards',
    cookie,
    { number, expMonth: 12, expYear: nextYear, cvc: '123' },
    language,
  )

/** Add Credit Card: the card field, then Save; the answer of whichever refused it. */
async function addCard(call: Call, cookie: string, number: string, language = 'en') {
  const made = await cardField(call, cookie, number, language)
  if (made.statusCode !== 200) return made
  return call(
    'POST',
    '/api/billing/cards',
    cookie,
    { paymentMethodId: made.json().id, cardType: 'credit' },
    language,
  )
}

const refusal = async (answer: ReturnType<Call>) => {
  const response = await answer
  expect(response.statusCode, response.body).toBe(402)
  return response.json().message as string
}

const EXPIRED = '4000000000000069'
const WRONG_CVC = '4000000000000127'
const REFUSED_LATER = '4000000000009995'

describe('card tries', () => {
  it('are limited per address too: three accounts from one address get 30 an hour between them', async () => {
    const call = newAddress()
    const members = await Promise.all([member(), member(), member()])
    const answers: number[] = []
    for (const { cookie } of members) {
      for (let attempt = 0; attempt < 11; attempt++) {
        answers.push((await cardField(call, cookie, '4242424242424242')).statusCode)
      }
    }
    expect(answers.slice(0, 30).every((status) => status === 200)).toBe(true)
    expect(answers.slice(30)).toEqual([429, 429, 429])
    // A member elsewhere is not held up by that address.
    const elsewhere = await member()
    expect((await cardField(newAddress(), elsewhere.cookie, '4242424242424242')).statusCode).toBe(
      200,
    )
  })

  it('refused past the third time in an hour, say only that the card was declined, in the member’s language', async () => {
    const call = newAddress()
    const { cookie } = await member()
    expect(await refusal(addCard(call, cookie, EXPIRED))).toBe('Your card has expired.')
    expect(await refusal(addCard(call, cookie, WRONG_CVC))).toBe(
      "Your card's security code is incorrect.",
    )
    expect(await refusal(addCard(call, cookie, '4111111111111111'))).toBe(
      'Your card was declined. The sandbox takes test card numbers only, such as 4242 4242 4242 4242.',
    )
    // The fourth and later: the same words whatever the reason.
    expect(await refusal(addCard(call, cookie, EXPIRED))).toBe('Your card was declined.')
    expect(await refusal(addCard(call, cookie, WRONG_CVC, 'es'))).toBe(
      'Tu tarjeta ha sido rechazada.',
    )
    expect(await refusal(addCard(call, cookie, '4111111111111111'))).toBe('Your card was declined.')
    // A failed check of the bank's says no more: it would tell a card tester the card is real.
    const checked = (await cardField(call, cookie, '4000002500003155')).json().id
    const waiting = await call('POST', '/api/billing/cards/confirm', cookie, {
      paymentMethodId: checked,
    })
    expect(
      await refusal(
        call('POST', '/api/billing/sandbox/setups/check', cookie, {
          clientSecret: waiting.json().clientSecret,
          outcome: 'fail',
        }),
      ),
    ).toBe('Your card was declined.')
    // A good card is still saved.
    expect((await addCard(call, cookie, '4242424242424242')).statusCode).toBe(200)
  })

  it('refused three times from one address, say only that the card was declined to the next account there', async () => {
    const call = newAddress()
    const first = await member()
    for (const number of [EXPIRED, WRONG_CVC, EXPIRED]) {
      expect(await refusal(addCard(call, first.cookie, number))).not.toBe('Your card was declined.')
    }
    const second = await member()
    expect(await refusal(addCard(call, second.cookie, EXPIRED))).toBe('Your card was declined.')
    // The same account from another address still hears its reasons.
    const third = await member()
    expect(await refusal(addCard(newAddress(), third.cookie, EXPIRED))).toBe(
      'Your card has expired.',
    )
  })

  it('refused by the bank after Pay now answered, say their reason three times, then only that the card was declined', async () => {
    const call = newAddress()
    const { cookie } = await member()
    const { priceOf } = billingCallsTo(call)
    const price = await priceOf(cookie, 'one_payment')
    const failures = async () =>
      (await call('GET', '/api/billing/payments', cookie)).json().payments as {
        status: string
        failure: string | null
      }[]
    for (let attempt = 1; attempt <= 4; attempt++) {
      const card = (await cardField(call, cookie, REFUSED_LATER)).json().id
      const paid = await call('POST', '/api/billing/one-payment', cookie, {
        priceId: price,
        paymentMethodId: card,
        attemptId: randomUUID(),
      })
      expect(paid.statusCode, paid.body).toBe(200)
      // The pay screen polls until the bank has answered.
      const listed = await vi.waitFor(
        async () => {
          const payments = await failures()
          if (payments.some((payment) => payment.status === 'processing'))
            throw new Error('still with the bank')
          return payments
        },
        { timeout: 30_000, interval: 200 },
      )
      expect(listed).toHaveLength(attempt)
      const reason = attempt <= 3 ? 'Your card has insufficient funds.' : 'Your card was declined.'
      expect(listed.map((payment) => payment.failure)).toEqual(Array(attempt).fill(reason))
    }
    // And a refusal answered at once is past them too.
    expect(await refusal(addCard(call, cookie, EXPIRED))).toBe('Your card was declined.')
  })
})
