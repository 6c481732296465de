import { waitFor } from '@testing-library/react'
import {
  billingAccountSchema,
  type Plan,
  type Price,
  priceListResponseSchema,
  sandboxCardResponseSchema,
} from '../../../domain/billing'
import { type PlanState, planStateSchema } from '../../../domain/billing-plans'
import { apiRequest } from '../api-client'

// Billing set-up for component tests, with the session of the page under test, through the
// same calls the screens make: the sandbox's card field, the price list, saving a card.

export const post = (body: object = {}) => ({ method: 'POST', body: JSON.stringify(body) })

/** A payment method from the sandbox's card field (a Visa ending in 4242 by default). */
export async function sandboxCard(number = '4242424242424242'): Promise<string> {
  const card = await apiRequest(
    '/api/billing/sandbox/cards',
    sandboxCardResponseSchema,
    post({ number, expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvc: '123' }),
  )
  return card.id
}

/** Saves a card as Add Credit Card does; the member's first card becomes the default. */
export async function saveCard(number?: string): Promise<void> {
  await apiRequest(
    '/api/billing/cards',
    billingAccountSchema,
    post({ paymentMethodId: await sandboxCard(number), cardType: 'credit' }),
  )
}

/** The price of a plan on sale. */
export async function priceOf(plan: Plan): Promise<Price> {
  const { prices } = await apiRequest('/api/billing/prices', priceListResponseSchema)
  const price = prices.find((candidate) => candidate.plan === plan)
  if (!price) throw new Error(`no ${plan} price on sale`)
  return price
}

/**
 * A card, then the SUBSCRIPTION started as Start Now does, with this page's session. The bank
 * answers in a job, so this waits until the plan is active.
 */
export async function activeSubscription(): Promise<PlanState> {
  await saveCard()
  const price = await priceOf('subscription')
  await apiRequest(
    '/api/billing/plan/start',
    planStateSchema,
    post({ priceId: price.id, attemptId: crypto.randomUUID() }),
  )
  return waitFor(
    async () => {
      const state = await apiRequest('/api/billing/plan', planStateSchema)
      if (state.subscription?.status !== 'active') throw new Error('the bank has not answered')
      return state
    },
    { timeout: 30_000, interval: 250 },
  )
}
