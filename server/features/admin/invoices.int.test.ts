import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { billingCustomers } from '../../../db/schema'
import { apiCallsTo, planCallsTo, subscriberOf } from '../../../tests/support/api-calls'
import { operatorCookie } from '../../../tests/support/operators'
import { outboxMessages, waitForOutboxMessage } from '../../../tests/support/outbox'
import { QUICK_BANK, setUpTestApp } from '../../../tests/support/test-app'

// The console on a member's invoices. It gives money back on a paid one through the payment
// gateway (the sandbox behind the Stripe SDK here): in part or in full, once per request, never
// more than was paid, shown on the member's own invoice history and in the audit log, leaving
// the plan and access as they were. And it mails one again, as its first mail went.

const testApp = setUpTestApp(
  {},
  { jobs: { pollingIntervalSeconds: 0.5 }, payments: { sandboxBankDelay: QUICK_BANK } },
)
const call = apiCallsTo(() => testApp.app)
const { invoicesOf } = planCallsTo(call)

const subscriber = () => subscriberOf(testApp.app)

const refund = (
  operator: string,
  memberId: string,
  body: Record<string, unknown>,
  language = 'en',
) => call('POST', `/api/admin/members/${memberId}/refund`, operator, body, language)

describe('refunds from the console', () => {
  it('gives back part, then the rest; the member sees it on their invoice, keeps access, and the log says who and why', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, cookie, invoice } = await subscriber()
    const revenue = async () =>
      (await call('GET', '/api/admin/overview', operator)).json().revenueLast30Days as number
    const revenueBefore = await revenue()
    const part = await refund(operator, user.id, {
      invoiceId: invoice.id,
      amount: 500,
      reason: 'Session did not play on their phone',
      requestKey: randomUUID(),
    })
    expect(part.statusCode, part.body).toBe(200)
    expect(part.json()).toMatchObject({
      refund: { id: expect.stringMatching(/^re_/), amount: 500, status: 'succeeded' },
      refunded: 500,
    })
    expect((await invoicesOf(cookie))[0]).toMatchObject({ id: invoice.id, refunded: 500 })
    // Money given back is not revenue.
    expect(await revenue()).toBe(revenueBefore - 500)
    expect((await call('GET', '/api/access', cookie)).json().hasAccess).toBe(true)

    const detail = (await call('GET', `/api/admin/members/${user.id}`, operator)).json()
    expect(detail.invoices[0]).toMatchObject({
      id: invoice.id,
      amountPaid: invoice.total,
      refunded: 500,
    })
    expect(detail.plan).toMatchObject({ status: 'active' })

    const rest = await refund(operator, user.id, {
      invoiceId: invoice.id,
      amount: invoice.total - 500,
      reason: 'Agreed to refund it all',
      requestKey: randomUUID(),
    })
    expect(rest.statusCode, rest.body).toBe(200)
    expect(rest.json().refunded).toBe(invoice.total)
    expect((await invoicesOf(cookie))[0]?.refunded).toBe(invoice.total)

    const nothing = await refund(
      operator,
      user.id,
      { invoiceId: invoice.id, amount: 1, reason: 'Once more', requestKey: randomUUID() },
      'es',
    )
    expect(nothing.statusCode).toBe(409)
    expect(nothing.json().message).toBe('Esta factura ya se ha reembolsado por completo.')

    const log = (await call('GET', `/api/admin/audit?member=${user.id}`, operator)).json()
    const refunds = log.entries.filter(
      (entry: { action: string }) => entry.action === 'members.refund',
    )
    expect(refunds).toHaveLength(2)
    expect(refunds[1]).toMatchObject({
      reason: 'Session did not play on their phone',
      before: { invoice: invoice.number, refunded: 'US$0.00' },
      after: { invoice: invoice.number, refunded: 'US$5.00' },
    })
    expect(refunds[0]).toMatchObject({ reason: 'Agreed to refund it all' })
  })

  it('a refund made in the provider’s Dashboard (none of our metadata) shows once its event is synced', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, cookie, invoice } = await subscriber()
    const [customer] = await testApp.app.db
      .select({ id: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, user.id))
    if (!customer) throw new Error('no customer')
    const [paid] = await testApp.app.payments.listPaymentIntents(customer.id)
    if (!paid) throw new Error('no payment')
    // As Stripe's Dashboard makes it: through the API, naming no user and no invoice.
    await testApp.app.payments.createRefund(
      { paymentIntent: paid.id, amount: 300, metadata: {} },
      { idempotencyKey: randomUUID() },
    )
    await vi.waitFor(
      async () =>
        expect((await invoicesOf(cookie))[0]).toMatchObject({ id: invoice.id, refunded: 300 }),
      { timeout: 20_000, interval: 100 },
    )
    const detail = (await call('GET', `/api/admin/members/${user.id}`, operator)).json()
    expect(detail.invoices[0]).toMatchObject({ id: invoice.id, refunded: 300 })
    // What is left is what the console offers to give back.
    const tooMuch = await refund(operator, user.id, {
      invoiceId: invoice.id,
      amount: invoice.total - 299,
      reason: 'More than is left',
      requestKey: randomUUID(),
    })
    expect(tooMuch.statusCode).toBe(409)
    // Not an operator's change: nothing in the log.
    const log = (await call('GET', `/api/admin/audit?member=${user.id}`, operator)).json()
    expect(
      log.entries.filter((entry: { action: string }) => entry.action === 'members.refund'),
    ).toEqual([])
  })

  it('the same request sent twice gives back once, and is logged once', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, cookie, invoice } = await subscriber()
    const body = {
      invoiceId: invoice.id,
      amount: 700,
      reason: 'Double click',
      requestKey: randomUUID(),
    }
    const [first, second] = await Promise.all([
      refund(operator, user.id, body),
      refund(operator, user.id, body),
    ])
    expect(first?.statusCode, first?.body).toBe(200)
    expect(second?.statusCode, second?.body).toBe(200)
    expect(second?.json().refund.id).toBe(first?.json().refund.id)
    expect((await invoicesOf(cookie))[0]?.refunded).toBe(700)
    const log = (await call('GET', `/api/admin/audit?member=${user.id}`, operator)).json()
    expect(
      log.entries.filter((entry: { action: string }) => entry.action === 'members.refund'),
    ).toHaveLength(1)
  })

  it('two refunds at once of the whole invoice: one goes through, the other is refused', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, cookie, invoice } = await subscriber()
    const whole = () =>
      refund(operator, user.id, {
        invoiceId: invoice.id,
        amount: invoice.total,
        reason: 'Two operators at once',
        requestKey: randomUUID(),
      })
    const answers = await Promise.all([whole(), whole()])
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409])
    // The second waited for the first (not refused as busy), and then found nothing left.
    expect(answers.find((answer) => answer.statusCode === 409)?.json().message).toBe(
      'This invoice has been refunded in full already.',
    )
    expect((await invoicesOf(cookie))[0]?.refunded).toBe(invoice.total)
  })

  it('refuses more than is left, nothing, bad input and another member’s invoice, and changes nothing', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, cookie, invoice } = await subscriber()
    const other = await subscriber()
    const tooMuch = await refund(
      operator,
      user.id,
      { invoiceId: invoice.id, amount: invoice.total + 1, reason: 'x', requestKey: randomUUID() },
      'es',
    )
    expect(tooMuch.statusCode).toBe(409)
    expect(tooMuch.json().message).toBe(
      'El reembolso supera lo que queda por devolver de esta factura. Recarga la página para ver lo que queda.',
    )
    const zero = await refund(
      operator,
      user.id,
      { invoiceId: invoice.id, amount: 0, reason: 'x', requestKey: randomUUID() },
      'es',
    )
    expect(zero.statusCode).toBe(400)
    expect(JSON.stringify(zero.json())).toContain('Indica un importe')
    for (const body of [
      { invoiceId: invoice.id, amount: 100, requestKey: randomUUID() },
      { invoiceId: invoice.id, amount: 1.5, reason: 'x', requestKey: randomUUID() },
      { invoiceId: 'not-an-invoice', amount: 100, reason: 'x', requestKey: randomUUID() },
      { invoiceId: invoice.id, amount: 100, reason: 'x', requestKey: 'short' },
    ]) {
      const answer = await refund(operator, user.id, body)
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
    }
    const elsewhere = await refund(operator, user.id, {
      invoiceId: other.invoice.id,
      amount: 100,
      reason: 'Wrong member',
      requestKey: randomUUID(),
    })
    expect(elsewhere.statusCode).toBe(404)
    expect((await invoicesOf(cookie))[0]?.refunded).toBe(0)
    expect((await invoicesOf(other.cookie))[0]?.refunded).toBe(0)
  })
})

describe('mailing an invoice again', () => {
  it('sends the paid invoice as its first mail went, once per click, and logs it', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, invoice } = await subscriber()
    const subject = `Your Harmonize invoice ${invoice.number}`
    // The first mail, after the payment.
    await waitForOutboxMessage(testApp.app, user.email)
    const before = (await outboxMessages(testApp.app, user.email)).filter(
      (message) => message.subject === subject,
    ).length
    expect(before).toBe(1)

    const answer = await call(
      'POST',
      `/api/admin/members/${user.id}/invoices/${invoice.id}/resend`,
      operator,
    )
    expect(answer.statusCode, answer.body).toBe(200)
    expect(answer.json()).toEqual({ to: [user.email] })
    const again = await waitForOutboxMessage(testApp.app, user.email, {
      already: (await outboxMessages(testApp.app, user.email)).length - 1,
    })
    await expect
      .poll(
        async () =>
          (await outboxMessages(testApp.app, user.email)).filter(
            (message) => message.subject === subject,
          ).length,
      )
      .toBe(2)
    expect(again.subject).toBe(subject)

    const log = (await call('GET', `/api/admin/audit?member=${user.id}`, operator)).json()
    expect(log.entries[0]).toMatchObject({
      action: 'members.invoice.resend',
      after: { invoice: invoice.number, to: [user.email] },
    })
  })

  it('mails only a paid invoice of that member', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user } = await subscriber()
    const other = await subscriber()
    const elsewhere = await call(
      'POST',
      `/api/admin/members/${user.id}/invoices/${other.invoice.id}/resend`,
      operator,
    )
    expect(elsewhere.statusCode).toBe(404)
    const missing = await call(
      'POST',
      `/api/admin/members/nobody/invoices/${other.invoice.id}/resend`,
      operator,
    )
    expect(missing.statusCode).toBe(404)
  })
})
