import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type AccessFacts,
  displayedPaymentFlow,
  displayedSubscriptionStatus,
  hasAccess,
  paymentStatus,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  standingOf,
} from './access'

const INTENT_STATUSES = ['succeeded', 'requires_payment_method', 'processing', 'canceled']

const intent = fc.record({ id: fc.string(), status: fc.constantFrom(...INTENT_STATUSES) })
const facts: fc.Arbitrary<AccessFacts> = fc.record({
  complimentary: fc.boolean(),
  code: fc.option(fc.record({ status: fc.constantFrom('ACTIVE' as const, 'INACTIVE' as const) })),
  subscriptionStatus: fc.option(fc.constantFrom(...SUBSCRIPTION_STATUSES)),
  paymentIntents: fc.array(intent, { maxLength: 4 }),
})

const succeeded = { id: 'pi_1', status: 'succeeded' }
const failed = { id: 'pi_2', status: 'requires_payment_method' }

describe('hasAccess (spec core §4)', () => {
  it('complimentary access from an operator opens access whatever the plan says', () => {
    fc.assert(fc.property(facts, (f) => hasAccess({ ...f, complimentary: true })))
    expect(
      hasAccess({ complimentary: true, subscriptionStatus: 'past_due', paymentIntents: [] }),
    ).toBe(true)
  })

  it('an active code opens access whatever else is true', () => {
    fc.assert(fc.property(facts, (f) => hasAccess({ ...f, code: { status: 'ACTIVE' } })))
  })

  it('with no active code, a subscription status decides when there is one', () => {
    for (const status of ['active', 'trialing', 'pending', 'paid', 'past_due'] as const) {
      expect(hasAccess({ subscriptionStatus: status, paymentIntents: [] }), status).toBe(true)
    }
    for (const status of ['canceled', 'unpaid', 'incomplete', 'paused'] as const) {
      // A succeeded one-time payment does not override a subscription status that says no.
      expect(hasAccess({ subscriptionStatus: status, paymentIntents: [succeeded] }), status).toBe(
        false,
      )
    }
  })

  it('an inactive code falls through to the subscription and payments', () => {
    expect(hasAccess({ code: { status: 'INACTIVE' }, paymentIntents: [succeeded] })).toBe(true)
    expect(hasAccess({ code: { status: 'INACTIVE' }, paymentIntents: [failed] })).toBe(false)
    expect(
      hasAccess({ code: { status: 'INACTIVE' }, subscriptionStatus: 'active', paymentIntents: [] }),
    ).toBe(true)
  })

  it('with neither, any succeeded payment opens access', () => {
    expect(hasAccess({ paymentIntents: [failed, succeeded] })).toBe(true)
    expect(hasAccess({ paymentIntents: [failed] })).toBe(false)
    expect(hasAccess({ paymentIntents: [] })).toBe(false)
  })

  it('never opens access without complimentary access, a code, an open subscription or a succeeded payment', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const reason =
          f.complimentary === true ||
          f.code?.status === 'ACTIVE' ||
          ['active', 'trialing', 'pending', 'paid', 'past_due'].includes(
            f.subscriptionStatus ?? '',
          ) ||
          (!f.subscriptionStatus && f.paymentIntents.some((i) => i.status === 'succeeded'))
        return hasAccess(f) === reason
      }),
    )
  })
})

describe('displayed statuses', () => {
  it('show active or trialing as active, canceled as canceled, anything else as unpaid', () => {
    expect(displayedSubscriptionStatus('active')).toBe('active')
    expect(displayedSubscriptionStatus('trialing')).toBe('active')
    expect(displayedSubscriptionStatus('canceled')).toBe('canceled')
    const others: (SubscriptionStatus | null | undefined)[] = [
      ...SUBSCRIPTION_STATUSES.filter(
        (status) => status !== 'active' && status !== 'trialing' && status !== 'canceled',
      ),
      null,
      undefined,
    ]
    for (const status of others) {
      expect(displayedSubscriptionStatus(status), String(status)).toBe('unpaid')
    }
  })

  it('tell the code, subscription, payment or default story, in that order', () => {
    expect(
      displayedPaymentFlow({
        code: { status: 'INACTIVE' },
        subscriptionStatus: 'active',
        paymentIntents: [succeeded],
      }),
    ).toEqual({ kind: 'code', status: 'INACTIVE' })
    expect(
      displayedPaymentFlow({ subscriptionStatus: 'trialing', paymentIntents: [succeeded] }),
    ).toEqual({ kind: 'subscription', status: 'active' })
    expect(displayedPaymentFlow({ paymentIntents: [failed, succeeded] })).toEqual({
      kind: 'payment',
      status: 'paid',
    })
    expect(displayedPaymentFlow({ paymentIntents: [failed] })).toEqual({
      kind: 'payment',
      status: 'unpaid',
    })
    expect(displayedPaymentFlow({ paymentIntents: [] })).toEqual({ kind: 'default' })
  })

  it('name the payment status after the first payment that did not succeed', () => {
    expect(paymentStatus([succeeded, failed, { id: 'pi_3', status: 'processing' }])).toBe(
      'requires_payment_method',
    )
    expect(paymentStatus([succeeded, succeeded])).toBe('paid')
    expect(paymentStatus([])).toBe('paid')
  })
})

describe('standing', () => {
  it('is paid for good after a one-time payment or a four-payment plan paid off, before a code', () => {
    expect(standingOf({ paymentIntents: [failed, succeeded] })).toBe('lifetime')
    expect(standingOf({ subscriptionStatus: 'paid', paymentIntents: [] })).toBe('lifetime')
    expect(
      standingOf({ code: { status: 'ACTIVE' }, complimentary: true, paymentIntents: [succeeded] }),
    ).toBe('lifetime')
  })

  it('tells a running plan, one being retried and one paused or out of tries apart', () => {
    expect(standingOf({ subscriptionStatus: 'active', paymentIntents: [] })).toBe('plan')
    expect(standingOf({ subscriptionStatus: 'past_due', paymentIntents: [] })).toBe('retrying')
    expect(standingOf({ subscriptionStatus: 'paused', paymentIntents: [] })).toBe('paused')
    expect(standingOf({ subscriptionStatus: 'unpaid', paymentIntents: [] })).toBe('unpaid')
    expect(standingOf({ subscriptionStatus: 'incomplete', paymentIntents: [] })).toBe('failed')
    expect(standingOf({ subscriptionStatus: 'canceled', paymentIntents: [] })).toBe('ended')
    expect(standingOf({ paymentIntents: [{ id: 'pi_3', status: 'processing' }] })).toBe('pending')
    expect(standingOf({ paymentIntents: [failed] })).toBe('none')
  })

  it('a code or a grant speaks only when no payment does', () => {
    expect(standingOf({ code: { status: 'ACTIVE' }, paymentIntents: [] })).toBe('code')
    expect(
      standingOf({ complimentary: true, subscriptionStatus: 'paused', paymentIntents: [] }),
    ).toBe('complimentary')
  })

  it('says the member has access exactly when the access rule does (a one-time payment still with the bank aside)', () => {
    const open = new Set(['lifetime', 'plan', 'retrying', 'pending', 'code', 'complimentary'])
    fc.assert(
      fc.property(facts, (f) => {
        if (f.paymentIntents.some((intent) => intent.status === 'processing')) return true
        expect(open.has(standingOf(f))).toBe(hasAccess(f))
        return true
      }),
    )
  })
})
