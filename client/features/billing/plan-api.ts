import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  invoicesResponseSchema,
  type PlanState,
  planStateSchema,
  reactivatePlanRequestSchema,
  startPlanRequestSchema,
  upgradePreviewSchema,
} from '../../../domain/billing-plans'
import { apiRequest, endpoint } from '../../lib/api-client'
import { invoicesQueryKey, planQueryKey } from '../../lib/payment-progress'
import { planQuery } from '../../lib/plan-query'
import { accessQueryKey } from '../../lib/query-keys'

// The member's monthly plan and invoices (spec core §2 account actions).

export { isCharging } from '../../lib/payment-progress'

/** The current plan (client/lib/plan-query.ts says what is asked and when). */
export function usePlan() {
  return useQuery(planQuery(useQueryClient()))
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
