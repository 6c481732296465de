import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { billingCustomers } from '../../../db/schema/billing'
import {
  apiCallsTo,
  billingCallsTo,
  memberWithCookie,
  planCallsTo,
} from '../../../tests/support/api-calls'
import { setUpTestApp } from '../../../tests/support/test-app'
import type { PaymentGateway } from '../../payments/gateway'
import { advanceClock } from './clock'
import { syncCustomer } from './customers'

// Money actions of one member sent at the same moment (two tabs, a double click, a script), and
// the rule behind them: one action at a time per member, each deciding inside its turn from
// fresh rows, with no database transaction open while the provider is called. What is checked
// is what a member or an operator would notice: how often the card was charged, the answers,
// and the plan it ends in.

const testApp = setUpTestApp({}, { jobs: { pollingIntervalSeconds: 0.5 } })

const call = apiCallsTo(() => testApp.app)

const { planOf, invoicesOf, planWhen } = planCallsTo(call)

const member = () => memberWithCookie(testApp.app)

const { priceOf, cardField, saveCard } = billingCallsTo(call)

const paymentsOf = async (cookie: string) =>
  (await call('GET', '/api/billing/payments', cookie)).json().payments as {
    id: string
    status: string
  }[]

/** Once the bank has answered every charge: no payment and no plan charge still with it. */
async function settled(cookie: string) {
  return vi.waitFor(
    async () => {
      const payments = await paymentsOf(cookie)
      const plan = await planOf(cookie)
      if (payments.some((payment) => payment.status === 'processing') || plan.charging) {
        throw new Error('a charge is still with the bank')
      }
      return { payments, plan }
    },
    { timeout: 30_000, interval: 200 },
  )
}

/** A member whose SUBSCRIPTION is active (its first charge went through). */
async function activeMember() {
  const { user, cookie } = await member()
  await saveCard(cookie, '4242424242424242')
  const started = await call('POST', '/api/billing/plan/start', cookie, {
    priceId: await priceOf(cookie, 'subscription'),
    attemptId: randomUUID(),
  })
  expect(started.statusCode, started.body).toBe(200)
  await planWhen(cookie, (state) => state.subscription?.status === 'active')
  return { user, cookie }
}

const customerIdOf = async (userId: string) => {
  const [row] = await testApp.app.db
    .select({ id: billingCustomers.customerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  if (!row) throw new Error(`no customer for ${userId}`)
  return row.id
}

const statuses = (answers: { statusCode: number }[]) =>
  answers.map((answer) => answer.statusCode).sort()

const bodies = (answers: { body: string }[]) => answers.map((answer) => answer.body).join(' | ')

describe('a lifetime payment', () => {
  it('Pay now and Start Now at the same moment charge the member once', async () => {
    const { cookie } = await member()
    await saveCard(cookie, '4242424242424242')
    const once = await priceOf(cookie, 'one_payment')
    const monthly = await priceOf(cookie, 'subscription')
    const card = await cardField(cookie, '4242424242424242')

    const answers = await Promise.all([
      call('POST', '/api/billing/one-payment', cookie, {
        priceId: once,
        paymentMethodId: card,
        attemptId: randomUUID(),
      }),
      call('POST', '/api/billing/plan/start', cookie, {
        priceId: monthly,
        attemptId: randomUUID(),
      }),
    ])
    expect(statuses(answers), bodies(answers)).toEqual([200, 409])

    await settled(cookie)
    // Each purchase that went through has its paid invoice: one purchase, one invoice.
    const invoices = await vi.waitFor(
      async () => {
        const listed = await invoicesOf(cookie)
        if (listed.length === 0) throw new Error('no invoice yet')
        return listed
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(invoices.map((invoice) => invoice.status)).toEqual(['paid'])
  })

  it('still with the bank already counts: Start Now is neither offered nor taken', async () => {
    const { cookie } = await member()
    await saveCard(cookie, '4242424242424242')
    const paid = await call('POST', '/api/billing/one-payment', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      paymentMethodId: await cardField(cookie, '4242424242424242'),
      attemptId: randomUUID(),
    })
    expect(paid.json().payment.status).toBe('processing')

    expect((await planOf(cookie)).actions).toMatchObject({
      startNow: false,
      reactivate: false,
      upgrade: false,
    })
    const started = await call('POST', '/api/billing/plan/start', cookie, {
      priceId: await priceOf(cookie, 'subscription'),
      attemptId: randomUUID(),
    })
    expect(started.statusCode).toBe(409)
    expect(started.json().message).toBe(
      'This plan is already paid, or its payment is still in progress.',
    )
    await settled(cookie)
    expect((await planOf(cookie)).subscription).toBeNull()
  })

  it('is not bought again as an upgrade by a member who also has a subscription from before', async () => {
    // A member who paid ONE PAYMENT and whose subscription started beside it (the double
    // charge this file is about, made before it was closed): the subscription is made at the
    // provider directly, as it was then.
    const { user, cookie } = await member()
    const card = await saveCard(cookie, '4242424242424242')
    const paid = await call('POST', '/api/billing/one-payment', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      paymentMethodId: await cardField(cookie, '4242424242424242'),
      attemptId: randomUUID(),
    })
    expect(paid.statusCode).toBe(200)
    await settled(cookie)
    const monthly = await priceOf(cookie, 'subscription')
    const customer = await customerIdOf(user.id)
    const deps = { db: testApp.app.db, payments: testApp.app.payments }
    await deps.payments.createSubscription(
      {
        customer,
        price: monthly,
        paymentMethod: card,
        installments: null,
        metadata: { plan: 'subscription', user_id: user.id, price_id: monthly },
      },
      { idempotencyKey: `before-${user.id}` },
    )
    await syncCustomer(deps, customer)
    const running = await planWhen(cookie, (state) => state.subscription?.status === 'active')
    expect(running.actions.upgrade).toBe(false)

    for (const plan of ['one_payment', 'four_payments'] as const) {
      const upgraded = await call('POST', '/api/billing/plan/upgrade', cookie, {
        priceId: await priceOf(cookie, plan),
        attemptId: randomUUID(),
      })
      expect(upgraded.statusCode, upgraded.body).toBe(409)
    }
    expect(await paymentsOf(cookie)).toHaveLength(1)
    await settled(cookie)
    expect((await invoicesOf(cookie)).map((invoice) => invoice.total)).toEqual([1500, 14_900])
  })
})

describe('an upgrade sent together with another plan action', () => {
  // Several members at once, so that the requests of each really interleave on the database.
  const MEMBERS = 3

  const upgrade = async (cookie: string) =>
    call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: await priceOf(cookie, 'four_payments'),
      attemptId: randomUUID(),
    })

  /** What a member ends with once the bank answered: never FOUR PAYMENTS paused or cancelling. */
  async function expectCoherentPlan(cookie: string, upgraded: boolean) {
    const { plan } = await settled(cookie)
    if (upgraded) {
      expect(plan.subscription).toMatchObject({
        plan: 'four_payments',
        status: 'active',
        paused: false,
        cancelAtPeriodEnd: false,
      })
      expect(plan.actions.resume).toBe(false)
    } else {
      expect(plan.subscription?.plan).toBe('subscription')
    }
    return plan
  }

  /**
   * `first`, and `second` sent the moment `first` reaches the provider's `method`: the second
   * request arrives while the first is being done.
   */
  async function secondWhileFirstAtProvider(
    method: 'upgradeSubscription' | 'updateSubscription' | 'pauseSubscription',
    first: () => ReturnType<typeof call>,
    second: () => ReturnType<typeof call>,
  ) {
    const gateway = testApp.app.payments as unknown as Record<string, unknown>
    const original = gateway[method] as (...args: unknown[]) => unknown
    // The second request is sent from the test's own context, as a request of its own arrives,
    // not from inside the first one's call (which would carry the first one's async context).
    const fromOutside = AsyncLocalStorage.snapshot()
    let secondAnswer: ReturnType<typeof call> | undefined
    gateway[method] = (...args: unknown[]) => {
      secondAnswer ??= fromOutside(second)
      return original(...args)
    }
    try {
      const firstAnswer = await first()
      if (!secondAnswer) throw new Error(`${method} was not called`)
      return [firstAnswer, await secondAnswer] as const
    } finally {
      gateway[method] = original
    }
  }

  it('Upgrade and Pause at the same moment: one is done, the other refused, never a server error', async () => {
    const members = await Promise.all(Array.from({ length: MEMBERS }, () => activeMember()))
    await Promise.all(
      members.map(async ({ cookie }) => {
        const answers = await Promise.all([
          upgrade(cookie),
          call('POST', '/api/billing/plan/pause', cookie),
        ])
        expect(statuses(answers), bodies(answers)).toEqual([200, 409])
        const plan = await expectCoherentPlan(cookie, answers[0].statusCode === 200)
        if (answers[1].statusCode === 200) {
          expect(plan.subscription).toMatchObject({ status: 'paused' })
          expect(plan.actions.resume).toBe(true)
        }
      }),
    )
  })

  it('Upgrade and Cancel Renewal at the same moment: each is done or refused, never a server error', async () => {
    const members = await Promise.all(Array.from({ length: MEMBERS }, () => activeMember()))
    await Promise.all(
      members.map(async ({ cookie }) => {
        const answers = await Promise.all([
          upgrade(cookie),
          call('POST', '/api/billing/plan/cancel', cookie),
        ])
        for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode)
        const plan = await expectCoherentPlan(cookie, answers[0].statusCode === 200)
        if (answers[0].statusCode !== 200) expect(plan.subscription?.cancelAtPeriodEnd).toBe(true)
      }),
    )
  })

  it.each(['pause', 'cancel'])(
    '%s arriving while the upgrade is with the provider is refused, and FOUR PAYMENTS runs on',
    async (action) => {
      const { cookie } = await activeMember()
      const [upgraded, other] = await secondWhileFirstAtProvider(
        'upgradeSubscription',
        () => upgrade(cookie),
        () => call('POST', `/api/billing/plan/${action}`, cookie),
      )
      expect(upgraded.statusCode, upgraded.body).toBe(200)
      expect(other.statusCode, other.body).toBe(409)
      await expectCoherentPlan(cookie, true)
    },
  )

  it('an upgrade arriving while Pause is with the provider is refused, never a server error', async () => {
    const { cookie } = await activeMember()
    const [paused, upgraded] = await secondWhileFirstAtProvider(
      'pauseSubscription',
      () => call('POST', '/api/billing/plan/pause', cookie),
      () => upgrade(cookie),
    )
    expect(paused.statusCode, paused.body).toBe(200)
    expect(upgraded.statusCode, upgraded.body).toBe(409)
    const plan = await expectCoherentPlan(cookie, false)
    expect(plan.subscription).toMatchObject({ status: 'paused' })
  })

  it('an upgrade arriving while Cancel Renewal is with the provider comes after it, and FOUR PAYMENTS keeps its months', async () => {
    const { cookie } = await activeMember()
    const [cancelled, upgraded] = await secondWhileFirstAtProvider(
      'updateSubscription',
      () => call('POST', '/api/billing/plan/cancel', cookie),
      () => upgrade(cookie),
    )
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    // An upgrade is offered to a subscription whose renewal was cancelled: it starts the four
    // months afresh, and the cancel that was meant for the subscription does not cut them short.
    expect(upgraded.statusCode, upgraded.body).toBe(200)
    await expectCoherentPlan(cookie, true)
  })
})

describe('the payment provider', () => {
  it('is never called while a database transaction is open', async () => {
    // Every call our code makes to the provider is checked as it is made: a callback handed to
    // afterCommit runs at once only when no transaction is open.
    const gateway = testApp.app.payments as unknown as Record<string, unknown>
    const checked: (keyof PaymentGateway)[] = [
      'createCustomer',
      'retrieveCustomer',
      'updateCustomer',
      'retrievePaymentMethod',
      'attachPaymentMethod',
      'detachPaymentMethod',
      'listPaymentMethods',
      'createPaymentIntent',
      'listPaymentIntents',
      'createSubscription',
      'listSubscriptions',
      'updateSubscription',
      'previewUpgrade',
      'upgradeSubscription',
      'listInvoices',
      'payInvoice',
    ]
    const inTransaction: string[] = []
    const originals = new Map<string, unknown>()
    for (const name of checked) {
      const original = gateway[name] as (...args: unknown[]) => unknown
      originals.set(name, original)
      gateway[name] = (...args: unknown[]) => {
        let outside = false
        testApp.app.database.afterCommit(() => {
          outside = true
        })
        if (!outside) inTransaction.push(name)
        return original(...args)
      }
    }
    try {
      // Pay now; a plan started, paused, resumed and upgraded; an open invoice paid.
      const buyer = await member()
      const paid = await call('POST', '/api/billing/one-payment', buyer.cookie, {
        priceId: await priceOf(buyer.cookie, 'one_payment'),
        paymentMethodId: await cardField(buyer.cookie, '4242424242424242'),
        attemptId: randomUUID(),
      })
      expect(paid.statusCode).toBe(200)

      const { user, cookie } = await activeMember()
      for (const action of ['pause', 'resume']) {
        expect((await call('POST', `/api/billing/plan/${action}`, cookie)).statusCode).toBe(200)
        await settled(cookie)
      }
      const upgraded = await call('POST', '/api/billing/plan/upgrade', cookie, {
        priceId: await priceOf(cookie, 'four_payments'),
        attemptId: randomUUID(),
      })
      expect(upgraded.statusCode).toBe(200)
      await settled(cookie)

      const failing = await saveCard(cookie, '4000000000000341')
      await call('PUT', `/api/billing/cards/${failing}/default`, cookie)
      await advanceClock(
        { db: testApp.app.db, payments: testApp.app.payments },
        { email: user.email, days: 31 },
      )
      const open = await planWhen(cookie, (state) => state.paymentFailed && !state.charging)
      const good = await saveCard(cookie, '5555555555554444')
      await call('PUT', `/api/billing/cards/${good}/default`, cookie)
      const paying = await call('POST', `/api/billing/invoices/${open.openInvoice?.id}/pay`, cookie)
      expect(paying.statusCode).toBe(200)
      await settled(cookie)
    } finally {
      for (const [name, original] of originals) gateway[name] = original
    }
    expect(inTransaction).toEqual([])
  })
})

describe('syncing a member from the provider', () => {
  it('never writes an older answer of the provider over a newer one', async () => {
    const { user, cookie } = await member()
    await saveCard(cookie, '4242424242424242')
    const customer = await customerIdOf(user.id)
    const payments = testApp.app.payments

    // The first sync is held after it has read the provider, before it writes.
    let reachedGate = false
    let openGate = () => {}
    const gate = new Promise<void>((resolve) => {
      openGate = resolve
    })
    const heldGateway: PaymentGateway = {
      ...payments,
      listInvoices: async (id) => {
        reachedGate = true
        await gate
        return payments.listInvoices(id)
      },
    }
    const first = syncCustomer({ db: testApp.app.db, payments: heldGateway }, customer)
    await vi.waitFor(() => expect(reachedGate).toBe(true), { timeout: 10_000 })

    // Meanwhile the provider changes, and a second sync starts.
    await payments.updateCustomer(customer, { name: 'Newer Name' })
    let secondUsedDatabase = false
    const watchedDb = new Proxy(testApp.app.db, {
      get(target, property, receiver) {
        secondUsedDatabase = true
        return Reflect.get(target, property, receiver)
      },
    })
    let secondDone = false
    const second = syncCustomer({ db: watchedDb, payments }, customer).finally(() => {
      secondDone = true
    })
    // The first is let go once the second is writing (or waiting for its turn).
    await vi.waitFor(() => expect(secondUsedDatabase || secondDone).toBe(true), {
      timeout: 10_000,
    })
    openGate()
    await Promise.all([first, second])

    const account = (await call('GET', '/api/billing/account', cookie)).json()
    expect(account.billingInfo.name).toBe('Newer Name')
  })
})
