import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { RUNNING_STATUSES } from '../../../../domain/billing-plans'
import { NetworkLink, OfflineNotice } from '../../../components/ui/offline-notice'
import { SectionCard } from '../../../components/ui/section-card'
import { useFormat } from '../../../lib/format'
import { useShownOffline } from '../../../lib/network-status'
import { usePrices } from '../api'
import { usePlan } from '../plan-api'
import { usePlanName } from '../use-plan-name'

/**
 * My Account's price plans (only those on sale, spec core §2), with the way to buy each.
 * `paidOnce` is what the access answer says, passed in by the page as in PlanSummary.
 */
export function PricePlans({ paidOnce }: { paidOnce: boolean }) {
  const { t } = useTranslation()
  const planName = usePlanName()
  const format = useFormat()
  const prices = usePrices()
  const plan = usePlan()
  // Offline the prices last fetched are listed, and buying waits for the network.
  const shown = useShownOffline(prices)
  const noticeId = useId()
  const offlineReason = shown.offline ? noticeId : undefined
  // While a plan runs, another is not bought beside it: ONE PAYMENT comes as an upgrade.
  const status = plan.data?.subscription?.status
  const running = status !== undefined && RUNNING_STATUSES.includes(status)
  // Paid for good (ONE PAYMENT, or FOUR PAYMENTS paid off): there is nothing left to buy.
  const paidForGood = plan.data?.lifetime === true || paidOnce
  const link =
    'rounded-lg px-3 py-2 text-sm font-medium text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50'
  return (
    <SectionCard title={t('billing.plans.title')}>
      {prices.isPending && (
        <p className="px-5 py-4 text-sm text-slate-500">{t('billing.plans.loading')}</p>
      )}
      {shown.offline && !prices.isPending && (
        <div className="px-5 pt-4">
          <OfflineNotice id={noticeId}>
            {t(prices.data ? 'billing.offline.prices' : 'billing.offline.pricesNone')}
          </OfflineNotice>
        </div>
      )}
      {prices.isError && !shown.offline && (
        <p className="px-5 py-4 text-sm text-red-700">{t('common.networkError')}</p>
      )}
      <ul className="divide-y divide-slate-100" data-testid="price-plans">
        {(prices.data?.prices ?? []).map((price) => (
          <li key={price.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-5 py-3">
            <span className="min-w-32 flex-1 font-medium text-slate-900">
              {planName(price.label)}
            </span>
            <span className="font-semibold text-brand-900">
              {t(`billing.plans.amount.${price.plan}`, { amount: format.money(price.unitAmount) })}
            </span>
            {paidForGood ? null : running ? (
              price.plan === 'one_payment' &&
              plan.data?.actions.upgrade && (
                <NetworkLink
                  to={`/upgrade-plan?price=${price.id}`}
                  className={link}
                  offlineReason={offlineReason}
                >
                  {t('billing.plan.upgrade')}
                </NetworkLink>
              )
            ) : price.plan === 'one_payment' ? (
              <NetworkLink
                to={`/my-account/single-payment?price=${price.id}`}
                className={link}
                offlineReason={offlineReason}
              >
                {t('billing.plans.payNow')}
              </NetworkLink>
            ) : (
              <NetworkLink
                to={`/my-account/subscribe-payment?price=${price.id}`}
                className={link}
                offlineReason={offlineReason}
              >
                {t('billing.plan.start')}
              </NetworkLink>
            )}
          </li>
        ))}
      </ul>
    </SectionCard>
  )
}
