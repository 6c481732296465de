import { randomUUID } from 'node:crypto'
import { eq, like } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { billingCustomers, billingPaymentIntents } from '../../../db/schema/billing'
import { mailOutbox } from '../../../db/schema/mail'
import type { PlanState } from '../../../domain/billing-plans'
import { formatDay } from '../../../domain/format'
import {
  apiCallsTo,
  billingCallsTo,
  memberWithCookie,
  planCallsTo,
} from '../../../tests/support/api-calls'
import { outboxMailsWith } from '../../../tests/support/outbox'
import { QUICK_BANK, setUpTestApp } from '../../../tests/support/test-app'
import { advanceClock } from './clock'
import { syncCustomer } from './customers'

// The monthly plans on the sandbox, through the API: each state change of SUBSCRIPTION and
// FOUR PAYMENTS as the member's clock moves on (the provider's test clocks), and the account
// actions. Charges are answered by the sandbox's bank in a job, as a webhook would.

// The tests here wait for the bank's answers; it answers no sooner than the product's bank
// (QUICK_BANK only cuts the spread), so what a request answers before it is the same.
const testApp = setUpTestApp(
  {},
  { jobs: { pollingIntervalSeconds: 0.5 }, payments: { sandboxBankDelay: QUICK_BANK } },
)

const call = apiCallsTo(() => testApp.app)

const { planOf, invoicesOf, planWhen } = planCallsTo(call)

const mailsTo = (to: string, subject: string, count = 1) =>
  outboxMailsWith(testApp.app, to, subject, count)

const nextYear = new Date().getUTCFullYear() + 1

const member = () => memberWithCookie(testApp.app)

const { priceOf, saveCard } = billingCallsTo(call)

const statusIs = (status: string) => (state: PlanState) => state.subscription?.status === status

const hasAccess = async (cookie: string) =>
  (await call('GET', '/api/access', cookie)).json().hasAccess as boolean

async function start(cookie: string, plan: 'subscription' | 'four_payments', language = 'en') {
  return call(
    'POST',
    '/api/billing/plan/start',
    cookie,
    { priceId: await priceOf(cookie, plan), attemptId: randomUUID() },
    language,
  )
}

const advance = (email: string, days: number) =>
  advanceClock({ db: testApp.app.db, payments: testApp.app.payments }, { email, days })

/** A member with a card whose plan has started and whose first charge went through. */
async function activeMember(plan: 'subscription' | 'four_payments') {
  const { user, cookie } = await member()
  await saveCard(cookie, '4242424242424242')
  expect((await start(cookie, plan)).statusCode).toBe(200)
  await planWhen(cookie, statusIs('active'))
  return { user, cookie }
}

describe('SUBSCRIPTION', () => {
  it('is pending until the bank answers, then active with a paid, numbered invoice, and renews a month later', async () => {
    const { user, cookie } = await member()
    await saveCard(cookie, '4242424242424242')
    expect((await planOf(cookie)).actions.startNow).toBe(true)

    const started = await start(cookie, 'subscription')
    expect(started.statusCode).toBe(200)
    expect(['pending', 'active']).toContain(started.json().subscription.status)
    const active = await planWhen(cookie, statusIs('active'))
    expect(active.actions).toMatchObject({
      startNow: false,
      cancelRenewal: true,
      pause: true,
      upgrade: true,
      payInvoice: false,
    })
    expect(await hasAccess(cookie)).toBe(true)
    const [first] = await invoicesOf(cookie)
    expect(first).toMatchObject({ status: 'paid', total: 1500, currency: 'usd' })
    expect(first?.number).toMatch(/^HZ-\d{6}$/)

    await advance(user.email, 31)
    const renewed = await vi.waitFor(
      async () => {
        const invoices = await invoicesOf(cookie)
        if (invoices.filter((invoice) => invoice.status === 'paid').length < 2)
          throw new Error('renewal not paid yet')
        return invoices
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(renewed).toHaveLength(2)
    // Numbers follow each other without gaps, newest first.
    const [second, firstAgain] = renewed
    expect(Number(second?.number.slice(3))).toBeGreaterThan(Number(firstAgain?.number.slice(3)))
    const state = await planOf(cookie)
    expect(state.subscription?.status).toBe('active')
    expect(Date.parse(state.subscription?.currentPeriodStart ?? '')).toBeGreaterThan(
      Date.parse(active.subscription?.currentPeriodStart ?? ''),
    )
  })

  it('cancelled, runs to the end of its period with access, can be taken back, and after it ends starts again with Reactivate', async () => {
    const { user, cookie } = await activeMember('subscription')

    const cancelled = await call('POST', '/api/billing/plan/cancel', cookie)
    expect(cancelled.statusCode).toBe(200)
    expect(cancelled.json().subscription.cancelAtPeriodEnd).toBe(true)
    expect(cancelled.json().actions).toMatchObject({ cancelRenewal: false, reactivate: true })
    expect(await hasAccess(cookie)).toBe(true)
    // A second Cancel Renewal is not offered, and is refused.
    expect((await call('POST', '/api/billing/plan/cancel', cookie)).statusCode).toBe(409)
    const endsOn = formatDay(cancelled.json().subscription.currentPeriodEnd, 'en')
    const [ends] = await mailsTo(user.email, `Your Harmonize plan ends on ${endsOn}`)
    expect(ends?.text).toContain(`You keep access until ${endsOn}`)

    const price = await priceOf(cookie, 'subscription')
    // Taking the cancellation back needs no price.
    const undone = await call('POST', '/api/billing/plan/reactivate', cookie, {
      attemptId: randomUUID(),
    })
    expect(undone.json().subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false })
    await call('POST', '/api/billing/plan/cancel', cookie)

    await advance(user.email, 31)
    const ended = await planWhen(cookie, statusIs('canceled'))
    expect(ended.actions).toMatchObject({ reactivate: true, cancelRenewal: false })
    expect(await hasAccess(cookie)).toBe(false)
    // No charge for the month after the end.
    expect(await invoicesOf(cookie)).toHaveLength(1)

    const again = await call('POST', '/api/billing/plan/reactivate', cookie, {
      priceId: price,
      attemptId: randomUUID(),
    })
    expect(again.statusCode).toBe(200)
    const restarted = await planWhen(cookie, statusIs('active'))
    expect(restarted.subscription?.id).not.toBe(ended.subscription?.id)
    expect(await hasAccess(cookie)).toBe(true)
  })

  it('answers the same try sent again with the plan it started, and refuses a new try', async () => {
    const { cookie } = await member()
    await saveCard(cookie, '4242424242424242')
    const priceId = await priceOf(cookie, 'subscription')
    const attemptId = randomUUID()
    const first = await call('POST', '/api/billing/plan/start', cookie, { priceId, attemptId })
    expect(first.statusCode).toBe(200)
    // Its answer lost (a server stopped before replying): the page sends the same try again.
    const again = await call('POST', '/api/billing/plan/start', cookie, { priceId, attemptId })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json().subscription.id).toBe(first.json().subscription.id)
    const other = await call('POST', '/api/billing/plan/start', cookie, {
      priceId,
      attemptId: randomUUID(),
    })
    expect(other.statusCode).toBe(409)
    expect(other.json().message).toBe('You already have a plan in progress.')
    const { rows } = await testApp.app.database.executeSql(
      `select count(*)::int as plans from billing_subscription where user_id = (
         select user_id from billing_subscription where id = $1)`,
      [first.json().subscription.id],
    )
    expect(rows[0]?.plans).toBe(1)
  })

  it('paused, charges nothing and opens no sessions; resumed, goes on', async () => {
    const { user, cookie } = await activeMember('subscription')
    const paused = await call('POST', '/api/billing/plan/pause', cookie)
    expect(paused.json().subscription.status).toBe('paused')
    expect(paused.json().actions).toMatchObject({
      resume: true,
      pause: false,
      cancelRenewal: false,
    })
    expect(await hasAccess(cookie)).toBe(false)

    // Resumed within the month paid for: it goes on at once, and nothing is charged.
    const early = await call('POST', '/api/billing/plan/resume', cookie)
    expect(early.json().subscription.status).toBe('active')
    expect(await hasAccess(cookie)).toBe(true)
    expect(await invoicesOf(cookie)).toHaveLength(1)
    await call('POST', '/api/billing/plan/pause', cookie)

    // A month paused makes no invoice at all, not even a void one.
    await advance(user.email, 31)
    const invoices = await invoicesOf(cookie)
    expect(invoices.map((invoice) => invoice.status)).toEqual(['paid'])
    expect((await planWhen(cookie, statusIs('paused'))).actions.resume).toBe(true)

    // Resumed after the month paid for, a new month starts today and is charged: no free
    // month. The plan counts as paused (no sessions, no second Resume) until the charge is paid.
    const resumed = await call('POST', '/api/billing/plan/resume', cookie)
    expect(resumed.json().subscription.status).toBe('paused')
    expect(resumed.json().actions.resume).toBe(false)
    expect(await hasAccess(cookie)).toBe(false)
    const settled = await planWhen(cookie, (state) => !state.charging)
    expect(settled.subscription?.status).toBe('active')
    const after = await invoicesOf(cookie)
    expect(after.map((invoice) => invoice.status)).toEqual(['paid', 'paid'])
    expect(await hasAccess(cookie)).toBe(true)

    // Pausing and resuming again and again schedules at most one more clock run, not a pile.
    const [customer] = await testApp.app.db
      .select({ id: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, user.id))
    const scheduled = async () => {
      const { rows } = await testApp.app.database.executeSql(
        "select count(*)::int as count from pgboss.job where name = 'sandbox.clock' and state = 'created' and data->'data'->>'customer' = $1",
        [customer?.id],
      )
      return Number((rows as { count: number }[])[0]?.count)
    }
    const before = await scheduled()
    for (let round = 0; round < 3; round++) {
      await call('POST', '/api/billing/plan/pause', cookie)
      await call('POST', '/api/billing/plan/resume', cookie)
    }
    expect(await scheduled()).toBeLessThanOrEqual(before + 1)
    expect(await invoicesOf(cookie)).toHaveLength(2)
    expect(await hasAccess(cookie)).toBe(true)
  })

  it('resumed with a card the bank refuses, stays paused with the banner until the open invoice is paid', async () => {
    const { user, cookie } = await activeMember('subscription')
    await call('POST', '/api/billing/plan/pause', cookie)
    const failing = await saveCard(cookie, '4000000000000341')
    const account = (await call('GET', '/api/billing/account', cookie)).json()
    const good = account.cards.find((card: { id: string }) => card.id !== failing).id
    await call('PUT', `/api/billing/cards/${failing}/default`, cookie)
    await call('DELETE', `/api/billing/cards/${good}`, cookie)
    await advance(user.email, 31)

    await call('POST', '/api/billing/plan/resume', cookie)
    const refused = await planWhen(cookie, (state) => state.paymentFailed)
    expect(refused.subscription?.status).toBe('paused')
    expect(refused.actions).toMatchObject({ resume: false, payInvoice: true })
    // Retried like a renewal, and never turned into a plan past due with sessions refused twice.
    expect(refused.nextPaymentAttempt).not.toBeNull()
    expect(await hasAccess(cookie)).toBe(false)

    const fresh = await saveCard(cookie, '4242424242424242')
    await call('PUT', `/api/billing/cards/${fresh}/default`, cookie)
    const paying = await call(
      'POST',
      `/api/billing/invoices/${refused.openInvoice?.id}/pay`,
      cookie,
    )
    expect(paying.statusCode).toBe(200)
    const active = await planWhen(cookie, statusIs('active'))
    expect(active.paymentFailed).toBe(false)
    expect(await hasAccess(cookie)).toBe(true)
  })

  it('after a failed renewal is past due with the banner, unpaid when the retries fail, and active again once the open invoice is paid', async () => {
    const { user, cookie } = await activeMember('subscription')
    // The only card now is one whose charges fail.
    const failing = await saveCard(cookie, '4000000000000341')
    const account = (await call('GET', '/api/billing/account', cookie)).json()
    const good = account.cards.find((card: { id: string }) => card.id !== failing).id
    await call('PUT', `/api/billing/cards/${failing}/default`, cookie)
    await call('DELETE', `/api/billing/cards/${good}`, cookie)

    await advance(user.email, 31)
    // Each of the renewal's events syncs the member's rows; one that read the gateway half-way
    // through the renewal can show the failed charge before the past-due status. The rows are
    // checked once the last sync has written both.
    const pastDue = await planWhen(
      cookie,
      (state) => state.paymentFailed && statusIs('past_due')(state),
    )
    expect(pastDue.subscription?.status).toBe('past_due')
    expect(pastDue.openInvoice?.status).toBe('open')
    expect(pastDue.actions.payInvoice).toBe(true)
    expect(pastDue.refusal).toBe('card_declined')
    // While the card is tried again by itself, the member keeps access.
    expect(await hasAccess(cookie)).toBe(true)
    // And is told by mail: how much, why, when it is tried again, where to pay.
    const [refusedMail] = await mailsTo(user.email, 'We could not charge US$15.00')
    expect(refusedMail?.text).toContain(
      'Your bank refused the charge of US$15.00 for your plan SUBSCRIPTION. Reason: Your card was declined.',
    )
    expect(refusedMail?.text).toContain(
      `We will try again on ${formatDay(pastDue.nextPaymentAttempt ?? '', 'en')}; you keep access until then.`,
    )
    expect(refusedMail?.text).toContain(`${testApp.app.config.publicUrl}/my-account`)

    // Retried after 3 days, then after 4 more: both fail, and the plan is unpaid.
    const firstRetry = pastDue.nextPaymentAttempt
    expect(firstRetry).not.toBeNull()
    await advance(user.email, 3)
    const retried = await planWhen(
      cookie,
      (state) => state.nextPaymentAttempt !== null && state.nextPaymentAttempt !== firstRetry,
    )
    expect(retried.subscription?.status).toBe('past_due')
    await advance(user.email, 4)
    const unpaid = await planWhen(cookie, statusIs('unpaid'))
    expect(unpaid.openInvoice?.id).toBe(pastDue.openInvoice?.id)
    // The tries are used up: access stops until the invoice is paid, and the last mail says so.
    expect(await hasAccess(cookie)).toBe(false)
    const tries = await mailsTo(user.email, 'We could not charge US$15.00', 3)
    expect(tries).toHaveLength(3)
    expect(tries.at(-1)?.text).toContain('your access is paused until the invoice is paid')

    // The member adds a good card, makes it the default and pays the open invoice.
    const fresh = await saveCard(cookie, '4242424242424242')
    await call('PUT', `/api/billing/cards/${fresh}/default`, cookie)
    const paying = await call('POST', `/api/billing/invoices/${unpaid.openInvoice?.id}/pay`, cookie)
    expect(paying.statusCode).toBe(200)
    const active = await planWhen(cookie, statusIs('active'))
    expect(active.openInvoice).toBeNull()
    expect(active.paymentFailed).toBe(false)
    expect(await hasAccess(cookie)).toBe(true)
  })

  it('whose first charge fails stays incomplete with the banner, and expires after a day', async () => {
    const { user, cookie } = await member()
    await saveCard(cookie, '4000000000009995')
    await start(cookie, 'subscription')
    const failed = await planWhen(cookie, (state) => state.paymentFailed)
    expect(failed.subscription?.status).toBe('incomplete')
    expect(await hasAccess(cookie)).toBe(false)

    await advance(user.email, 1)
    const expired = await planWhen(cookie, statusIs('incomplete_expired'))
    expect(expired.openInvoice).toBeNull()
    expect(expired.actions.reactivate).toBe(true)
  })
})

describe('Pay Actual Invoice', () => {
  it('charges once for two clicks at the same moment, and a member’s own failed try does not use up the retries', async () => {
    const { user, cookie } = await activeMember('subscription')
    const failing = await saveCard(cookie, '4000000000000341')
    await call('PUT', `/api/billing/cards/${failing}/default`, cookie)
    await advance(user.email, 31)
    // Each of the renewal's events syncs the member's rows; one that read the gateway half-way
    // through the renewal can show the failed charge before the past-due status. The rows are
    // checked once the last sync has written both.
    const pastDue = await planWhen(
      cookie,
      (state) => state.paymentFailed && statusIs('past_due')(state),
    )
    const invoiceId = pastDue.openInvoice?.id ?? ''

    // A try of the member's own with the failing card: refused, still past due, retry kept.
    await call('POST', `/api/billing/invoices/${invoiceId}/pay`, cookie)
    const tried = await planWhen(cookie, (state) => state.paymentFailed && !state.charging)
    expect(tried.subscription?.status).toBe('past_due')
    expect(tried.nextPaymentAttempt).toBe(pastDue.nextPaymentAttempt)

    const good = await saveCard(cookie, '4242424242424242')
    await call('PUT', `/api/billing/cards/${good}/default`, cookie)
    const answers = await Promise.all([
      call('POST', `/api/billing/invoices/${invoiceId}/pay`, cookie),
      call('POST', `/api/billing/invoices/${invoiceId}/pay`, cookie),
    ])
    expect(
      answers.map((answer) => answer.statusCode).sort(),
      answers.map((answer) => answer.body).join(' | '),
    ).toEqual([200, 409])
    await planWhen(cookie, statusIs('active'))
    const [customer] = await testApp.app.db
      .select({ id: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, user.id))
    const invoice = await testApp.app.payments.retrieveInvoice(invoiceId)
    const charges = (await testApp.app.payments.listPaymentIntents(customer?.id ?? '')).filter(
      (intent) => invoice?.payment_intents.includes(intent.id) && intent.status === 'succeeded',
    )
    expect(charges).toHaveLength(1)
  })
})

describe('FOUR PAYMENTS', () => {
  it('charges four times a month apart, then ends by itself as paid and keeps access', async () => {
    const { user, cookie } = await activeMember('four_payments')
    expect((await planOf(cookie)).subscription?.installments).toEqual({ paid: 1, total: 4 })
    expect((await planOf(cookie)).actions).toMatchObject({ cancelRenewal: false, pause: false })

    expect((await planOf(cookie)).lifetime).toBe(false)

    for (const paid of [2, 3, 4]) {
      await advance(user.email, 31)
      await planWhen(cookie, (state) => state.subscription?.installments?.paid === paid)
    }
    // Once the fourth is paid, the plan is paid for good, even before its last month ends.
    const lastPaid = await planOf(cookie)
    expect(lastPaid.subscription?.status).toBe('active')
    expect(lastPaid.lifetime).toBe(true)
    await advance(user.email, 31)
    const done = await planWhen(cookie, statusIs('paid'))
    expect(done.lifetime).toBe(true)
    expect(done.subscription?.installments).toEqual({ paid: 4, total: 4 })
    // Told once, when the last payment was made.
    expect(await mailsTo(user.email, 'Last payment made')).toHaveLength(1)
    expect(done.actions).toMatchObject({ startNow: false, reactivate: false, payInvoice: false })
    expect(await hasAccess(cookie)).toBe(true)

    const invoices = await invoicesOf(cookie)
    expect(invoices).toHaveLength(4)
    expect(invoices.every((invoice) => invoice.status === 'paid' && invoice.total === 3900)).toBe(
      true,
    )
    // Each row names what it paid for: newest first, the fourth of the four.
    expect(invoices.map((invoice) => [invoice.product, invoice.installment?.number])).toEqual([
      ['FOUR PAYMENTS', 4],
      ['FOUR PAYMENTS', 3],
      ['FOUR PAYMENTS', 2],
      ['FOUR PAYMENTS', 1],
    ])
    // Nothing more is charged after the fourth.
    await advance(user.email, 62)
    expect(await invoicesOf(cookie)).toHaveLength(4)
  })
})

describe('upgrading from the subscription', () => {
  it('to FOUR PAYMENTS credits the unused part of the month and starts the four months today', async () => {
    const { user, cookie } = await activeMember('subscription')
    await advance(user.email, 10)
    const four = await priceOf(cookie, 'four_payments')
    const preview = await call('GET', `/api/billing/plan/upgrade?priceId=${four}`, cookie)
    expect(preview.statusCode).toBe(200)
    const { amount, credit, total } = preview.json()
    expect(amount).toBe(3900)
    // About two thirds of $15 are left of a month of 28–31 days after 10 of them.
    expect(credit).toBeLessThan(-900)
    expect(credit).toBeGreaterThan(-1100)
    expect(total).toBe(amount + credit)

    const upgraded = await call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: four,
      attemptId: randomUUID(),
    })
    expect(upgraded.statusCode).toBe(200)
    const moved = await planWhen(
      cookie,
      (state) => state.subscription?.installments?.paid === 1 && !state.openInvoice,
    )
    expect(moved.subscription).toMatchObject({ plan: 'four_payments', status: 'active' })
    const [invoice] = await invoicesOf(cookie)
    expect(invoice?.status).toBe('paid')
    expect(Math.abs((invoice?.total ?? 0) - total)).toBeLessThanOrEqual(1)
    expect(moved.actions.upgrade).toBe(false)
  })

  it('to FOUR PAYMENTS that stopped after moving the plan is given its end by the sync, so it never charges for good', async () => {
    const { user, cookie } = await activeMember('subscription')
    const sandbox = testApp.app.paymentsSandbox
    if (!sandbox) throw new Error('the app runs on the sandbox')
    // The provider fails the upgrade's second call (attaching the schedule that ends the plan),
    // as a crash of ours between the calls would leave it: moved to FOUR PAYMENTS' monthly
    // price, charged for the move, with no end.
    const attachSchedule = sandbox.attachSchedule
    sandbox.attachSchedule = async () => {
      throw new Error('the provider is unavailable')
    }
    const failed = await call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: await priceOf(cookie, 'four_payments'),
      attemptId: randomUUID(),
    }).finally(() => {
      sandbox.attachSchedule = attachSchedule
    })
    expect(failed.statusCode).toBe(500)
    const [customer] = await testApp.app.db
      .select({ id: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, user.id))
    if (!customer) throw new Error('a member with a customer')
    await syncCustomer({ db: testApp.app.db, payments: testApp.app.payments }, customer.id)

    const { subscription } = await planOf(cookie)
    expect(subscription).toMatchObject({ plan: 'four_payments', cancelAtPeriodEnd: false })
    expect(subscription?.cancelAt).not.toBeNull()
    // Four months from the move, which started its months.
    const start = new Date(subscription?.currentPeriodStart ?? '')
    const end = new Date(subscription?.cancelAt ?? 0)
    expect(
      (end.getUTCFullYear() - start.getUTCFullYear()) * 12 +
        end.getUTCMonth() -
        start.getUTCMonth(),
    ).toBe(4)
    expect(end.getUTCDate()).toBe(start.getUTCDate())
    // The move was charged once: the first month, then the move.
    expect(await invoicesOf(cookie)).toHaveLength(2)
  })

  it('to ONE PAYMENT ends the subscription once paid, and access stays for good', async () => {
    const { user, cookie } = await activeMember('subscription')
    const once = await priceOf(cookie, 'one_payment')
    const upgraded = await call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: once,
      attemptId: randomUUID(),
    })
    expect(upgraded.statusCode).toBe(200)
    const ended = await planWhen(cookie, statusIs('canceled'))
    // Lifetime access: nothing to start again, and the screen says paid for good.
    expect(ended.lifetime).toBe(true)
    expect(ended.actions).toMatchObject({ startNow: false, reactivate: false, upgrade: false })
    expect(await hasAccess(cookie)).toBe(true)
    const [invoice] = await invoicesOf(cookie)
    expect(invoice?.status).toBe('paid')
    // Nearly the whole month was unused: almost $15 comes off $149.
    expect(invoice?.total).toBeLessThan(14900 - 1400)
    // The charge carries none of our metadata (the provider copies none onto an invoice's
    // charges): it is recorded as a ONE PAYMENT from the invoice that lists it.
    const recorded = await testApp.app.db
      .select({ priceId: billingPaymentIntents.priceId, amount: billingPaymentIntents.amount })
      .from(billingPaymentIntents)
      .where(eq(billingPaymentIntents.userId, user.id))
    expect(recorded).toEqual([{ priceId: once, amount: invoice?.total }])
  })

  it('to ONE PAYMENT with a refused card leaves the subscription as it was, with nothing open', async () => {
    const { cookie } = await activeMember('subscription')
    const failing = await saveCard(cookie, '4000000000000341')
    await call('PUT', `/api/billing/cards/${failing}/default`, cookie)
    await call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      attemptId: randomUUID(),
    })
    const after = await planWhen(cookie, (state) => !state.charging)
    expect(after.subscription).toMatchObject({ plan: 'subscription', status: 'active' })
    expect(after.openInvoice).toBeNull()
    expect(after.paymentFailed).toBe(false)
    expect(after.actions.upgrade).toBe(true)
    expect((await invoicesOf(cookie))[0]?.status).toBe('void')
  })

  it('to ONE PAYMENT that stopped between its invoice and its charge (a crash) is voided by the sync, and may be tried again', async () => {
    const { user, cookie } = await activeMember('subscription')
    const plan = await planOf(cookie)
    const [customer] = await testApp.app.db
      .select({ id: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, user.id))
    const sandbox = testApp.app.paymentsSandbox
    if (!customer || !sandbox || !plan.subscription) throw new Error('an active member')
    // What the provider holds once an upgrade's process died after finalizing its invoice and
    // before paying it: the invoice open, marked as ending the plan, never charged.
    const left = await sandbox.issueInvoice(
      {
        id: `in_crash${randomUUID().replaceAll('-', '')}`,
        customer: customer.id,
        price: await priceOf(cookie, 'one_payment'),
        credit: null,
        endsSubscription: plan.subscription.id,
      },
      { idempotencyKey: `crash-${user.id}` },
    )
    expect(left).toMatchObject({ status: 'open', attempt_count: 0 })
    await syncCustomer({ db: testApp.app.db, payments: testApp.app.payments }, customer.id)

    expect((await testApp.app.payments.retrieveInvoice(left.id))?.status).toBe('void')
    const after = await planOf(cookie)
    expect(after.subscription).toMatchObject({ plan: 'subscription', status: 'active' })
    expect(after.openInvoice).toBeNull()
    expect(after.actions).toMatchObject({ upgrade: true, payInvoice: false })
    expect(await hasAccess(cookie)).toBe(true)

    const again = await call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      attemptId: randomUUID(),
    })
    expect(again.statusCode, again.body).toBe(200)
    await planWhen(cookie, statusIs('canceled'))
    const invoices = await invoicesOf(cookie)
    expect(invoices.filter((invoice) => invoice.status === 'paid')).toHaveLength(2)
    expect(invoices.find((invoice) => invoice.id === left.id)?.status).toBe('void')
  })

  it('is the way to ONE PAYMENT while a plan runs: Pay now is refused, so monthly charges never go on beside it', async () => {
    const { cookie } = await activeMember('subscription')
    const card = await call('POST', '/api/billing/sandbox/cards', cookie, {
      number: '4242424242424242',
      expMonth: 12,
      expYear: nextYear,
      cvc: '123',
    })
    const paid = await call('POST', '/api/billing/one-payment', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      paymentMethodId: card.json().id,
      attemptId: randomUUID(),
    })
    expect(paid.statusCode).toBe(409)
    expect(paid.json().message).toBe(
      'You have a monthly plan in progress. Use Upgrade plan to move to ONE PAYMENT.',
    )
  })

  it('is refused to a plan that is not an active subscription, and to the subscription itself', async () => {
    const { cookie } = await activeMember('four_payments')
    const once = await priceOf(cookie, 'one_payment')
    const refused = await call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: once,
      attemptId: randomUUID(),
    })
    expect(refused.statusCode).toBe(409)
    const member2 = await activeMember('subscription')
    const same = await call(
      'GET',
      `/api/billing/plan/upgrade?priceId=${await priceOf(cookie, 'subscription')}`,
      member2.cookie,
    )
    expect(same.statusCode).toBe(400)
    expect(same.json().message).toBe('An upgrade moves to FOUR PAYMENTS or ONE PAYMENT.')
  })
})

describe('starting a plan', () => {
  it('starts one plan for two requests at the same moment', async () => {
    const { cookie } = await member()
    await saveCard(cookie, '4242424242424242')
    const answers = await Promise.all([
      start(cookie, 'subscription'),
      start(cookie, 'subscription'),
    ])
    expect(
      answers.map((answer) => answer.statusCode).sort(),
      answers.map((answer) => answer.body).join(' | '),
    ).toEqual([200, 409])
    await planWhen(cookie, statusIs('active'))
    expect(await invoicesOf(cookie)).toHaveLength(1)
  })

  it('asks for a card first, refuses ONE PAYMENT as a plan, in the member’s language', async () => {
    const { cookie } = await member()
    const noCard = await start(cookie, 'subscription', 'es')
    expect(noCard.statusCode).toBe(409)
    expect(noCard.json().message).toBe(
      'Añade primero una tarjeta: los planes se cobran a tu tarjeta predeterminada.',
    )
    await saveCard(cookie, '4242424242424242')
    const once = await call('POST', '/api/billing/plan/start', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      attemptId: randomUUID(),
    })
    expect(once.statusCode).toBe(400)
    expect(once.json().message).toBe('This price is not a monthly plan.')
    const noPrice = await call('POST', '/api/billing/plan/start', cookie, {
      priceId: '',
      attemptId: randomUUID(),
    })
    expect(noPrice.statusCode).toBe(400)
    expect(noPrice.json().issues[0].message).toBe('*Select a Price Plan first')
    expect(await invoicesOf(cookie)).toEqual([])
  })

  it('keeps the only card of a running plan', async () => {
    const { cookie } = await activeMember('subscription')
    const [card] = (await call('GET', '/api/billing/account', cookie)).json().cards
    const removal = await call('DELETE', `/api/billing/cards/${card.id}`, cookie)
    expect(removal.statusCode).toBe(409)
    expect(removal.json().message).toBe(
      'This is the only card of your running plan. Add another card before removing it.',
    )
    expect((await call('GET', '/api/billing/account', cookie)).json().cards).toHaveLength(1)
  })
})

describe('invoices', () => {
  it('are made for a ONE PAYMENT once paid, mailed as a PDF to the billing and copy addresses, and downloaded by their owner only', async () => {
    const { user, cookie } = await member()
    const card = await call('POST', '/api/billing/sandbox/cards', cookie, {
      number: '4242424242424242',
      expMonth: 12,
      expYear: nextYear,
      cvc: '123',
    })
    await call('POST', '/api/billing/one-payment', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      paymentMethodId: card.json().id,
      receiptEmail: 'copy@example.com',
      attemptId: randomUUID(),
    })
    const [invoice] = await vi.waitFor(
      async () => {
        const invoices = await invoicesOf(cookie)
        if (invoices.length === 0) throw new Error('no invoice yet')
        return invoices
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(invoice).toMatchObject({ status: 'paid', total: 14900 })
    expect(invoice?.paidAt).not.toBeNull()
    // Lifetime access: there is no plan to start.
    expect((await planOf(cookie)).actions.startNow).toBe(false)

    // The PDF goes by mail, once, to the billing e-mail and to the copy address.
    const mails = await vi.waitFor(
      async () => {
        const rows = await testApp.app.db
          .select()
          .from(mailOutbox)
          .where(like(mailOutbox.subject, `%${invoice?.number}%`))
        if (rows.length < 2) throw new Error('invoice mail not delivered yet')
        return rows
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(mails.map((mail) => mail.to).sort()).toEqual(['copy@example.com', user.email].sort())
    for (const mail of mails) {
      expect(mail.subject).toBe(`Your Harmonize invoice ${invoice?.number}`)
      expect(mail.text).toContain('US$149.00')
      expect(mail.attachments).toEqual([
        {
          filename: `invoice-${invoice?.number}.pdf`,
          contentType: 'application/pdf',
          bytes: expect.any(Number),
        },
      ])
    }

    const pdf = await call('GET', invoice?.pdfUrl ?? '', cookie)
    expect(pdf.statusCode).toBe(200)
    expect(pdf.headers['content-type']).toBe('application/pdf')
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    const stranger = await member()
    expect((await call('GET', invoice?.pdfUrl ?? '', stranger.cookie)).statusCode).toBe(404)
  })

  it('of one member are never seen or paid by another', async () => {
    const owner = await activeMember('subscription')
    const [invoice] = await invoicesOf(owner.cookie)
    const stranger = await member()
    await saveCard(stranger.cookie, '4242424242424242')
    expect(await invoicesOf(stranger.cookie)).toEqual([])
    const paying = await call('POST', `/api/billing/invoices/${invoice?.id}/pay`, stranger.cookie)
    expect(paying.statusCode).toBe(404)
    expect((await call('POST', '/api/billing/plan/cancel', stranger.cookie)).statusCode).toBe(409)
    expect((await planOf(owner.cookie)).subscription?.cancelAtPeriodEnd).toBe(false)
  })
})

describe('Charges of a plan', () => {
  it('are told from one-time payments by the invoice that lists them, not by metadata of ours', async () => {
    // Stripe copies no metadata onto the charges it makes for invoices: the sandbox does not
    // either, so only the invoice's list of payments says a charge was the plan's.
    const { user, cookie } = await activeMember('subscription')
    await advance(user.email, 31)
    await vi.waitFor(
      async () => {
        const paid = (await invoicesOf(cookie)).filter((invoice) => invoice.status === 'paid')
        if (paid.length < 2) throw new Error('renewal not paid yet')
      },
      { timeout: 30_000, interval: 200 },
    )
    // No lifetime payment appears, and the subscription may still be upgraded to one.
    expect((await call('GET', '/api/billing/payments', cookie)).json().payments).toEqual([])
    const state = await planOf(cookie)
    expect(state.subscription?.status).toBe('active')
    expect(state.actions.upgrade).toBe(true)
  })
})

describe('a card whose bank checks each payment made with the member present (3-D Secure)', () => {
  /** Saves the card through the bank's check, as Add Credit Card does; it becomes the default. */
  async function checkedCard(cookie: string, number: string) {
    const { cardField } = billingCallsTo(call)
    const paymentMethodId = await cardField(cookie, number)
    const confirmed = await call('POST', '/api/billing/cards/confirm', cookie, { paymentMethodId })
    expect(confirmed.json().status).toBe('requires_action')
    const checked = await call('POST', '/api/billing/sandbox/setups/check', cookie, {
      clientSecret: confirmed.json().clientSecret,
      outcome: 'complete',
    })
    expect(checked.statusCode).toBe(200)
  }
  const answerCheck = (cookie: string, clientSecret: string, outcome: string, language = 'en') =>
    call('POST', '/api/billing/sandbox/plan/check', cookie, { clientSecret, outcome }, language)

  it('Start Now waits for the check: failed, nothing is charged and the invoice can be paid again, which asks again; completed, the plan is active; the renewal needs none', async () => {
    const { user, cookie } = await member()
    await checkedCard(cookie, '4000002500003155')

    const started = await start(cookie, 'subscription')
    expect(started.statusCode).toBe(200)
    const waiting = started.json() as PlanState
    expect(waiting.bankCheck).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/)
    expect(waiting).toMatchObject({ paymentFailed: false, charging: false })
    expect(await hasAccess(cookie)).toBe(false)
    // The same check is offered on the page after a reload.
    expect((await planOf(cookie)).bankCheck).toBe(waiting.bankCheck)

    // ONE PAYMENT meanwhile would be paid beside the month, were it confirmed later.
    const { cardField } = billingCallsTo(call)
    const payNow = await call('POST', '/api/billing/one-payment', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      paymentMethodId: await cardField(cookie, '4242424242424242'),
      attemptId: randomUUID(),
    })
    expect(payNow.statusCode).toBe(409)
    expect(payNow.json().message).toBe(
      'A payment of your plan is waiting for you to confirm it with your bank. Confirm it on My Account first.',
    )

    const failed = await answerCheck(cookie, waiting.bankCheck ?? '', 'fail', 'es')
    expect(failed.statusCode).toBe(402)
    expect(failed.json().message).toBe(
      'Tu banco no pudo confirmar este pago, así que no se ha cobrado nada. Inténtalo de nuevo o usa otra tarjeta.',
    )
    const refused = await planOf(cookie)
    expect(refused).toMatchObject({ bankCheck: null, paymentFailed: true })
    expect(refused.actions.payInvoice).toBe(true)
    // The failed check is over: answering it again changes nothing.
    expect((await answerCheck(cookie, waiting.bankCheck ?? '', 'complete')).statusCode).toBe(404)

    const invoiceId = refused.openInvoice?.id ?? ''
    const paying = await call('POST', `/api/billing/invoices/${invoiceId}/pay`, cookie)
    expect(paying.statusCode).toBe(200)
    const again = paying.json() as PlanState
    expect(again.bankCheck).toMatch(/^pi_/)
    expect(again.bankCheck).not.toBe(waiting.bankCheck)
    const confirmed = await answerCheck(cookie, again.bankCheck ?? '', 'complete')
    expect(confirmed.statusCode).toBe(200)
    expect((confirmed.json() as PlanState).bankCheck).toBeNull()
    await planWhen(cookie, statusIs('active'))
    expect(await hasAccess(cookie)).toBe(true)
    expect((await invoicesOf(cookie)).map((invoice) => invoice.status)).toEqual(['paid'])

    // A renewal is made while the member is away; the card was checked when saved.
    await advance(user.email, 31)
    await vi.waitFor(
      async () =>
        expect((await invoicesOf(cookie)).map((invoice) => invoice.status)).toEqual([
          'paid',
          'paid',
        ]),
      { timeout: 30_000, interval: 200 },
    )
  })

  it('an upgrade to ONE PAYMENT waits for the check; a purchase meanwhile leaves it be, and confirmed, the plan ends paid for good', async () => {
    const { cookie } = await member()
    await checkedCard(cookie, '4000002500003155')
    const started = (await start(cookie, 'subscription')).json() as PlanState
    expect((await answerCheck(cookie, started.bankCheck ?? '', 'complete')).statusCode).toBe(200)
    await planWhen(cookie, statusIs('active'))

    const upgraded = await call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      attemptId: randomUUID(),
    })
    expect(upgraded.statusCode).toBe(200)
    const waiting = upgraded.json() as PlanState
    expect(waiting.bankCheck).toMatch(/^pi_/)
    expect(waiting.openInvoice).not.toBeNull()
    // Pay now meanwhile is refused as beside a running plan; the invoice's charge is not given up.
    const { cardField } = billingCallsTo(call)
    const payNow = await call('POST', '/api/billing/one-payment', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      paymentMethodId: await cardField(cookie, '4242424242424242'),
      attemptId: randomUUID(),
    })
    expect(payNow.statusCode).toBe(409)
    expect((await planOf(cookie)).bankCheck).toBe(waiting.bankCheck)

    expect((await answerCheck(cookie, waiting.bankCheck ?? '', 'complete')).statusCode).toBe(200)
    const ended = await planWhen(cookie, statusIs('canceled'))
    expect(ended.actions).toMatchObject({ startNow: false, reactivate: false, upgrade: false })
    expect(await hasAccess(cookie)).toBe(true)
  })

  it('an upgrade’s check left unanswered until the plan’s next month is dropped, its credit out of date', async () => {
    const { user, cookie } = await member()
    await checkedCard(cookie, '4000002500003155')
    const started = (await start(cookie, 'subscription')).json() as PlanState
    await answerCheck(cookie, started.bankCheck ?? '', 'complete')
    await planWhen(cookie, statusIs('active'))
    const upgraded = await call('POST', '/api/billing/plan/upgrade', cookie, {
      priceId: await priceOf(cookie, 'one_payment'),
      attemptId: randomUUID(),
    })
    expect((upgraded.json() as PlanState).bankCheck).toMatch(/^pi_/)

    await advance(user.email, 31)
    const dropped = await planWhen(
      cookie,
      (state) => state.bankCheck === null && state.openInvoice === null,
    )
    expect(dropped.subscription?.status).toBe('active')
    expect(dropped.actions.upgrade).toBe(true)
    const statuses = (await invoicesOf(cookie)).map((invoice) => invoice.status)
    expect(statuses.sort()).toEqual(['paid', 'paid', 'void'])
  })

  it('FOUR PAYMENTS’ first payment waits for the check too, and only the member’s own check is answered', async () => {
    const { cookie } = await member()
    const stranger = await member()
    await checkedCard(cookie, '4000002500003155')
    const started = (await start(cookie, 'four_payments')).json() as PlanState
    expect(started.bankCheck).toMatch(/^pi_/)
    const secret = started.bankCheck ?? ''
    const theirs = await answerCheck(stranger.cookie, secret, 'complete')
    expect(theirs.statusCode).toBe(404)
    expect(theirs.json().message).toBe('This payment does not exist.')
    expect((await answerCheck(cookie, 'not-a-secret', 'complete')).statusCode).toBe(400)
    expect((await planOf(cookie)).bankCheck).toBe(secret)

    expect((await answerCheck(cookie, secret, 'complete')).statusCode).toBe(200)
    const active = await planWhen(cookie, statusIs('active'))
    expect(active.subscription?.installments).toMatchObject({ paid: 1, total: 4 })
  })
})
