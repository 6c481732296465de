import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { users } from '../../../db/schema/auth'
import { billingCustomers, billingNotices } from '../../../db/schema/billing'
import type { PlanState } from '../../../domain/billing-plans'
import { formatDay, formatMoney } from '../../../domain/format'
import {
  apiCallsTo,
  billingCallsTo,
  memberWithCookie,
  planCallsTo,
} from '../../../tests/support/api-calls'
import { outboxMailsWith } from '../../../tests/support/outbox'
import { QUICK_BANK, setUpTestApp } from '../../../tests/support/test-app'
import { advanceClock } from './clock'
import { withMemberLock } from './member-lock'
import {
  billingDepsOf,
  cardExpiringLetter,
  queueNoticesBeforeCharges,
  renewalReminderLetter,
} from './notices'
import { STALE_AFTER_MS } from './resync'

// The billing mails that depend on the time left before the next charge (issue 29): the
// reminder a member turns on in My Account, and a default card that expires first. The
// sandbox's clock is moved as `billing advance` moves it, through the server's own billing
// (which mails what falls due), or without it as the CLI on the database does, after which the
// hourly pass finds what is due.

const testApp = setUpTestApp(
  {},
  {
    jobs: { pollingIntervalSeconds: 0.5 },
    payments: { sandboxBankDelay: QUICK_BANK },
    // The hourly pass is made due by one test: its worker looks as often as the others.
    billing: { resyncPollingSeconds: 0.5 },
  },
)

const call = apiCallsTo(() => testApp.app)
const { planOf, planWhen } = planCallsTo(call)
const { priceOf, saveCard } = billingCallsTo(call)

/** As `npm run cli -- billing advance` through the running server. */
const advance = (email: string, days: number) =>
  advanceClock(billingDepsOf(testApp.app), { email, days })

/** As the CLI on the database itself, with no server to mail anything. */
const advanceQuietly = (email: string, days: number) =>
  advanceClock({ db: testApp.app.db, payments: testApp.app.payments }, { email, days })

/**
 * Whole days that leave the member two days (less the seconds since the plan began) before the
 * renewal of `plan`: inside the reminder's three, whatever the month's length. A plan begun now
 * on a member's new clock renews on its day a calendar month on (28 to 31 days).
 */
const toTwoDaysBefore = (plan: PlanState) =>
  Math.ceil((new Date(plan.subscription?.currentPeriodEnd ?? 0).getTime() - Date.now()) / DAY_MS) -
  2

const mailsTo = (to: string, subject: string, count = 1) =>
  outboxMailsWith(testApp.app, to, subject, count)

/** The notices of a kind the member was sent: written when their mail is queued. */
const noticesOf = async (userId: string, kind: string) =>
  testApp.app.db
    .select()
    .from(billingNotices)
    .where(and(eq(billingNotices.userId, userId), eq(billingNotices.kind, kind)))

const DAY_MS = 86_400_000

const active = (state: PlanState) => state.subscription?.status === 'active'

async function subscribe(cookie: string) {
  const started = await call('POST', '/api/billing/plan/start', cookie, {
    priceId: await priceOf(cookie, 'subscription'),
    attemptId: randomUUID(),
  })
  expect(started.statusCode).toBe(200)
  return planWhen(cookie, active)
}

async function subscriber(reminders: boolean, language = 'en') {
  const { user, cookie } = await memberWithCookie(testApp.app)
  if (language !== 'en') {
    await call('PUT', '/api/account/language', cookie, { language })
  }
  await saveCard(cookie, '4242424242424242')
  if (reminders) {
    const turned = await call('PUT', '/api/billing/plan/reminders', cookie, { on: true })
    expect(turned.statusCode).toBe(200)
    expect((turned.json() as PlanState).renewalReminders).toBe(true)
  }
  const plan = await subscribe(cookie)
  return { user, cookie, plan }
}

describe('the reminder before each monthly payment', () => {
  it('is off by default, and is turned on and off by the member only, with a clear error for a wrong answer', async () => {
    const { cookie } = await memberWithCookie(testApp.app)
    expect((await planOf(cookie)).renewalReminders).toBe(false)
    const wrong = await call('PUT', '/api/billing/plan/reminders', cookie, { on: 'yes' }, 'es')
    expect(wrong.statusCode).toBe(400)
    expect(JSON.stringify(wrong.json())).not.toMatch(/Invalid input|expected/i)
    expect((await planOf(cookie)).renewalReminders).toBe(false)
    await call('PUT', '/api/billing/plan/reminders', cookie, { on: true })
    expect((await planOf(cookie)).renewalReminders).toBe(true)
    await call('PUT', '/api/billing/plan/reminders', cookie, { on: false })
    expect((await planOf(cookie)).renewalReminders).toBe(false)
    expect((await call('PUT', '/api/billing/plan/reminders', '', { on: true })).statusCode).toBe(
      401,
    )
  })

  it('is mailed 3 days before each renewal to a member who turned it on, with the amount, the day and the link to My Account; never to one who did not', async () => {
    const on = await subscriber(true)
    const off = await subscriber(false)
    const renewsOn = on.plan.subscription?.currentPeriodEnd ?? ''

    await advance(on.user.email, 31)
    await advance(off.user.email, 31)
    const [reminder] = await mailsTo(
      on.user.email,
      `Your next Harmonize payment, US$15.00, is on ${formatDay(renewsOn, 'en')}`,
    )
    expect(reminder?.text).toContain(
      `On ${formatDay(renewsOn, 'en')} we will charge US$15.00 for your plan SUBSCRIPTION`,
    )
    expect(reminder?.text).toContain(`${testApp.app.config.publicUrl}/my-account`)
    expect(await noticesOf(off.user.id, 'renewal_reminder')).toHaveLength(0)

    // The next month's renewal is reminded too; each once, however often the clock moves.
    const renewed = await planWhen(on.cookie, (state) =>
      Boolean(state.subscription && state.subscription.currentPeriodEnd > renewsOn),
    )
    await advance(on.user.email, 1)
    expect(await noticesOf(on.user.id, 'renewal_reminder')).toHaveLength(1)
    await advance(on.user.email, 30)
    await mailsTo(
      on.user.email,
      `Your next Harmonize payment, US$15.00, is on ${formatDay(renewed.subscription?.currentPeriodEnd ?? '', 'en')}`,
    )
    expect(await noticesOf(on.user.id, 'renewal_reminder')).toHaveLength(2)
    expect(await noticesOf(off.user.id, 'renewal_reminder')).toHaveLength(0)
  })

  it('comes before each renewal that one long advance passes, not only the first', async () => {
    const { user, cookie, plan } = await subscriber(true)
    const firstRenewal = plan.subscription?.currentPeriodEnd ?? ''
    // Two calendar months are at most 62 days: 65 passes two renewals and stops short of a third
    // reminder (the third renewal is at least 89 days away).
    await advance(user.email, 65)
    const twice = await planWhen(cookie, (state) =>
      Boolean(state.subscription && state.subscription.currentPeriodStart > firstRenewal),
    )
    const secondRenewal = twice.subscription?.currentPeriodStart ?? ''
    for (const renewal of [firstRenewal, secondRenewal]) {
      await mailsTo(
        user.email,
        `Your next Harmonize payment, US$15.00, is on ${formatDay(renewal, 'en')}`,
      )
    }
    expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(2)
  })

  it('comes before each of the three later FOUR PAYMENTS, and not after the last, which ends the plan', async () => {
    const { user, cookie } = await memberWithCookie(testApp.app)
    await saveCard(cookie, '4242424242424242')
    await call('PUT', '/api/billing/plan/reminders', cookie, { on: true })
    const started = await call('POST', '/api/billing/plan/start', cookie, {
      priceId: await priceOf(cookie, 'four_payments'),
      attemptId: randomUUID(),
    })
    expect(started.statusCode).toBe(200)
    await planWhen(cookie, active)
    for (const paid of [2, 3, 4]) {
      await advance(user.email, 31)
      const state = await planWhen(
        cookie,
        (state) => state.subscription?.installments?.paid === paid,
      )
      expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(paid - 1)
      // My Account offers the reminder while one would come: not once the last one is paid.
      expect(state.remindable).toBe(paid < 4)
    }
    await advance(user.email, 31)
    expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(3)
    expect((await planOf(cookie)).lifetime).toBe(true)
    expect((await planOf(cookie)).remindable).toBe(false)
  })

  it('is not mailed once the renewal is cancelled: nothing more will be charged', async () => {
    const { user, cookie, plan } = await subscriber(true)
    expect(plan.remindable).toBe(true)
    const cancelled = await call('POST', '/api/billing/plan/cancel', cookie)
    expect(cancelled.statusCode).toBe(200)
    expect((cancelled.json() as PlanState).remindable).toBe(false)
    await advance(user.email, 29)
    expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(0)
    expect(await noticesOf(user.id, 'plan_ends')).toHaveLength(1)
  })

  it('reaches a member whose clock was moved without the server, at the next hourly pass, once', async () => {
    const { user, plan } = await subscriber(true, 'es')
    await advanceQuietly(user.email, toTwoDaysBefore(plan))
    expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(0)
    await queueNoticesBeforeCharges(testApp.app)
    await queueNoticesBeforeCharges(testApp.app)
    const amount = formatMoney(1500, 'es', 'usd')
    const [reminder] = await mailsTo(user.email, `Tu próximo pago de Harmonize, ${amount}`)
    expect(reminder?.text).toContain(`cobraremos ${amount} de tu plan SUSCRIPCIÓN`)
    expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(1)
  })

  it('is not mailed to a blocked account (blocked by an operator, or being deleted), and comes once it is unblocked', async () => {
    const { user, plan } = await subscriber(true)
    await advanceQuietly(user.email, toTwoDaysBefore(plan))
    const block = (blockedAt: Date | null) =>
      testApp.app.db
        .update(users)
        .set({ blockedAt, blockedReason: blockedAt ? 'Chargeback under review' : null })
        .where(eq(users.id, user.id))
    await block(new Date())
    await queueNoticesBeforeCharges(testApp.app)
    expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(0)
    await block(null)
    await queueNoticesBeforeCharges(testApp.app)
    await mailsTo(user.email, 'Your next Harmonize payment, US$15.00')
    expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(1)
  })
})

describe('the hourly pass', () => {
  it('mails the others what is due, and queues the next pass, when one member cannot be synced', async () => {
    const { user, plan } = await subscriber(true)
    await advanceQuietly(user.email, toTwoDaysBefore(plan))
    // Another member not synced for a day, whose turn is taken for longer than a sync waits
    // (another of their money actions running): their sync gives up with billing.memberBusy.
    const busy = await subscriber(false)
    const busySyncedAt = async () =>
      (
        await testApp.app.db
          .select({ syncedAt: billingCustomers.syncedAt })
          .from(billingCustomers)
          .where(eq(billingCustomers.userId, busy.user.id))
      )[0]?.syncedAt.getTime() ?? 0
    const passes = async () =>
      (
        await testApp.app.database.executeSql(
          `select state, extract(epoch from start_after - now())::float8 as "inSeconds"
             from pgboss.job where name = 'billing.resync' order by created_on`,
        )
      ).rows as { state: string; inSeconds: number }[]
    await withMemberLock(testApp.app.db, busy.user.id, async () => {
      // Made stale in the member's turn, which every sync of theirs writes in: their own
      // events' syncs, still running on a busy machine, cannot freshen it behind the test.
      await testApp.app.db
        .update(billingCustomers)
        .set({ syncedAt: new Date(Date.now() - STALE_AFTER_MS - 60_000) })
        .where(eq(billingCustomers.userId, busy.user.id))
      // An hour later: the pass queued when the server started is due, and the next one, queued
      // in the following hour, is not the same pass.
      await testApp.app.database.executeSql(
        `update pgboss.job set start_after = now(), singleton_on = singleton_on - interval '1 hour'
           where name = 'billing.resync' and state = 'created'`,
      )
      await mailsTo(user.email, 'Your next Harmonize payment, US$15.00')
      await vi.waitFor(
        async () => {
          const [done, next, ...more] = await passes()
          expect(done?.state).toBe('completed')
          expect(next?.state).toBe('created')
          expect(next?.inSeconds).toBeGreaterThan(50 * 60)
          expect(more).toEqual([])
        },
        { timeout: 30_000, interval: 250 },
      )
      // The busy member was not synced: the next pass tries again.
      expect(Date.now() - (await busySyncedAt())).toBeGreaterThan(STALE_AFTER_MS)
    })
    expect(await noticesOf(user.id, 'renewal_reminder')).toHaveLength(1)
  })
})

describe('a default card that expires before the next charge', () => {
  it('is mailed once, 14 days before the charge, with the link to add a card', async () => {
    const { user, cookie } = await memberWithCookie(testApp.app)
    // A card that works to the end of this month: the renewal a month from now comes after.
    const now = new Date()
    const made = await call('POST', '/api/billing/sandbox/cards', cookie, {
      number: '4242424242424242',
      expMonth: now.getUTCMonth() + 1,
      expYear: now.getUTCFullYear(),
      cvc: '123',
    })
    expect(made.statusCode).toBe(200)
    const saved = await call('POST', '/api/billing/cards', cookie, {
      paymentMethodId: made.json().id,
      cardType: 'debit',
    })
    expect(saved.statusCode).toBe(200)
    const plan = await subscribe(cookie)
    const chargeOn = formatDay(plan.subscription?.currentPeriodEnd ?? '', 'en')

    // More than 14 days before the renewal: nothing yet.
    await advance(user.email, 10)
    expect(await noticesOf(user.id, 'card_expiring')).toHaveLength(0)
    await advance(user.email, 8)
    const [mail] = await mailsTo(user.email, 'Your card ending in 4242 expires before')
    expect(mail?.text).toContain(
      `before the next payment of US$15.00 for your plan SUBSCRIPTION on ${chargeOn}`,
    )
    expect(mail?.text).toContain(
      `${testApp.app.config.publicUrl}/my-account/add-credit-card?default=1`,
    )
    await advance(user.email, 3)
    await queueNoticesBeforeCharges(testApp.app)
    expect(await noticesOf(user.id, 'card_expiring')).toHaveLength(1)
  })

  it('is not mailed for a card that lasts past the charge', async () => {
    const { user } = await subscriber(false)
    await advance(user.email, 25)
    await queueNoticesBeforeCharges(testApp.app)
    expect(await noticesOf(user.id, 'card_expiring')).toHaveLength(0)
  })
})

describe('the letters', () => {
  const charge = {
    at: new Date('2026-12-28T10:00:00Z'),
    amount: 1500,
    currency: 'usd' as const,
    label: 'SUBSCRIPTION',
  }

  it('say the card, its month, the payment and its day in Spanish', () => {
    const letter = cardExpiringLetter(
      'es',
      'Ana',
      { last4: '4242', expMonth: 11, expYear: 2026 },
      charge,
      'https://harmonize.example/my-account/add-credit-card?default=1',
    )
    expect(letter.subject).toBe('Tu tarjeta terminada en 4242 caduca antes de tu próximo pago')
    expect(letter.text).toContain(
      `caduca en noviembre de 2026, antes del próximo pago de ${formatMoney(1500, 'es', 'usd')} de tu plan SUSCRIPCIÓN, el 28 de diciembre de 2026.`,
    )
    expect(letter.html).toContain(
      'href="https://harmonize.example/my-account/add-credit-card?default=1"',
    )
  })

  it('remind of the amount and the day, and say how to turn the reminders off', () => {
    const letter = renewalReminderLetter(
      'en',
      'Ann',
      charge,
      'https://harmonize.example/my-account',
    )
    expect(letter.subject).toBe('Your next Harmonize payment, US$15.00, is on December 28, 2026')
    expect(letter.text).toContain('turn these reminders off')
  })
})
