import CircleCheck from 'lucide-react/icons/circle-check'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { Button } from '../../../components/ui/button'
import { useBillingAccount, usePrices } from '../api'
import { PaymentFailedBanner } from '../components/payment-failed-banner'
import { usePlanCheck } from '../components/plan-check'
import { PaymentInProgress, PlanPriceChoice, recurringPrices } from '../components/plan-summary'
import { SandboxNotice } from '../components/sandbox-notice'
import { BRAND_NAMES } from '../components/saved-cards'
import { isCharging, usePlan, useStartPlan } from '../plan-api'
import { usePricedPlanAction } from '../use-priced-plan-action'

/**
 * /my-account/subscribe-payment: FOUR PAYMENTS or the SUBSCRIPTION, charged to the default
 * card; 'Payment Status: in progress...' until the bank answers, then /home (spec core §2).
 */
export function SubscribePaymentPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const account = useBillingAccount()
  const prices = usePrices()
  const plan = usePlan()
  const check = usePlanCheck()
  const start = useStartPlan(check.run)
  const [started, setStarted] = useState(false)
  const choices = recurringPrices(prices.data?.prices)
  const { priceId, priceError, error, choose, submit } = usePricedPlanAction(
    start,
    () => setStarted(true),
    choices,
  )
  const chosen = choices.find((price) => price.id === priceId)
  const card = account.data?.cards.find((saved) => saved.isDefault)
  const state = plan.data
  const active = state?.subscription?.status === 'active'

  // The plan this page started is confirmed: on to the panels.
  useEffect(() => {
    if (started && active) navigate('/home')
  }, [started, active, navigate])

  return (
    <section className="mx-auto flex w-full max-w-lg flex-col gap-4 px-4 py-6">
      <h1 className="text-2xl font-semibold text-brand-900">{t('billing.subscribe.heading')}</h1>
      <SandboxNotice sandbox={account.data?.sandbox} />
      {check.dialog}
      <PaymentFailedBanner />
      {isCharging(state) && <PaymentInProgress />}
      {state?.subscription && !state.actions.startNow && !isCharging(state) ? (
        <div
          role="status"
          className="flex flex-col items-start gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
        >
          {active && (
            <p className="flex items-center gap-2 text-lg font-semibold text-emerald-800">
              <CircleCheck aria-hidden className="size-6" />
              {t('billing.subscribe.started')}
            </p>
          )}
          <Link
            to={active ? '/home' : '/my-account'}
            className="rounded-lg bg-brand-600 px-4 py-2.5 font-medium text-white shadow hover:bg-brand-700"
          >
            {active ? t('billing.subscribe.toPanels') : t('billing.plan.title')}
          </Link>
        </div>
      ) : (
        !isCharging(state) && (
          <div className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <p className="text-sm text-slate-700">{t('billing.subscribe.intro')}</p>
            {prices.isPending && (
              <p className="text-sm text-slate-500" aria-busy="true">
                {t('billing.plans.loading')}
              </p>
            )}
            <PlanPriceChoice
              prices={choices}
              value={priceId}
              onChange={choose}
              error={priceError}
            />
            {chosen && (
              <p className="text-sm text-slate-600">
                {t(
                  `billing.subscribe.${chosen.plan === 'four_payments' ? 'four_payments' : 'subscription'}`,
                )}
              </p>
            )}
            {card ? (
              <p className="text-sm text-slate-700" data-testid="plan-card">
                {t('billing.subscribe.card', {
                  brand: BRAND_NAMES[card.brand] || t('billing.cards.otherBrand'),
                  last4: card.last4,
                })}
              </p>
            ) : (
              account.isSuccess && (
                <p className="text-sm text-slate-700">
                  {t('billing.plan.needsCard')}{' '}
                  <Link
                    to={`/my-account/add-credit-card?return=${encodeURIComponent(
                      `/my-account/subscribe-payment${priceId ? `?price=${priceId}` : ''}`,
                    )}`}
                    className="font-medium text-brand-700 underline"
                  >
                    {t('billing.plan.addCard')}
                  </Link>
                </p>
              )
            )}
            {error && (
              <p role="alert" className="text-sm text-red-700">
                {error}
              </p>
            )}
            <div className="flex justify-end">
              <Button loading={start.isPending} disabled={!card} onClick={submit}>
                {t('billing.plan.startNow')}
              </Button>
            </div>
          </div>
        )
      )}
    </section>
  )
}
