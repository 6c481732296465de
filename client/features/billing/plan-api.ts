import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  invoicesResponseSchema,
  PLAN_POLL_MS,
  type PlanState,
  planStateSchema,
  reactivatePlanRequestSchema,
  startPlanRequestSchema,
  upgradePreviewSchema,
} from '../../../domain/billing-plans'
import { apiRequest, endpoint } from '../../lib/api-client'
import { isCharging, planQueryKey } from '../../lib/payment-progress'
import { accessQueryKey } from '../access/public'

// The member's monthly plan and invoices (spec core §2 account actions).

export { isCharging } from '../../lib/payment-progress'

export const invoicesQueryKey = ['billing', 'invoices'] as const

/**
 * The current plan, its open invoice and the actions offered. While a charge is under way it is
 * asked for again every 2 s (spec core §4), and stops when the bank has answered; access and
 * the invoices are read again then.
 */
export function usePlan() {
  const queryClient = useQueryClient()
  return useQuery({
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
    refetchInterval: (query) => (isCharging(query.state.data) ? PLAN_POLL_MS : false),
  })
}

export const useInvoices = () =>
  useQuery({
    queryKey: invoicesQueryKey,
    queryFn: () => apiRequest('/api/billing/invoices', invoicesResponseSchema),
  })

/** Every plan action answers with the whole plan state; access may have changed with it. */
function usePlanMutation<Variables>(call: (variables: Variables) => Promise<PlanState>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: call,
    onSuccess: (state) => {
      queryClient.setQueryData(planQueryKey, state)
      void queryClient.invalidateQueries({ queryKey: accessQueryKey })
      void queryClient.invalidateQueries({ queryKey: invoicesQueryKey })
    },
  })
}

const start = endpoint('POST', '/api/billing/plan/start', startPlanRequestSchema, planStateSchema)
const reactivate = endpoint(
  'POST',
  '/api/billing/plan/reactivate',
  reactivatePlanRequestSchema,
  planStateSchema,
)
const action = (path: string) => () =>
  apiRequest(`/api/billing/plan/${path}`, planStateSchema, { method: 'POST' })

const upgrade = endpoint(
  'POST',
  '/api/billing/plan/upgrade',
  startPlanRequestSchema,
  planStateSchema,
)

/** What an upgrade to `priceId` would charge now; nothing is asked until a price is chosen. */
export const useUpgradePreview = (priceId: string) =>
  useQuery({
    queryKey: ['billing', 'upgrade', priceId],
    queryFn: () =>
      apiRequest(
        `/api/billing/plan/upgrade?priceId=${encodeURIComponent(priceId)}`,
        upgradePreviewSchema,
      ),
    enabled: priceId !== '',
    // The credit shrinks as the month goes on.
    staleTime: 0,
  })

export const useUpgradePlan = () => usePlanMutation(upgrade)
export const useStartPlan = () => usePlanMutation(start)
export const useReactivatePlan = () => usePlanMutation(reactivate)
export const useCancelRenewal = () => usePlanMutation(action('cancel'))
export const usePausePlan = () => usePlanMutation(action('pause'))
export const useResumePlan = () => usePlanMutation(action('resume'))
export const usePayInvoice = () =>
  usePlanMutation((id: string) =>
    apiRequest(`/api/billing/invoices/${encodeURIComponent(id)}/pay`, planStateSchema, {
      method: 'POST',
    }),
  )
