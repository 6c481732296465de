import { useQuery } from '@tanstack/react-query'
import type { PlanState } from '../../domain/billing-plans'

// Billing's payment-flow queries, named here so the header can say 'payment in progress...'
// from what they last answered, without loading billing's code on every page.

export const planQueryKey = ['billing', 'plan'] as const
export const paymentsQueryKey = ['billing', 'payments'] as const

/** A charge is under way: the first payment of a plan, or an open invoice being paid. */
export const isCharging = (state: PlanState | undefined) =>
  state?.subscription?.status === 'pending' || Boolean(state?.openInvoice && !state.paymentFailed)

/** Whether a payment flow is pending, as billing's queries last said; it asks nothing itself. */
export function usePaymentInProgress(): boolean {
  const plan = useQuery<PlanState>({ queryKey: planQueryKey, enabled: false })
  const payments = useQuery<{ status: string }[]>({ queryKey: paymentsQueryKey, enabled: false })
  return (
    isCharging(plan.data) ||
    Boolean(payments.data?.some((payment) => payment.status === 'processing'))
  )
}
