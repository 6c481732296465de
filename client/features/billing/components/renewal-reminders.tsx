import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PlanState } from '../../../../domain/billing-plans'
import { readServerError } from '../../../lib/form-mutation'
import { useRenewalReminders } from '../plan-api'

/**
 * The opt-in e-mail 3 days before each monthly payment (issue 29), off by default. Shown only
 * while the server would mail one before the next payment (`remindable`: a running plan that
 * charges again, not paused, late, ending or in its last FOUR PAYMENTS month), so a ticked box
 * never promises a mail that would not come; the box says at once what was saved.
 */
export function RenewalReminders({
  state,
  offlineReason,
}: {
  state: PlanState
  /** Offline, the id of the notice that says why changes wait for a connection. */
  offlineReason?: string
}) {
  const { t } = useTranslation()
  const change = useRenewalReminders()
  const [error, setError] = useState<string>()
  const hintId = useId()
  if (!state.remindable) return null
  return (
    <div className="flex flex-col gap-1 border-t border-slate-100 pt-3">
      <label className="flex items-start gap-2 text-sm text-slate-900">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-brand-600"
          checked={change.isPending ? Boolean(change.variables?.on) : state.renewalReminders}
          // While saving it only says so: disabled, it would drop the keyboard's focus.
          disabled={offlineReason !== undefined}
          aria-disabled={change.isPending || undefined}
          aria-busy={change.isPending || undefined}
          aria-describedby={offlineReason ? `${hintId} ${offlineReason}` : hintId}
          onChange={(event) => {
            if (change.isPending) return
            setError(undefined)
            change.mutate(
              { on: event.target.checked },
              {
                onError: (failure) =>
                  setError(readServerError(failure, t('common.networkError')).message),
              },
            )
          }}
        />
        <span>{t('billing.plan.reminders.label')}</span>
      </label>
      <p id={hintId} className="ml-6 text-xs text-slate-600">
        {t('billing.plan.reminders.hint')}
      </p>
      {error && (
        <p role="alert" className="ml-6 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
