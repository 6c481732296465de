import { randomUUID } from 'node:crypto'
import { count, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import Stripe from 'stripe'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  billingCustomers,
  billingEvents,
  billingInvoices,
  billingPaymentIntents,
  billingPaymentMethods,
  billingSubscriptions,
} from '../../../db/schema/billing'
import { apiCallsTo, billingCallsTo } from '../../../tests/support/api-calls'
import { buildUser } from '../../../tests/support/factories'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import type { BuildOptions } from '../../app'
import { signEvent } from '../../payments/events'
import { PRODUCT } from './catalog'
import { catchUp, resyncCustomers, STALE_AFTER_MS } from './resync'

// The provider's webhook: only deliveries signed with the endpoint's secret (by the Stripe SDK,
// as Stripe signs them) and no older than five minutes count; each event is recorded once and
// synced in a job, so late, repeated and shuffled deliveries end in the same tables.

const SECRET = 'whsec_webhook_test_secret_0123456789'

let environment: TestEnvironment | undefined
let app: FastifyInstance | undefined

async function start(polling = 0.5, options: BuildOptions = {}) {
  environment ??= await createTestEnvironment({ STRIPE_WEBHOOK_SECRET: SECRET })
  app = await environment.build({ jobs: { pollingIntervalSeconds: polling }, ...options })
  // The job workers start with the server, not with the first request.
  await app.ready()
  return app
}

afterEach(async () => {
  await app?.close()
  app = undefined
  await environment?.destroy()
  environment = undefined
})

const post = (target: FastifyInstance, payload: string, signature?: string) =>
  target.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    payload,
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
  })

/** An event about a customer, signed as Stripe signs: with the SDK and the endpoint's secret. */
function stripeEvent(customer: string, type = 'customer.updated', id = `evt_${randomUUID()}`) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: customer, object: 'customer' } },
  })
  return {
    id,
    payload,
    signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
  }
}

const recorded = async (target: FastifyInstance) =>
  (await target.db.select({ id: billingEvents.id }).from(billingEvents)).map((row) => row.id)

/** Waits until every recorded event has been synced by its job. */
async function allProcessed(target: FastifyInstance, ids: string[]) {
  await vi.waitFor(
    async () => {
      const [row] = await target.db
        .select({ left: count() })
        .from(billingEvents)
        .where(isNull(billingEvents.processedAt))
      const [seen] = await target.db
        .select({ n: count() })
        .from(billingEvents)
        .where(inArray(billingEvents.id, ids))
      if (row?.left !== 0 || seen?.n !== new Set(ids).size) throw new Error('events still waiting')
    },
    { timeout: 60_000, interval: 100 },
  )
}

/** A member with a customer and a saved default card at the gateway (no sync of ours). */
async function customerAtGateway(target: FastifyInstance, name: string) {
  const { user } = await buildUser(target, { name })
  const gateway = target.payments
  const customer = await gateway.createCustomer({ email: user.email, name, userId: user.id })
  const field = gateway.cardField
  if (!field) throw new Error('the sandbox has a card field')
  const card = await field.createCardPaymentMethod({
    number: '4242424242424242',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvc: '123',
  })
  await gateway.attachPaymentMethod(card.id, { customer: customer.id })
  await gateway.updateCustomer(customer.id, { defaultPaymentMethod: card.id })
  return { userId: user.id, customerId: customer.id, cardId: card.id }
}

const customerName = async (target: FastifyInstance, customerId: string) =>
  (
    await target.db
      .select({ name: billingCustomers.name })
      .from(billingCustomers)
      .where(eq(billingCustomers.customerId, customerId))
  )[0]?.name ?? null

describe('The webhook', () => {
  it('refuses a delivery without the right signature, or signed too long ago, and records nothing', async () => {
    const target = await start()
    const { customerId } = await customerAtGateway(target, 'Ada Signed')
    const good = stripeEvent(customerId)
    const wrongSecret = Stripe.webhooks.generateTestHeaderString({
      payload: good.payload,
      secret: 'whsec_someone_else',
    })
    const old = Stripe.webhooks.generateTestHeaderString({
      payload: good.payload,
      secret: SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    })
    const tampered = good.payload.replace('customer.updated', 'invoice.paid')
    for (const [payload, signature] of [
      [good.payload, undefined],
      [good.payload, wrongSecret],
      [good.payload, old],
      [tampered, good.signature],
      [good.payload, 'not a signature'],
    ] as const) {
      const response = await post(target, payload, signature)
      expect(response.statusCode).toBe(400)
      expect(response.json().message).toBe(
        'This event is not signed by the payment provider, or its signature is too old.',
      )
    }
    expect(await recorded(target)).toEqual([])
    expect(await customerName(target, customerId)).toBeNull()

    // Signed now with the endpoint's secret, the same body is taken and synced.
    const accepted = await post(target, good.payload, good.signature)
    expect(accepted.statusCode).toBe(200)
    expect(accepted.json()).toEqual({ received: true })
    await allProcessed(target, [good.id])
    expect(await customerName(target, customerId)).toBe('Ada Signed')
  })

  it('refuses a signed body that is not an event, or is too big, with a clear 400 or 413 and records nothing', async () => {
    const target = await start()
    const signed = (payload: string) => ({
      payload,
      signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
    })
    const created = Math.floor(Date.now() / 1000)
    const object = { id: 'cus_1', object: 'customer' }
    for (const body of [
      'not json at all',
      JSON.stringify({ id: 'evt_1', type: 'customer.updated', created }),
      JSON.stringify({ id: 'evt_1', type: 'customer.updated', created, data: { object: 'x' } }),
      JSON.stringify({ id: 42, type: 'customer.updated', created, data: { object } }),
      JSON.stringify({ id: 'evt_1', type: 'customer.\u0000updated', created, data: { object } }),
      JSON.stringify({ id: 'evt\u0007', type: 'customer.updated', created, data: { object } }),
      JSON.stringify({
        id: 'evt_1',
        type: 'invoice.paid',
        created,
        data: { object: { object: 'invoice', customer: 'cus_\u0000' } },
      }),
      JSON.stringify({ id: 'evt_1', type: 'x'.repeat(256), created, data: { object } }),
      JSON.stringify({ id: 'evt_1', type: 'customer.updated', created: -1, data: { object } }),
    ]) {
      const { payload, signature } = signed(body)
      const response = await post(target, payload, signature)
      expect(response.statusCode, body).toBe(400)
      expect(response.json().message).toBe(
        'This signed body is not an event of the payment provider.',
      )
    }
    const huge = signed(JSON.stringify({ id: 'evt_big', padding: 'x'.repeat(600 * 1024) }))
    expect((await post(target, huge.payload, huge.signature)).statusCode).toBe(413)
    expect(await recorded(target)).toEqual([])
  })

  it('processes an event once: a repeated delivery is answered and changes nothing', async () => {
    const target = await start()
    const { customerId } = await customerAtGateway(target, 'Grace First')
    const event = stripeEvent(customerId)
    expect((await post(target, event.payload, event.signature)).statusCode).toBe(200)
    await allProcessed(target, [event.id])
    expect(await customerName(target, customerId)).toBe('Grace First')

    // A change at the provider, then the old event again: it was processed, so it is not
    // processed again (a replay cannot trigger work)…
    await target.payments.updateCustomer(customerId, { name: 'Grace Second' })
    const again = await post(target, event.payload, event.signature)
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual({ received: true })
    await allProcessed(target, [event.id])
    expect(await customerName(target, customerId)).toBe('Grace First')
    expect(await recorded(target)).toEqual([event.id])

    // …while the provider's next event about it is.
    const next = stripeEvent(customerId)
    await post(target, next.payload, next.signature)
    await allProcessed(target, [next.id])
    expect(await customerName(target, customerId)).toBe('Grace Second')
  })

  it('syncs an event recorded just before the server stopped, when a server starts again', async () => {
    // No worker polls in time: the server is stopped after recording the event, before its job.
    const first = await start(3600)
    const { customerId } = await customerAtGateway(first, 'Katherine Restarted')
    const event = stripeEvent(customerId)
    expect((await post(first, event.payload, event.signature)).statusCode).toBe(200)
    await first.close()

    const second = await start()
    await allProcessed(second, [event.id])
    expect(await customerName(second, customerId)).toBe('Katherine Restarted')
  })

  it('leaves the same tables after 1,000 events for 50 customers, shuffled and repeated, as after the same events in order', {
    timeout: 240_000,
  }, async () => {
    const target = await start()
    const gateway = target.payments
    const prices = await gateway.listPrices(PRODUCT.id)
    const subscription = prices.find((price) => price.metadata.plan === 'subscription')
    if (!subscription) throw new Error('the catalog has a subscription price')
    const members: Awaited<ReturnType<typeof customerAtGateway>>[] = []
    for (let index = 0; index < 50; index++) {
      const member = await customerAtGateway(target, `Member ${index}`)
      members.push(member)
      // Every other member has a plan too: a subscription, its invoice and its charge.
      if (index % 2 === 0) {
        await gateway.createSubscription({
          customer: member.customerId,
          price: subscription.id,
          paymentMethod: member.cardId,
          installments: null,
          metadata: { plan: 'subscription', user_id: member.userId, price_id: subscription.id },
        })
      }
    }
    // The bank answers every charge, and the sandbox's own events are synced.
    await vi.waitFor(
      async () => {
        for (const member of members.filter((_, index) => index % 2 === 0)) {
          const intents = await gateway.listPaymentIntents(member.customerId)
          if (intents.some((intent) => intent.status === 'processing')) throw new Error('charging')
        }
      },
      { timeout: 60_000, interval: 200 },
    )
    await allProcessed(target, await recorded(target))

    const userIds = members.map((member) => member.userId)
    const tables = [
      billingCustomers,
      billingPaymentMethods,
      billingPaymentIntents,
      billingSubscriptions,
      billingInvoices,
    ] as const
    const snapshot = async () => {
      const rows: unknown[] = []
      for (const table of tables) {
        const found = await target.db.select().from(table).where(inArray(table.userId, userIds))
        rows.push(
          found
            // When we synced and when we mailed are ours, not the provider's.
            .map(({ syncedAt: _, ...row }) => ({ ...row, emailedAt: undefined }))
            .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
        )
      }
      return rows
    }
    const forget = async () => {
      for (const table of tables)
        await target.db.delete(table).where(inArray(table.userId, userIds))
    }

    const types = [
      'customer.updated',
      'payment_method.attached',
      'invoice.paid',
      'invoice.payment_failed',
      'customer.subscription.updated',
      'payment_intent.succeeded',
    ]
    const events = members.flatMap((member, index) =>
      Array.from({ length: 20 }, (_, n) =>
        stripeEvent(member.customerId, types[(index + n) % types.length], `evt_${index}_${n}`),
      ),
    )
    async function deliver(batch: { payload: string; signature: string }[]) {
      for (let start = 0; start < batch.length; start += 20) {
        const answers = await Promise.all(
          batch.slice(start, start + 20).map((one) => post(target, one.payload, one.signature)),
        )
        expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200))
      }
    }

    // In order, then shuffled with 200 repeats, each time onto tables that knew nothing.
    await forget()
    await deliver(events)
    await allProcessed(
      target,
      events.map((event) => event.id),
    )
    const inOrder = await snapshot()
    expect((inOrder[0] as unknown[]).length).toBe(50)

    await forget()
    const renamed = events.map((_event, index) =>
      stripeEvent(
        members[Math.floor(index / 20)]?.customerId ?? '',
        types[index % types.length],
        `evt_again_${index}`,
      ),
    )
    const repeated = [...renamed, ...renamed.slice(0, 200)]
    for (let index = repeated.length - 1; index > 0; index--) {
      const other = Math.floor(Math.random() * (index + 1))
      ;[repeated[index], repeated[other]] = [repeated[other] as never, repeated[index] as never]
    }
    await deliver(repeated)
    await allProcessed(
      target,
      renamed.map((event) => event.id),
    )
    expect(await snapshot()).toEqual(inOrder)
    const [events2] = await target.db
      .select({ n: count() })
      .from(billingEvents)
      .where(sql`${billingEvents.id} like 'evt_again_%'`)
    expect(events2?.n).toBe(1000)
  })
})

describe('The hourly pass', () => {
  it('syncs members not synced for a day, and is scheduled once however often servers start', async () => {
    const first = await start()
    const stale = await customerAtGateway(first, 'Old Sync')
    const fresh = await customerAtGateway(first, 'New Sync')
    for (const member of [stale, fresh]) {
      const event = stripeEvent(member.customerId)
      await post(first, event.payload, event.signature)
      await allProcessed(first, [event.id])
    }
    await first.db
      .update(billingCustomers)
      .set({ syncedAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(billingCustomers.customerId, stale.customerId))
    for (const member of [stale, fresh]) {
      await first.payments.updateCustomer(member.customerId, { name: 'Changed Quietly' })
    }
    expect(
      await resyncCustomers(
        { db: first.db, payments: first.payments },
        { staleBefore: new Date(Date.now() - STALE_AFTER_MS) },
      ),
    ).toEqual({ synced: 1 })
    expect(await customerName(first, stale.customerId)).toBe('Changed Quietly')
    expect(await customerName(first, fresh.customerId)).toBe('New Sync')

    // A server that starts again (or a second one, on PostgreSQL) schedules the same pass: one
    // job waits, an hour on.
    await first.close()
    const second = await start()
    const { rows } = await second.database.executeSql(
      `select start_after as "startAfter" from pgboss.job where name = 'billing.resync' and state = 'created'`,
    )
    expect(rows).toHaveLength(1)
    const inMinutes = (new Date(String(rows[0]?.startAfter ?? 0)).getTime() - Date.now()) / 60_000
    expect(inMinutes).toBeGreaterThan(50)
    expect(inMinutes).toBeLessThanOrEqual(60)
  })
})

describe('A member watching a payment', () => {
  it('sees it paid though the webhook never comes: the page it polls asks the provider', async () => {
    // A catch-up each second instead of each five: the bank answers after the first one, and
    // the wait for the next is all this test would otherwise spend its time on.
    const target = await start(0.5, { billing: { catchUpEveryMs: 1_000 } })
    // Every event the sandbox sends is lost on the way.
    target.paymentsSandbox?.connectWebhooks(async () => {})
    const { session } = await buildUser(target)
    const cookie = session?.header ?? ''
    const call = apiCallsTo(() => target)
    const { priceOf, cardField, saveCard } = billingCallsTo(call)
    const paid = await call('POST', '/api/billing/one-payment', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      paymentMethodId: await cardField(cookie, '4242424242424242'),
      attemptId: randomUUID(),
    })
    expect(paid.json().payment.status).toBe('processing')
    await vi.waitFor(
      async () => {
        const [payment] = (await call('GET', '/api/billing/payments', cookie)).json().payments
        if (payment?.status !== 'succeeded') throw new Error('still processing')
      },
      { timeout: 30_000, interval: 500 },
    )

    // The same for a plan's first charge, on My Account's plan.
    const other = await buildUser(target)
    const otherCookie = other.session?.header ?? ''
    await saveCard(otherCookie, '4242424242424242')
    const started = await call('POST', '/api/billing/plan/start', otherCookie, {
      priceId: await priceOf(otherCookie, 'subscription'),
      attemptId: randomUUID(),
    })
    expect(started.json().subscription.status).toBe('pending')
    await vi.waitFor(
      async () => {
        const plan = (await call('GET', '/api/billing/plan', otherCookie)).json()
        if (plan.subscription?.status !== 'active') throw new Error('still pending')
      },
      { timeout: 30_000, interval: 500 },
    )
  })

  it('asks the provider about a member at most once in each catch-up window, however often the page polls', async () => {
    const target = await start()
    // Only the catch-up may bring the provider's changes here.
    target.paymentsSandbox?.connectWebhooks(async () => {})
    const member = await customerAtGateway(target, 'Polling Often')
    const event = stripeEvent(member.customerId)
    await post(target, event.payload, event.signature)
    await allProcessed(target, [event.id])
    const deps = { db: target.db, payments: target.payments }
    const window = 60_000

    await target.payments.updateCustomer(member.customerId, { name: 'Changed Once' })
    expect(await catchUp(deps, target.rateLimiter, member.userId, window)).toBe(true)
    expect(await customerName(target, member.customerId)).toBe('Changed Once')
    await target.payments.updateCustomer(member.customerId, { name: 'Changed Twice' })
    expect(await catchUp(deps, target.rateLimiter, member.userId, window)).toBe(false)
    expect(await customerName(target, member.customerId)).toBe('Changed Once')
  })
})

// The sandbox signs what it sends with the same SDK call, so its own deliveries pass the check.
describe('The sandbox', () => {
  it('signs its events as Stripe does', async () => {
    const { payload, signature } = await signEvent(
      { id: 'evt_1', type: 'invoice.paid', created: 1, data: { object: { customer: 'cus_1' } } },
      SECRET,
    )
    const event = await Stripe.webhooks.constructEventAsync(payload, signature, SECRET, 300)
    expect(event).toMatchObject({ id: 'evt_1', type: 'invoice.paid', object: 'event' })
  })
})
