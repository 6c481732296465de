import { useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { billingAccountSchema, sandboxPaymentCheckRequestSchema } from '../../../../domain/billing'
import { type PlanState, planStateSchema } from '../../../../domain/billing-plans'
import { apiRequest, endpoint } from '../../../lib/api-client'
import { billingAccountQueryKey } from '../api'
import { useBankCheck } from './bank-check'

// The bank's check (3-D Secure) of a plan's charge made with the member present: the first
// month of a plan, an open invoice paid, an upgrade. Stripe's own page in Stripe mode, the
// sandbox's stand-in for it otherwise; then the plan as it now is.

const sandboxCheck = endpoint(
  'POST',
  '/api/billing/sandbox/plan/check',
  sandboxPaymentCheckRequestSchema,
  planStateSchema,
)
const checked = () => apiRequest('/api/billing/plan/checked', planStateSchema, { method: 'POST' })

/** Runs the bank's check of the open invoice's charge; answers the plan afterwards. */
export type PlanCheck = (clientSecret: string) => Promise<PlanState>

/** `run` for the plan's actions; `dialog` goes in the page (the sandbox's check shows there). */
export function usePlanCheck(): { run: PlanCheck; dialog: ReactNode } {
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
  const bank = useBankCheck()
  const { ask } = bank
  const run = useCallback<PlanCheck>(
    async (clientSecret) => {
      // Which check to run is the account's mode, read only now that one is needed.
      const account = await queryClient.fetchQuery({
        queryKey: billingAccountQueryKey,
        queryFn: () => apiRequest('/api/billing/account', billingAccountSchema),
      })
      if (!account.publishableKey) {
        return sandboxCheck({ clientSecret, outcome: await ask('payment') })
      }
      const { checkWithStripe } = await import('../stripe-js')
      const failure = await checkWithStripe(
        account.publishableKey,
        clientSecret,
        t,
        i18n.language,
      ).then(
        () => null,
        (error: unknown) => ({ error }),
      )
      // Stripe's webhook may come later: the plan is read again from Stripe now, refused too.
      // The bank's refusal is what the member is told, even when that reading fails.
      if (failure) {
        await checked().catch(() => null)
        throw failure.error
      }
      return checked()
    },
    [ask, i18n.language, queryClient, t],
  )
  return { run, dialog: bank.dialog }
}
