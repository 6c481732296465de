import type { Plan } from '../../../domain/billing'

/** The one product; its id is chosen by us, so every start finds it again. */
export const PRODUCT = { id: 'prod_harmonize', name: 'Harmonize' } as const

/**
 * The prices a new installation starts with (the operator changes them with `cli prices`).
 * Amounts are our own choice: a one-off, four monthly instalments that cost a little more in
 * all, and a monthly subscription.
 */
export const DEFAULT_PRICES: readonly { nickname: string; plan: Plan; unitAmount: number }[] = [
  { nickname: 'ONE_PAYMENT', plan: 'one_payment', unitAmount: 14_900 },
  { nickname: 'FOUR_PAYMENTS', plan: 'four_payments', unitAmount: 3_900 },
  { nickname: 'SUBSCRIPTION', plan: 'subscription', unitAmount: 1_500 },
]
