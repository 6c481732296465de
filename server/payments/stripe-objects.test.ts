import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import type {
  GatewayInvoice,
  GatewayInvoiceLine,
  GatewayPaymentIntent,
  GatewayPrice,
  GatewaySubscription,
} from './gateway'
import {
  renderInvoice,
  renderPaymentIntent,
  renderSchedule,
  renderSubscription,
  scheduleIdOf,
  subscriptionIdOfSchedule,
} from './sandbox/http/render'
import { toInvoice, toPaymentIntent, toSubscription } from './stripe-objects'

// The sandbox's server renders the contract's plans and invoices in Stripe's shapes, and the
// Stripe gateway reads Stripe's shapes back: what goes out through the one must come back
// through the other unchanged, or sandbox mode shows something the contract never said.

const at = (iso: string) => Date.parse(iso) / 1000

/**
 * A rendered object as the SDK hands it over: it travels as JSON. (The SDK then makes Decimal
 * objects of the decimal strings; the readers read none of them.)
 */
const overTheWire = <T>(rendered: unknown): T => JSON.parse(JSON.stringify(rendered)) as T

const CUSTOMER = 'cus_Q4x8JmR2vT6nB1kLp9sW3yZa'
const CARD = 'pm_Lw3Nq8Rt2Yv6Bx1Mz5Kc9Hd4'
const USER = '5f0c2a8e-3b71-4d9a-9c42-7e1d6b0f8a13'
const START = at('2026-11-03T14:20:00Z')

const price = (
  id: string,
  nickname: string,
  plan: GatewayPrice['metadata']['plan'],
  unitAmount: number,
): GatewayPrice => ({
  id,
  object: 'price',
  product: 'prod_harmonize',
  nickname,
  unit_amount: unitAmount,
  currency: 'usd',
  active: true,
  created: at('2026-09-01T09:00:00Z'),
  type: plan === 'one_payment' ? 'one_time' : 'recurring',
  recurring: plan === 'one_payment' ? null : { interval: 'month', interval_count: 1 },
  metadata: { plan },
})

const SUBSCRIPTION = price('price_Sb4Kx9Pq2Wm7Rt1Vn6Yc3Hz8', 'SUBSCRIPTION', 'subscription', 1_500)
const FOUR_PAYMENTS = price(
  'price_Fp7Jd2Lw9Qs4Xn1Bv6Tm3Kc8',
  'FOUR_PAYMENTS',
  'four_payments',
  3_900,
)
const ONE_PAYMENT = price('price_Op2Hg8Rk5Yt1Mw7Zx4Nc9Lb3', 'ONE_PAYMENT', 'one_payment', 14_900)
const PRICES = [SUBSCRIPTION, FOUR_PAYMENTS, ONE_PAYMENT]
const priceOf = (id: string) => PRICES.find((candidate) => candidate.id === id) as GatewayPrice

function plan(changes: Partial<GatewaySubscription> = {}): GatewaySubscription {
  return {
    id: 'sub_7hK2mPq9rT4vX1bN6cW8yZ3a',
    object: 'subscription',
    customer: CUSTOMER,
    status: 'active',
    items: { data: [{ id: 'si_Rk3Vw8Nt1Qy6Bm4Xz9Lc2Hp7', price: SUBSCRIPTION.id }] },
    billing_cycle_anchor: START,
    current_period_start: START,
    current_period_end: at('2026-12-03T14:20:00Z'),
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    default_payment_method: null,
    latest_invoice: 'in_Mv5Tq2Xk8Rw1Ny7Bc4Lz9Hd3',
    metadata: { plan: 'subscription', user_id: USER, price_id: SUBSCRIPTION.id },
    created: START,
    ...changes,
  }
}

const fourPayments = (changes: Partial<GatewaySubscription> = {}) =>
  plan({
    id: 'sub_Fq8Lm3Wv6Rt1Zx9Kc4Nb7Hy2',
    items: { data: [{ id: 'si_Tz6Hq1Mv8Wk3Rx5Lb9Nc2Yp4', price: FOUR_PAYMENTS.id }] },
    cancel_at: at('2027-03-03T14:20:00Z'),
    metadata: { plan: 'four_payments', user_id: USER, price_id: FOUR_PAYMENTS.id },
    ...changes,
  })

const PLANS: [string, GatewaySubscription][] = [
  ['a plan whose first payment is still due (incomplete)', plan({ status: 'incomplete' })],
  [
    'a plan whose first payment never came (incomplete_expired)',
    plan({ status: 'incomplete_expired', ended_at: START + 23 * 3600 }),
  ],
  [
    'an active plan in its second month',
    plan({
      current_period_start: at('2026-12-03T14:20:00Z'),
      current_period_end: at('2027-01-03T14:20:00Z'),
      default_payment_method: CARD,
    }),
  ],
  [
    'a plan whose renewal failed (past_due)',
    plan({
      status: 'past_due',
      current_period_start: at('2026-12-03T14:20:00Z'),
      current_period_end: at('2027-01-03T14:20:00Z'),
    }),
  ],
  [
    'a plan whose retries are used up (unpaid)',
    plan({
      status: 'unpaid',
      current_period_start: at('2026-12-03T14:20:00Z'),
      current_period_end: at('2027-01-03T14:20:00Z'),
    }),
  ],
  ['a paused plan', plan({ status: 'paused' })],
  [
    'a plan cancelled at the end of its period',
    plan({ cancel_at_period_end: true, canceled_at: at('2026-11-20T08:05:00Z') }),
  ],
  ['FOUR PAYMENTS, which ends by itself (cancel_at)', fourPayments()],
  [
    'FOUR PAYMENTS after its last installment',
    fourPayments({
      status: 'canceled',
      current_period_start: at('2027-02-03T14:20:00Z'),
      current_period_end: at('2027-03-03T14:20:00Z'),
      canceled_at: at('2027-03-03T14:20:00Z'),
      ended_at: at('2027-03-03T14:20:00Z'),
    }),
  ],
  [
    'a plan that ended at the end of its period (canceled)',
    plan({
      status: 'canceled',
      cancel_at_period_end: true,
      canceled_at: at('2026-11-20T08:05:00Z'),
      ended_at: at('2026-12-03T14:20:00Z'),
    }),
  ],
]

const renderPlan = (subscription: GatewaySubscription) =>
  renderSubscription(subscription, {
    schedule: subscription.cancel_at === null ? null : scheduleIdOf(subscription.id),
    price: priceOf(subscription.items.data[0]?.price ?? ''),
  })

describe('subscriptions between the contract and Stripe', () => {
  it.each(PLANS)('%s comes back from Stripe’s shape exactly as it was', (_, subscription) => {
    const rendered = overTheWire<Stripe.Subscription>(renderPlan(subscription))
    expect(toSubscription(rendered)).toEqual(subscription)
  })

  it('keeps the periods on the item, where this API version has them, with the whole price', () => {
    const rendered = overTheWire<Stripe.Subscription>(renderPlan(plan()))
    expect(rendered).not.toHaveProperty('current_period_start')
    expect(rendered.items.data[0]).toMatchObject({
      current_period_start: START,
      current_period_end: at('2026-12-03T14:20:00Z'),
      price: { id: SUBSCRIPTION.id, unit_amount: 1_500, unit_amount_decimal: '1500' },
    })
  })

  it('says why a paused plan is paused, and only a paused one', () => {
    const paused = overTheWire<Stripe.Subscription>(renderPlan(plan({ status: 'paused' })))
    expect(paused.status_details?.paused).toMatchObject({
      type: 'subscription',
      subscription: { type: 'pause_requested' },
    })
    expect(overTheWire<Stripe.Subscription>(renderPlan(plan()))).not.toHaveProperty(
      'status_details',
    )
  })

  it('takes the end of a scheduled plan from its schedule when Stripe leaves cancel_at empty', () => {
    const subscription = fourPayments()
    const rendered = overTheWire<Stripe.Subscription>({
      ...renderPlan(subscription),
      cancel_at: null,
      schedule: renderSchedule(subscription, FOUR_PAYMENTS),
    })
    expect(toSubscription(rendered)).toEqual(subscription)
  })

  it('leaves cancel_at empty for a schedule that does not cancel the plan at its end', () => {
    const subscription = fourPayments()
    const rendered = overTheWire<Stripe.Subscription>({
      ...renderPlan(subscription),
      cancel_at: null,
      schedule: { ...renderSchedule(subscription, FOUR_PAYMENTS), end_behavior: 'release' },
    })
    expect(toSubscription(rendered)?.cancel_at).toBeNull()
  })

  it('reads a plan the app did not make, or in a state the app never uses, as none of ours', () => {
    const rendered = overTheWire<Stripe.Subscription>(renderPlan(plan()))
    const { user_id: _user, ...withoutUser } = rendered.metadata
    const { price_id: _price, ...withoutPrice } = rendered.metadata
    expect(toSubscription({ ...rendered, status: 'trialing' })).toBeNull()
    const unknownPlan = { ...rendered.metadata, plan: 'gold' }
    expect(toSubscription({ ...rendered, metadata: unknownPlan })).toBeNull()
    expect(toSubscription({ ...rendered, metadata: withoutUser })).toBeNull()
    expect(toSubscription({ ...rendered, metadata: withoutPrice })).toBeNull()
    expect(toSubscription({ ...rendered, metadata: {} })).toBeNull()
  })
})

describe('the schedule of FOUR PAYMENTS', () => {
  it('is found from the plan and the plan from it, and no other id names a plan', () => {
    expect(scheduleIdOf('sub_Fq8Lm3Wv6Rt1Zx9Kc4Nb7Hy2')).toBe('sub_sched_Fq8Lm3Wv6Rt1Zx9Kc4Nb7Hy2')
    expect(subscriptionIdOfSchedule('sub_sched_Fq8Lm3Wv6Rt1Zx9Kc4Nb7Hy2')).toBe(
      'sub_Fq8Lm3Wv6Rt1Zx9Kc4Nb7Hy2',
    )
    expect(subscriptionIdOfSchedule('sub_Fq8Lm3Wv6Rt1Zx9Kc4Nb7Hy2')).toBeNull()
    expect(subscriptionIdOfSchedule('sub_sched_')).toBeNull()
    expect(subscriptionIdOfSchedule('in_Mv5Tq2Xk8Rw1Ny7Bc4Lz9Hd3')).toBeNull()
  })

  it('is one phase of the price from the plan’s start to its end, cancelling it then', () => {
    const schedule = renderSchedule(fourPayments(), FOUR_PAYMENTS)
    expect(schedule).toMatchObject({
      id: 'sub_sched_Fq8Lm3Wv6Rt1Zx9Kc4Nb7Hy2',
      subscription: 'sub_Fq8Lm3Wv6Rt1Zx9Kc4Nb7Hy2',
      end_behavior: 'cancel',
      status: 'active',
      current_phase: { start_date: START, end_date: at('2027-03-03T14:20:00Z') },
    })
    expect(schedule.phases).toHaveLength(1)
    expect(schedule.phases[0]).toMatchObject({
      start_date: START,
      end_date: at('2027-03-03T14:20:00Z'),
      items: [{ price: FOUR_PAYMENTS.id, quantity: 1 }],
      metadata: { plan: 'four_payments', user_id: USER, price_id: FOUR_PAYMENTS.id },
    })
  })

  it('is completed when the plan ended at its last installment, cancelled when before it', () => {
    const end = at('2027-03-03T14:20:00Z')
    const completed = renderSchedule(
      fourPayments({ status: 'canceled', canceled_at: end, ended_at: end }),
      FOUR_PAYMENTS,
    )
    expect(completed).toMatchObject({
      status: 'completed',
      completed_at: end,
      canceled_at: null,
      current_phase: null,
    })
    const early = at('2026-12-10T10:00:00Z')
    const canceled = renderSchedule(
      fourPayments({ status: 'canceled', canceled_at: early, ended_at: early }),
      FOUR_PAYMENTS,
    )
    expect(canceled).toMatchObject({ status: 'canceled', canceled_at: early, completed_at: null })
  })
})

function charge(
  id: string,
  status: GatewayPaymentIntent['status'],
  created: number,
  amount: number,
  changes: Partial<GatewayPaymentIntent> = {},
): GatewayPaymentIntent {
  return {
    id,
    object: 'payment_intent',
    amount,
    currency: 'usd',
    customer: CUSTOMER,
    payment_method: CARD,
    status,
    receipt_email: null,
    client_secret: `${id}_secret_test`,
    last_payment_error:
      status === 'requires_payment_method'
        ? {
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
          }
        : null,
    metadata: { price_id: SUBSCRIPTION.id, user_id: USER },
    created,
    ...changes,
  }
}

const line = (changes: Partial<GatewayInvoiceLine> = {}): GatewayInvoiceLine => ({
  id: 'il_Wc7Nq2Rk9Xv4Bt1Lm6Hz3Yp8',
  description: 'SUBSCRIPTION',
  amount: 1_500,
  price: SUBSCRIPTION.id,
  proration: false,
  period: { start: at('2026-12-03T14:20:00Z'), end: at('2027-01-03T14:20:00Z') },
  ...changes,
})

function bill(changes: Partial<GatewayInvoice> = {}): GatewayInvoice {
  return {
    id: 'in_Mv5Tq2Xk8Rw1Ny7Bc4Lz9Hd3',
    object: 'invoice',
    number: 'HZ-000042',
    customer: CUSTOMER,
    subscription: plan().id,
    status: 'open',
    billing_reason: 'subscription_cycle',
    currency: 'usd',
    subtotal: 1_500,
    total: 1_500,
    amount_due: 1_500,
    amount_paid: 0,
    lines: { data: [line()] },
    customer_name: 'Ana Lucía Pérez',
    customer_email: 'ana.perez@example.com',
    customer_address: {
      line1: 'Calle Mayor 12',
      line2: '3º B',
      city: 'Madrid',
      state: null,
      postal_code: '28013',
      country: 'ES',
    },
    receipt_email: null,
    payment_intent: null,
    payment_intents: [],
    attempt_count: 0,
    next_payment_attempt: null,
    status_transitions: {
      finalized_at: at('2026-12-03T14:20:00Z'),
      paid_at: null,
      voided_at: null,
    },
    period_start: at('2026-12-03T14:20:00Z'),
    period_end: at('2027-01-03T14:20:00Z'),
    metadata: { user_id: USER },
    created: at('2026-12-03T14:20:00Z'),
    ...changes,
  }
}

const RENEWAL = at('2026-12-03T14:20:00Z')
const FIRST_TRY = charge('pi_A1kRw7Nq3Xv9Bt2Lm6Hz4Yc8', 'requires_payment_method', RENEWAL, 1_500)
const SECOND_TRY = charge(
  'pi_B2mTx8Pr4Yw1Cv3Nn7Jz5Kd9',
  'requires_payment_method',
  RENEWAL + 3 * 86_400,
  1_500,
)
const THIRD_TRY = charge('pi_C3nVy9Qs5Zx2Dw4Pp8Kz6Le1', 'succeeded', RENEWAL + 7 * 86_400, 1_500)

const UPGRADE_DAY = at('2026-11-20T10:00:00Z')
const creditLine = (id: string, amount: number) =>
  line({
    id,
    description: 'Unused time on SUBSCRIPTION',
    amount,
    price: null,
    proration: true,
    period: { start: UPGRADE_DAY, end: at('2026-12-03T14:20:00Z') },
  })
const UPGRADE_CHARGE = charge('pi_D4pWz1Rt6Ay3Ex5Qq9Lz7Mf2', 'succeeded', UPGRADE_DAY, 14_260, {
  // Stripe copies none of our metadata onto a charge it makes for an invoice.
  metadata: { price_id: '', user_id: '' },
})
const ONE_TIME_CHARGE = charge('pi_E5qXa2Su7Bz4Fy6Rr1Mz8Ng3', 'succeeded', UPGRADE_DAY, 14_900, {
  receipt_email: 'accountant@example.com',
  metadata: { price_id: ONE_PAYMENT.id, user_id: USER },
})

const INVOICES: [string, GatewayInvoice, GatewayPaymentIntent[]][] = [
  [
    'an open renewal with two refused charges, retried in four days',
    bill({
      attempt_count: 2,
      payment_intent: SECOND_TRY.id,
      payment_intents: [FIRST_TRY.id, SECOND_TRY.id],
      next_payment_attempt: RENEWAL + 7 * 86_400,
    }),
    [SECOND_TRY, FIRST_TRY],
  ],
  [
    'a renewal paid on its third try',
    bill({
      status: 'paid',
      amount_paid: 1_500,
      attempt_count: 3,
      payment_intent: THIRD_TRY.id,
      payment_intents: [FIRST_TRY.id, SECOND_TRY.id, THIRD_TRY.id],
      status_transitions: {
        finalized_at: RENEWAL,
        paid_at: RENEWAL + 7 * 86_400,
        voided_at: null,
      },
    }),
    [THIRD_TRY, SECOND_TRY, FIRST_TRY],
  ],
  [
    'a first invoice voided when the plan expired, its charge cancelled',
    bill({
      status: 'void',
      billing_reason: 'subscription_create',
      attempt_count: 1,
      payment_intent: 'pi_F6rYb3Tv8Ca5Gz7Ss2Na9Oh4',
      payment_intents: ['pi_F6rYb3Tv8Ca5Gz7Ss2Na9Oh4'],
      status_transitions: { finalized_at: START, paid_at: null, voided_at: START + 23 * 3600 },
      period_start: START,
      period_end: at('2026-12-03T14:20:00Z'),
      lines: {
        data: [line({ period: { start: START, end: at('2026-12-03T14:20:00Z') } })],
      },
      created: START,
    }),
    [charge('pi_F6rYb3Tv8Ca5Gz7Ss2Na9Oh4', 'canceled', START, 1_500)],
  ],
  [
    'a move to FOUR PAYMENTS with a credit for the unused days',
    bill({
      id: 'in_Mf2Kq7Wx4Rn9Tb1Vc6Yl3Hz8',
      number: 'HZ-000043',
      billing_reason: 'subscription_update',
      subtotal: 3_260,
      total: 3_260,
      amount_due: 3_260,
      amount_paid: 3_260,
      status: 'paid',
      lines: {
        data: [
          line({
            description: 'FOUR PAYMENTS',
            amount: 3_900,
            price: FOUR_PAYMENTS.id,
            period: { start: UPGRADE_DAY, end: at('2026-12-20T10:00:00Z') },
          }),
          creditLine('il_Cr8Tq3Wm1Xk6Nv9Bz4Lh2Yp7', -640),
        ],
      },
      attempt_count: 1,
      payment_intent: 'pi_G7sZc4Uw9Db6Ha8Tt3Ob1Pi5',
      payment_intents: ['pi_G7sZc4Uw9Db6Ha8Tt3Ob1Pi5'],
      status_transitions: { finalized_at: UPGRADE_DAY, paid_at: UPGRADE_DAY, voided_at: null },
      period_start: UPGRADE_DAY,
      period_end: at('2026-12-20T10:00:00Z'),
      created: UPGRADE_DAY,
    }),
    [charge('pi_G7sZc4Uw9Db6Ha8Tt3Ob1Pi5', 'succeeded', UPGRADE_DAY, 3_260)],
  ],
  [
    'a move to ONE PAYMENT, which ends the plan and has no plan of its own',
    bill({
      id: 'in_Up4Kx9Wq2Rm7Tv1Nb6Yc3Hz8',
      number: 'HZ-000044',
      subscription: null,
      status: 'paid',
      billing_reason: 'manual',
      subtotal: 14_260,
      total: 14_260,
      amount_due: 14_260,
      amount_paid: 14_260,
      lines: {
        data: [
          line({
            description: 'ONE PAYMENT',
            amount: 14_900,
            price: ONE_PAYMENT.id,
            period: { start: UPGRADE_DAY, end: UPGRADE_DAY },
          }),
          creditLine('il_Dk4Vr9Xn2Wq7Ls1Mb6Tz3Hc8', -640),
        ],
      },
      attempt_count: 1,
      payment_intent: UPGRADE_CHARGE.id,
      payment_intents: [UPGRADE_CHARGE.id],
      status_transitions: { finalized_at: UPGRADE_DAY, paid_at: UPGRADE_DAY, voided_at: null },
      period_start: UPGRADE_DAY,
      period_end: UPGRADE_DAY,
      metadata: { user_id: USER, ends_subscription: plan().id },
      created: UPGRADE_DAY,
    }),
    [UPGRADE_CHARGE],
  ],
  [
    'a one-time payment’s invoice with a copy to another address',
    bill({
      id: 'in_Ot5Lx1Wr8Sn3Uc2Vd7Ym4Ja9',
      number: 'HZ-000045',
      subscription: null,
      status: 'paid',
      billing_reason: 'manual',
      subtotal: 14_900,
      total: 14_900,
      amount_due: 14_900,
      amount_paid: 14_900,
      lines: {
        data: [
          line({
            description: 'ONE PAYMENT',
            amount: 14_900,
            price: ONE_PAYMENT.id,
            period: { start: UPGRADE_DAY, end: UPGRADE_DAY },
          }),
        ],
      },
      customer_address: null,
      receipt_email: 'accountant@example.com',
      attempt_count: 1,
      payment_intent: ONE_TIME_CHARGE.id,
      payment_intents: [ONE_TIME_CHARGE.id],
      status_transitions: { finalized_at: UPGRADE_DAY, paid_at: UPGRADE_DAY, voided_at: null },
      period_start: UPGRADE_DAY,
      period_end: UPGRADE_DAY,
      created: UPGRADE_DAY,
    }),
    [ONE_TIME_CHARGE],
  ],
]

const invoiceOf = (invoice: GatewayInvoice, payments: GatewayPaymentIntent[]) =>
  renderInvoice(invoice, payments, {
    prices: PRICES,
    subscription: invoice.subscription === null ? null : plan({ id: invoice.subscription }),
  })

describe('invoices between the contract and Stripe', () => {
  it.each(INVOICES)(
    '%s comes back from Stripe’s shape exactly as it was',
    (_, invoice, payments) => {
      const rendered = overTheWire<Stripe.Invoice>(invoiceOf(invoice, payments))
      expect(toInvoice(rendered)).toEqual(invoice)
    },
  )

  it('lists every charge oldest first, the latest as the default, each with its outcome', () => {
    const [, paidOnThirdTry, payments] = INVOICES[1] ?? []
    if (!paidOnThirdTry || !payments) throw new Error('fixture missing')
    const rendered = overTheWire<Stripe.Invoice>(invoiceOf(paidOnThirdTry, payments))
    expect(
      rendered.payments?.data.map(({ payment, status, is_default, amount_paid }) => ({
        intent: payment.payment_intent,
        status,
        is_default,
        amount_paid,
      })),
    ).toEqual([
      { intent: FIRST_TRY.id, status: 'open', is_default: false, amount_paid: null },
      { intent: SECOND_TRY.id, status: 'open', is_default: false, amount_paid: null },
      { intent: THIRD_TRY.id, status: 'paid', is_default: true, amount_paid: 1_500 },
    ])
  })

  it('reads the charges in the order they were made, however Stripe lists them', () => {
    const [, paidOnThirdTry, payments] = INVOICES[1] ?? []
    if (!paidOnThirdTry || !payments) throw new Error('fixture missing')
    const rendered = overTheWire<Stripe.Invoice>(invoiceOf(paidOnThirdTry, payments))
    const newestFirst = {
      ...rendered.payments,
      data: [...(rendered.payments?.data ?? [])].reverse(),
    }
    expect(toInvoice({ ...rendered, payments: newestFirst } as Stripe.Invoice)).toMatchObject({
      payment_intent: THIRD_TRY.id,
      payment_intents: [FIRST_TRY.id, SECOND_TRY.id, THIRD_TRY.id],
    })
  })

  it('names no charge when the payments were not expanded', () => {
    const [, paid, payments] = INVOICES[1] ?? []
    if (!paid || !payments) throw new Error('fixture missing')
    const { payments: _, ...unexpanded } = overTheWire<Stripe.Invoice>(invoiceOf(paid, payments))
    expect(toInvoice(unexpanded)).toMatchObject({ payment_intent: null, payment_intents: [] })
  })

  it('marks a credit for unused time as a proration with a negative amount', () => {
    const [, upgrade, payments] = INVOICES[3] ?? []
    if (!upgrade || !payments) throw new Error('fixture missing')
    const rendered = overTheWire<Stripe.Invoice>(invoiceOf(upgrade, payments))
    const [charged, credit] = rendered.lines.data
    expect(charged?.pricing?.price_details?.price).toBe(FOUR_PAYMENTS.id)
    expect(charged?.parent?.subscription_item_details).toMatchObject({
      proration: false,
      subscription: plan().id,
      subscription_item: plan().items.data[0]?.id,
    })
    expect(credit?.amount).toBe(-640)
    expect(credit?.parent?.subscription_item_details?.proration).toBe(true)
  })

  it('carries the copy address in the metadata, Stripe’s invoice having no field for it', () => {
    const [, oneTime, payments] = INVOICES[5] ?? []
    if (!oneTime || !payments) throw new Error('fixture missing')
    const rendered = overTheWire<Stripe.Invoice>(invoiceOf(oneTime, payments))
    expect(rendered.metadata).toEqual({ user_id: USER, receipt_email: 'accountant@example.com' })
    expect(rendered.parent).toBeNull()
  })

  it('reads an invoice in another currency, or a draft, as none of ours', () => {
    const [, paid, payments] = INVOICES[1] ?? []
    if (!paid || !payments) throw new Error('fixture missing')
    const rendered = overTheWire<Stripe.Invoice>(invoiceOf(paid, payments))
    expect(toInvoice({ ...rendered, currency: 'eur' })).toBeNull()
    expect(toInvoice({ ...rendered, status: 'draft', number: null })).toBeNull()
  })
})

describe('payments between the contract and Stripe', () => {
  const made = at('2026-11-27T10:00:00Z')

  it.each([
    'processing',
    'succeeded',
    'requires_payment_method',
    'requires_action',
    'canceled',
  ] as const)(
    'a one-time payment %s comes back from Stripe’s shape exactly as it was',
    (status) => {
      const payment = charge('pi_once', status, made, 14_900)
      const rendered = overTheWire<Stripe.PaymentIntent>(renderPaymentIntent(payment))
      expect(toPaymentIntent(rendered)).toEqual(payment)
    },
  )

  it('tells the page how to run the bank’s check only while it is asked for', () => {
    const waiting = overTheWire<Stripe.PaymentIntent>(
      renderPaymentIntent(charge('pi_check', 'requires_action', made, 14_900)),
    )
    expect(waiting.next_action?.type).toBe('use_stripe_sdk')
    expect(waiting.client_secret).toBe('pi_check_secret_test')
    const paid = overTheWire<Stripe.PaymentIntent>(
      renderPaymentIntent(charge('pi_paid', 'succeeded', made, 14_900)),
    )
    expect(paid.next_action).toBeNull()
  })

  it('keeps an invoice’s charge waiting for the bank’s check as waiting, with its secret', () => {
    const invoiceCharge = charge('pi_month', 'requires_action', made, 1_500, {
      metadata: { price_id: '', user_id: '' },
    })
    const rendered = overTheWire<Stripe.PaymentIntent>(renderPaymentIntent(invoiceCharge))
    expect(toPaymentIntent(rendered)).toEqual(invoiceCharge)
  })
})
