import { describe, expect, it } from 'vitest'
import { type PlanFacts, planActions } from './billing-plans'

const none: PlanFacts = {
  subscription: null,
  hasOpenInvoice: false,
  charging: false,
  hasDefaultCard: true,
  lifetimePayment: false,
}
type Plan = NonNullable<PlanFacts['subscription']>

const subscription = (status: Plan['status'], more: Partial<Plan> = {}): Plan => ({
  plan: 'subscription',
  status,
  cancelAtPeriodEnd: false,
  paused: false,
  ...more,
})

describe('the account actions (spec core §2)', () => {
  it('offers Start Now only with no plan, a default card and no lifetime payment', () => {
    expect(planActions(none).startNow).toBe(true)
    expect(planActions({ ...none, hasDefaultCard: false }).startNow).toBe(false)
    expect(planActions({ ...none, lifetimePayment: true }).startNow).toBe(false)
    expect(planActions({ ...none, subscription: subscription('canceled') }).startNow).toBe(false)
  })

  it('offers Cancel Renewal only while active, not cancelling and not paused', () => {
    expect(planActions({ ...none, subscription: subscription('active') }).cancelRenewal).toBe(true)
    expect(
      planActions({ ...none, subscription: subscription('active', { cancelAtPeriodEnd: true }) })
        .cancelRenewal,
    ).toBe(false)
    expect(
      planActions({ ...none, subscription: subscription('paused', { paused: true }) })
        .cancelRenewal,
    ).toBe(false)
    expect(planActions({ ...none, subscription: subscription('past_due') }).cancelRenewal).toBe(
      false,
    )
    const four = { ...subscription('active'), plan: 'four_payments' as const }
    expect(planActions({ ...none, subscription: four }).cancelRenewal).toBe(false)
  })

  it('offers Reactivate when canceled (not after a lifetime payment) or while cancelling', () => {
    expect(planActions({ ...none, subscription: subscription('canceled') }).reactivate).toBe(true)
    expect(
      planActions({ ...none, lifetimePayment: true, subscription: subscription('canceled') })
        .reactivate,
    ).toBe(false)
    expect(
      planActions({ ...none, subscription: subscription('active', { cancelAtPeriodEnd: true }) })
        .reactivate,
    ).toBe(true)
    expect(planActions({ ...none, subscription: subscription('active') }).reactivate).toBe(false)
  })

  it('offers Pay Actual Invoice for an open invoice, not while it is being charged', () => {
    const open = { ...none, subscription: subscription('past_due'), hasOpenInvoice: true }
    expect(planActions(open).payInvoice).toBe(true)
    expect(planActions({ ...open, charging: true }).payInvoice).toBe(false)
    expect(planActions({ ...open, hasDefaultCard: false }).payInvoice).toBe(false)
  })

  it('offers nothing to buy or pay beside a lifetime payment, paid or still with the bank', () => {
    const incomplete = { ...none, subscription: subscription('incomplete'), hasOpenInvoice: true }
    expect(planActions(incomplete).payInvoice).toBe(true)
    expect(planActions({ ...incomplete, lifetimePayment: true }).payInvoice).toBe(false)
    expect(planActions({ ...none, lifetimePayment: true })).toEqual({
      startNow: false,
      cancelRenewal: false,
      reactivate: false,
      payInvoice: false,
      pause: false,
      resume: false,
      upgrade: false,
    })
  })

  it('offers Upgrade to an active, unpaused subscription with nothing open and no lifetime payment', () => {
    expect(planActions({ ...none, subscription: subscription('active') }).upgrade).toBe(true)
    expect(
      planActions({ ...none, subscription: subscription('active'), lifetimePayment: true }).upgrade,
    ).toBe(false)
    expect(
      planActions({ ...none, subscription: subscription('active'), hasOpenInvoice: true }).upgrade,
    ).toBe(false)
    expect(
      planActions({ ...none, subscription: subscription('paused', { paused: true }) }).upgrade,
    ).toBe(false)
  })
})
