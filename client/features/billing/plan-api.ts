import {
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import {
  invoicesResponseSchema,
  type PlanState,
  planStateSchema,
  reactivatePlanRequestSchema,
  renewalRemindersRequestSchema,
  startPlanRequestSchema,
  upgradePreviewSchema,
} from '../../../domain/billing-plans'
import { apiRequest, endpoint } from '../../lib/api-client'
import { invoicesQueryKey, planQueryKey } from '../../lib/payment-progress'
import { fetchPlan, planQuery } from '../../lib/plan-query'
import { accessQueryKey } from '../../lib/query-keys'
import type { PlanCheck } from './components/plan-check'
import { keptForMember, memberCopyQuery, setKeptForMember } from './offline-copy'

// The member's monthly plan and invoices (spec core §2 account actions).

export { isCharging } from '../../lib/payment-progress'

/** The name of the plan's copy on the device (offline-copy.ts). */
const PLAN_COPY = 'plan'

/**
 * The plan query as billing's screens ask it: each answer kept on the device for the member, and
 * offline the last one, so My Account shows the plan as it was rather than loading for ever.
 */
export const planQueryWithCopy = (queryClient: QueryClient) =>
  queryOptions({
    ...planQuery(queryClient),
    queryFn: keptForMember(PLAN_COPY, fetchPlan(queryClient)),
    ...memberCopyQuery,
  })

/** The current plan (client/lib/plan-query.ts says what is asked and when). */
export function usePlan() {
  return useQuery(planQueryWithCopy(useQueryClient()))
}

/** The billing history; offline, as it was last seen. */
export const useInvoices = () =>
  useQuery({
    queryKey: invoicesQueryKey,
    queryFn: keptForMember('invoices', () =>
      apiRequest('/api/billing/invoices', invoicesResponseSchema),
    ),
    ...memberCopyQuery,
  })

/**
 * Every plan action answers with the whole plan state; access may have changed with it. When
 * the bank asks the member to confirm the charge the action made (3-D Secure), `check` runs
 * that check at once, and the action answers the plan as it is after it.
 */
function usePlanMutation<Variables>(
  call: (variables: Variables) => Promise<PlanState>,
  check?: PlanCheck,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (variables: Variables) => {
      const state = await call(variables)
      return state.bankCheck && check ? check(state.bankCheck) : state
    },
    onSuccess: (state) => {
      setKeptForMember(queryClient, PLAN_COPY, planQueryKey, state)
      void queryClient.invalidateQueries({ queryKey: accessQueryKey })
      void queryClient.invalidateQueries({ queryKey: invoicesQueryKey })
    },
    // The action may have happened before its check was refused (a plan started, its first
    // month refused): read again what it changes.
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: planQueryKey })
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

// The actions that may charge a card with the member present take the page's bank check.
export const useUpgradePlan = (check: PlanCheck) => usePlanMutation(upgrade, check)
export const useStartPlan = (check: PlanCheck) => usePlanMutation(start, check)
export const useReactivatePlan = (check: PlanCheck) => usePlanMutation(reactivate, check)
export const useCancelRenewal = () => usePlanMutation(action('cancel'))
export const usePausePlan = () => usePlanMutation(action('pause'))
export const useResumePlan = (check: PlanCheck) => usePlanMutation(action('resume'), check)
export const usePayInvoice = (check: PlanCheck) =>
  usePlanMutation(
    (id: string) =>
      apiRequest(`/api/billing/invoices/${encodeURIComponent(id)}/pay`, planStateSchema, {
        method: 'POST',
      }),
    check,
  )
/** The e-mail reminder before each monthly payment, on or off. */
export const useRenewalReminders = () =>
  usePlanMutation(
    endpoint('PUT', '/api/billing/plan/reminders', renewalRemindersRequestSchema, planStateSchema),
  )
/** Confirm with your bank: the check the plan waits for, run from the page (after a reload). */
export const useConfirmPlanCharge = (check: PlanCheck) =>
  usePlanMutation((clientSecret: string) => check(clientSecret))
