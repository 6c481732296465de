import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { buildUser } from '../../../tests/support/factories'
import { createTestEnvironment, setUpTestApp } from '../../../tests/support/test-app'
import { PRODUCT } from './catalog'
import { archivePrice, createPrice, ensureCatalog, listAllPrices } from './service'

const testApp = setUpTestApp()

const deps = () => ({ db: testApp.app.db, payments: testApp.app.payments })

async function member() {
  const { session } = await buildUser(testApp.app)
  return session?.header ?? ''
}

const prices = (cookie?: string, language = 'en') =>
  testApp.app.inject({
    method: 'GET',
    url: '/api/billing/prices',
    headers: { 'accept-language': language, ...(cookie ? { cookie } : {}) },
  })

describe('the price list (spec core §2)', () => {
  it('a new installation sells one payment, four payments and a subscription', async () => {
    const response = await prices(await member())
    expect(response.statusCode).toBe(200)
    const listed = response.json().prices
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          nickname: 'ONE_PAYMENT',
          label: 'ONE PAYMENT',
          plan: 'one_payment',
          unitAmount: 14_900,
          currency: 'usd',
          active: true,
        }),
        expect.objectContaining({ label: 'FOUR PAYMENTS', plan: 'four_payments' }),
        expect.objectContaining({ label: 'SUBSCRIPTION', plan: 'subscription' }),
      ]),
    )
    expect(listed).toHaveLength(3)
    for (const price of listed) expect(price.id).toMatch(/^price_[A-Za-z0-9]{24}$/)
  })

  it('is for members: a visitor is asked to sign in, in their language', async () => {
    const response = await prices(undefined, 'es')
    expect(response.statusCode).toBe(401)
    expect(response.json().message).toMatch(/inicia sesión/i)
  })

  it('lists a new price and drops an archived one; the operator still sees both', async () => {
    const cookie = await member()
    const created = await createPrice(deps(), {
      nickname: 'SPRING_OFFER',
      plan: 'one_payment',
      unitAmount: 9_900,
    })
    expect(created).toMatchObject({ label: 'SPRING OFFER', active: true })
    const listed = (await prices(cookie)).json().prices as { id: string; plan: string }[]
    expect(listed.map((price) => price.id)).toContain(created.id)
    // Grouped by plan, one payment first.
    expect(listed.map((price) => price.plan)).toEqual([
      'one_payment',
      'one_payment',
      'four_payments',
      'subscription',
    ])

    expect(await archivePrice(deps(), created.id)).toMatchObject({ active: false })
    const onSale = (await prices(cookie)).json().prices as { id: string }[]
    expect(onSale.map((price) => price.id)).not.toContain(created.id)
    const all = await listAllPrices(testApp.app.db)
    expect(all.find((price) => price.id === created.id)).toMatchObject({ active: false })
  })

  it('says so when the operator archives a price that does not exist', async () => {
    await expect(archivePrice(deps(), 'price_doesNotExist')).rejects.toMatchObject({
      statusCode: 404,
      messageKey: 'billing.priceNotFound',
    })
  })
})

describe('the catalog', () => {
  it('is made once, even by servers starting together, and never again after changes', async () => {
    const before = await listAllPrices(testApp.app.db)
    await Promise.all([ensureCatalog(deps()), ensureCatalog(deps()), ensureCatalog(deps())])
    const defaults = (await testApp.app.payments.listPrices(PRODUCT.id)).filter((price) =>
      ['ONE_PAYMENT', 'FOUR_PAYMENTS', 'SUBSCRIPTION'].includes(price.nickname),
    )
    expect(defaults).toHaveLength(3)

    // The operator took a default off sale: the next start leaves it so.
    const one = before.find((price) => price.nickname === 'ONE_PAYMENT')
    if (!one) throw new Error('no ONE_PAYMENT price')
    await archivePrice(deps(), one.id)
    await ensureCatalog(deps())
    const after = await listAllPrices(testApp.app.db)
    expect(after.find((price) => price.id === one.id)).toMatchObject({ active: false })
    expect(after.filter((price) => price.nickname === 'ONE_PAYMENT')).toHaveLength(1)
  })
})

describe('the sandbox gateway', () => {
  it('answers a repeated create with the same idempotency key with the first object', async () => {
    const { payments } = testApp.app
    const input = {
      product: PRODUCT.id,
      nickname: 'RETRIED',
      unitAmount: 5_000,
      currency: 'usd' as const,
      plan: 'subscription' as const,
    }
    const [first, second] = await Promise.all([
      payments.createPrice(input, { idempotencyKey: 'retry-1' }),
      payments.createPrice(input, { idempotencyKey: 'retry-1' }),
    ])
    expect(second).toEqual(first)
    const third = await payments.createPrice(input, { idempotencyKey: 'retry-2' })
    expect(third.id).not.toBe(first.id)
    expect(first).toMatchObject({
      object: 'price',
      type: 'recurring',
      recurring: { interval: 'month', interval_count: 1 },
      metadata: { plan: 'subscription' },
    })
  })

  it('never changes a price but its being on sale', async () => {
    const { payments } = testApp.app
    const price = await payments.createPrice({
      product: PRODUCT.id,
      nickname: 'ONCE',
      unitAmount: 2_000,
      currency: 'usd',
      plan: 'one_payment',
    })
    expect(price).toMatchObject({ type: 'one_time', recurring: null })
    const archived = await payments.updatePrice(price.id, { active: false })
    expect(archived).toEqual({ ...price, active: false })
    expect(await payments.updatePrice('price_unknown', { active: false })).toBeNull()
  })
})

describe('PAYMENTS=stripe', () => {
  it('does not start while Stripe does not answer, rather than show prices it cannot charge', async () => {
    // A port nobody listens on: the catalog is checked at Stripe before the first request.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo
        probe.close(() => resolve(port))
      })
    })
    const environment = await createTestEnvironment({
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_not_a_real_key',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_not_a_real_key',
      STRIPE_WEBHOOK_SECRET: 'whsec_not_a_real_secret',
      STRIPE_API_URL: `http://127.0.0.1:${closed}`,
    })
    try {
      await expect(environment.build()).rejects.toThrow(/connection to Stripe/)
    } finally {
      await environment.destroy()
    }
  })
})
