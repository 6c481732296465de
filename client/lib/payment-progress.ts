import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useSyncExternalStore } from 'react'
import type { PlanState } from '../../domain/billing-plans'

// Billing's payment-flow queries, named here so the header can say 'payment in progress...'
// from what they last answered, without loading billing's code on every page.

export const planQueryKey = ['billing', 'plan'] as const
export const paymentsQueryKey = ['billing', 'payments'] as const
export const invoicesQueryKey = ['billing', 'invoices'] as const

/** A charge is under way: the first payment of a plan, or an open invoice being paid. */
export const isCharging = (state: PlanState | undefined) => state?.charging === true

/**
 * Whether a payment flow is pending, as billing's queries last said. It reads the cache and
 * listens to it, and never asks the server itself.
 */
export function usePaymentInProgress(): boolean {
  const queryClient = useQueryClient()
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  )
  return useSyncExternalStore(
    subscribe,
    () =>
      isCharging(queryClient.getQueryData<PlanState>(planQueryKey)) ||
      Boolean(
        queryClient
          .getQueryData<{ status: string }[]>(paymentsQueryKey)
          ?.some((payment) => payment.status === 'processing'),
      ),
    () => false,
  )
}
