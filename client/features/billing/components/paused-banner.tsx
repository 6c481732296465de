import CirclePause from 'lucide-react/icons/circle-pause'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { readServerError } from '../../../lib/form-mutation'
import { useNotifications } from '../../../lib/notifications'
import { usePlan, useResumePlan } from '../plan-api'
import { usePlanCheck } from './plan-check'

/**
 * A paused subscription, where the panels are: it says why they are closed and resumes the plan
 * from there (instead of 'no payment found', which is not true of a member who paid).
 */
export function PausedBanner() {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const plan = usePlan()
  const check = usePlanCheck()
  const resume = useResumePlan(check.run)
  const [error, setError] = useState<string>()
  if (plan.data?.subscription?.status !== 'paused') return null
  return (
    <div
      role="status"
      data-testid="paused-banner"
      className="flex flex-col gap-3 rounded-2xl bg-sky-50 p-4 text-sky-950 ring-1 ring-sky-200"
    >
      {check.dialog}
      <p className="flex items-start gap-2 font-semibold">
        <CirclePause aria-hidden className="mt-0.5 size-5 shrink-0 text-sky-700" />
        {t('billing.paused.title')}
      </p>
      <p className="text-sm">{t('billing.paused.text')}</p>
      <div>
        <Button
          loading={resume.isPending}
          disabled={!plan.data.actions.resume}
          onClick={() => {
            setError(undefined)
            resume.mutate(undefined, {
              onSuccess: () => notify('success', t('billing.plan.resumed')),
              onError: (failure) =>
                setError(readServerError(failure, t('common.networkError')).message),
            })
          }}
        >
          {t('billing.plan.resume')}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
