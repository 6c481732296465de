import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { Button } from '../../../components/ui/button'
import { readServerError } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useNotifications } from '../../../lib/notifications'
import { useBillingAccount, usePrices } from '../api'
import { usePlanCheck } from '../components/plan-check'
import { PaymentInProgress, PlanPriceChoice } from '../components/plan-summary'
import { SandboxNotice } from '../components/sandbox-notice'
import { isCharging, usePlan, useUpgradePlan, useUpgradePreview } from '../plan-api'
import { usePricedPlanAction } from '../use-priced-plan-action'

/**
 * /upgrade-plan (header 'My Subscription'): from the monthly subscription to FOUR PAYMENTS or
 * ONE PAYMENT, with the unused part of this month credited and the amount due now shown first.
 */
export function UpgradePlanPage() {
  const { t } = useTranslation()
  const format = useFormat()
  const navigate = useNavigate()
  const { notify } = useNotifications()
  const account = useBillingAccount()
  const prices = usePrices()
  const plan = usePlan()
  const check = usePlanCheck()
  const upgrade = useUpgradePlan(check.run)
  const [upgraded, setUpgraded] = useState(false)
  const choices = (prices.data?.prices ?? []).filter((price) => price.plan !== 'subscription')
  const { priceId, priceError, error, setError, choose, submit } = usePricedPlanAction(
    upgrade,
    () => setUpgraded(true),
    choices,
  )
  const preview = useUpgradePreview(priceId)
  const charging = isCharging(plan.data)

  const target = choices.find((price) => price.id === priceId)?.plan
  // Once the new plan's charge is answered: back to the subscription screen, or say it failed.
  useEffect(() => {
    if (!upgraded || !plan.data || charging) return
    const now = plan.data.subscription
    const done =
      target === 'one_payment'
        ? now?.status === 'canceled'
        : now?.plan === 'four_payments' && now.status === 'active'
    if (done) {
      notify('success', t('billing.upgrade.done'))
      navigate('/my-account')
    } else {
      setUpgraded(false)
      setError(t('billing.upgrade.failed'))
    }
  }, [upgraded, plan.data, charging, target, notify, navigate, t, setError])

  const offered = plan.data?.actions.upgrade
  return (
    <section className="mx-auto flex w-full max-w-lg flex-col gap-4 px-4 py-6">
      <h1 className="text-2xl font-semibold text-brand-900">{t('billing.upgrade.heading')}</h1>
      <SandboxNotice sandbox={account.data?.sandbox} />
      {check.dialog}
      {plan.isPending && (
        <p className="text-sm text-slate-500" aria-busy="true">
          {t('billing.plan.loading')}
        </p>
      )}
      {plan.isError && <p className="text-sm text-red-700">{t('common.networkError')}</p>}
      {upgraded && charging && <PaymentInProgress />}
      {plan.data && !offered && !upgraded && (
        <div className="flex flex-col items-start gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <p className="text-slate-700">{t('billing.upgrade.unavailable')}</p>
          <Link to="/my-account" className="font-medium text-brand-700 underline">
            {t('billing.plan.title')}
          </Link>
        </div>
      )}
      {offered && !upgraded && (
        <div className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <p className="text-sm text-slate-700">{t('billing.upgrade.intro')}</p>
          <PlanPriceChoice prices={choices} value={priceId} onChange={choose} error={priceError} />
          {preview.isFetching && !preview.data && (
            <p className="text-sm text-slate-500" aria-busy="true">
              {t('billing.upgrade.loading')}
            </p>
          )}
          {preview.isError && (
            <p role="alert" className="text-sm text-red-700">
              {readServerError(preview.error, t('common.networkError')).message}
            </p>
          )}
          {preview.data && (
            <dl
              className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm"
              data-testid="upgrade-preview"
            >
              <dt className="text-slate-700">{t('billing.upgrade.credit')}</dt>
              <dd className="text-right font-medium text-emerald-800">
                {format.money(preview.data.credit)}
              </dd>
              <dt className="font-semibold text-slate-900">{t('billing.upgrade.dueNow')}</dt>
              <dd className="text-right font-semibold text-brand-900">
                {format.money(preview.data.total)}
              </dd>
            </dl>
          )}
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={() => navigate('/my-account')}>
              {t('common.cancel')}
            </Button>
            {/* A plan chosen is charged only once its amount due is on screen. */}
            <Button
              loading={upgrade.isPending}
              disabled={priceId !== '' && !preview.data}
              onClick={submit}
            >
              {t('billing.upgrade.confirm')}
            </Button>
          </div>
        </div>
      )}
    </section>
  )
}
