import { describe, expect, it } from 'vitest'
import { apiCallsTo, planCallsTo, subscriberOf } from '../../../tests/support/api-calls'
import { operatorCookie } from '../../../tests/support/operators'
import { QUICK_BANK, setUpTestApp } from '../../../tests/support/test-app'

// The console ends a member's plan through the payment gateway (the sandbox here), as the
// member's own Cancel Renewal does, and says so in the audit log.

const testApp = setUpTestApp(
  {},
  { jobs: { pollingIntervalSeconds: 0.5 }, payments: { sandboxBankDelay: QUICK_BANK } },
)
const call = apiCallsTo(() => testApp.app)
const { planOf } = planCallsTo(call)

const subscriber = () => subscriberOf(testApp.app)

describe('the console ends a plan', () => {
  it('at the end of its period: the member keeps access until then, and the log says so', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, cookie } = await subscriber()
    const answer = await call('POST', `/api/admin/members/${user.id}/plan/cancel`, operator, {
      when: 'period-end',
      reason: 'Asked by phone',
    })
    expect(answer.statusCode).toBe(200)
    const plan = await planOf(cookie)
    expect(plan.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true })
    expect((await call('GET', '/api/access', cookie)).json().hasAccess).toBe(true)

    const again = await call(
      'POST',
      `/api/admin/members/${user.id}/plan/cancel`,
      operator,
      {
        when: 'period-end',
        reason: 'Twice',
      },
      'es',
    )
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe('Este plan ya termina al final de su periodo.')

    const log = (await call('GET', `/api/admin/audit?member=${user.id}`, operator)).json()
    expect(log.entries[0]).toMatchObject({
      action: 'members.plan.cancel-at-period-end',
      reason: 'Asked by phone',
      before: { status: 'active', cancelAtPeriodEnd: false },
      after: { status: 'active', cancelAtPeriodEnd: true },
    })
  })

  it('now: the plan ends and the panels close', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, cookie } = await subscriber()
    const answer = await call('POST', `/api/admin/members/${user.id}/plan/cancel`, operator, {
      when: 'now',
      reason: 'Refund agreed',
    })
    expect(answer.statusCode).toBe(200)
    expect((await planOf(cookie)).subscription?.status).toBe('canceled')
    expect((await call('GET', '/api/access', cookie)).json().hasAccess).toBe(false)
    const detail = (await call('GET', `/api/admin/members/${user.id}`, operator)).json()
    expect(detail.plan).toMatchObject({ status: 'canceled' })

    const none = await call('POST', `/api/admin/members/${user.id}/plan/cancel`, operator, {
      when: 'now',
      reason: 'Again',
    })
    expect(none.statusCode).toBe(409)
    expect(none.json().message).toBe('This member has no running plan to cancel.')
  })

  it('refuses a request without a reason or with another moment, and changes nothing', async () => {
    const operator = await operatorCookie(testApp.app)
    const { user, cookie } = await subscriber()
    for (const body of [{ when: 'now' }, { when: 'tomorrow', reason: 'x' }]) {
      const answer = await call('POST', `/api/admin/members/${user.id}/plan/cancel`, operator, body)
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
    }
    expect((await planOf(cookie)).subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
    })
  })
})
