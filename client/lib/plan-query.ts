import { type QueryClient, queryOptions } from '@tanstack/react-query'
import { PLAN_POLL_MS, type PlanState, planStateSchema } from '../../domain/billing-plans'
import { apiRequest } from './api-client'
import { invoicesQueryKey, isCharging, planQueryKey } from './payment-progress'
import { accessQueryKey } from './query-keys'

// Billing's plan query, here rather than in billing so that /home can watch the plan (is a
// payment refused? is a charge still under way?) without downloading billing's screens, which
// it loads only when the failed-payment banner is due.

/**
 * The current plan, its open invoice and the actions offered. While a charge is under way it is
 * asked for again every 2 s (spec core §4), and stops when the bank has answered; access and
 * the invoices are read again then.
 */
export const planQuery = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: planQueryKey,
    queryFn: fetchPlan(queryClient),
    refetchInterval: (query) => (isCharging(query.state.data) ? PLAN_POLL_MS : false),
  })

/** The plan query's asking (billing's My Account wraps it to keep a copy for offline use). */
export const fetchPlan = (queryClient: QueryClient) => async (): Promise<PlanState> => {
  const was = queryClient.getQueryData<PlanState>(planQueryKey)
  const state = await apiRequest('/api/billing/plan', planStateSchema)
  // A charge answered, or the plan changed on its own (a renewal, a failure): access and
  // the invoices may have changed with it.
  const changed =
    was !== undefined &&
    (was.subscription?.status !== state.subscription?.status ||
      was.paymentFailed !== state.paymentFailed)
  if ((isCharging(was) && !isCharging(state)) || changed) {
    void queryClient.invalidateQueries({ queryKey: accessQueryKey })
    void queryClient.invalidateQueries({ queryKey: invoicesQueryKey })
  }
  return state
}
