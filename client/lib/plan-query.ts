import { type QueryClient, queryOptions } from '@tanstack/react-query'
import type { PlanState } from '../../domain/billing-plans'
import { PAYMENT_POLL_MS } from '../../domain/constants'
import { apiRequest } from './api-client'
import { invoicesQueryKey, isCharging, planQueryKey } from './payment-progress'
import { accessQueryKey } from './query-keys'

// Billing's plan query, here rather than in billing so that /home can watch the plan (is a
// payment refused? is a charge still under way?) without downloading billing's screens, which
// it loads only when the failed-payment banner is due. Its schema comes beside its first answer:
// the contracts of billing it sits among were built, all of them, with /home's own code.
const planStateSchema = () =>
  import('../../domain/billing-plans').then((module) => module.planStateSchema)

/**
 * The current plan, its open invoice and the actions offered. While a charge is under way it is
 * asked for again every 2 s, as a pending payment is (spec core §4), and stops when the bank has answered; access and
 * the invoices are read again then.
 */
export const planQuery = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: planQueryKey,
    queryFn: async () => {
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
    },
    refetchInterval: (query) => (isCharging(query.state.data) ? PAYMENT_POLL_MS : false),
  })
