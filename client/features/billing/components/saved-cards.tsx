import CreditCard from 'lucide-react/icons/credit-card'
import Plus from 'lucide-react/icons/plus'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { SavedCard } from '../../../../domain/billing'
import { Button } from '../../../components/ui/button'
import { NetworkLink, OfflineNotice } from '../../../components/ui/offline-notice'
import { SECTION_LINK_CLASS, SectionCard } from '../../../components/ui/section-card'
import { readServerError } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useShownOffline } from '../../../lib/network-status'
import { useNotifications } from '../../../lib/notifications'
import { useBillingAccount, useRemoveCard, useSetDefaultCard } from '../api'

export const BRAND_NAMES: Record<SavedCard['brand'], string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  unknown: '',
}

/** My Account's saved cards: brand, last four, expiry and the default badge, with their actions. */
export function SavedCards() {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const account = useBillingAccount()
  const setDefault = useSetDefaultCard()
  const remove = useRemoveCard()
  const format = useFormat()
  // Offline: the cards as last fetched on this device, and no changes until the network is back.
  const shown = useShownOffline(account)
  const noticeId = useId()
  const offlineReason = shown.offline ? noticeId : undefined
  const busy = setDefault.isPending || remove.isPending || shown.offline
  const failed = (error: unknown) =>
    notify('error', readServerError(error, t('common.networkError')).message)

  const cards = account.data?.cards ?? []
  return (
    <SectionCard
      title={t('billing.cards.title')}
      action={
        <NetworkLink
          to="/my-account/add-credit-card"
          offlineReason={offlineReason}
          className={SECTION_LINK_CLASS}
        >
          <Plus aria-hidden className="size-4" />
          {t('billing.card.heading')}
        </NetworkLink>
      }
    >
      <div className="flex flex-col gap-3 px-5 py-4">
        {account.isPending && (
          <p className="text-sm text-slate-500" aria-busy="true">
            {t('billing.cards.loading')}
          </p>
        )}
        {shown.asOf !== null && (
          <OfflineNotice id={noticeId}>
            {t('billing.offline.cards', { date: format.dateTime(new Date(shown.asOf)) })}
          </OfflineNotice>
        )}
        {shown.offline && !account.data && !account.isPending && (
          <OfflineNotice id={noticeId}>{t('billing.offline.cardsNone')}</OfflineNotice>
        )}
        {account.isError && !shown.offline && (
          <p className="text-sm text-red-700">{t('common.networkError')}</p>
        )}
        {account.data && cards.length === 0 && (
          <p className="text-sm text-slate-600">{t('billing.cards.none')}</p>
        )}
        {cards.length > 0 && (
          <ul className="divide-y divide-slate-100" data-testid="saved-cards">
            {cards.map((card) => (
              <li key={card.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
                <CreditCard aria-hidden className="size-5 text-brand-600" />
                <span className="min-w-40 flex-1 font-medium text-slate-900">
                  {t('billing.cards.card', {
                    brand: BRAND_NAMES[card.brand] || t('billing.cards.otherBrand'),
                    last4: card.last4,
                  })}
                  <span className="block text-sm font-normal text-slate-500">
                    {t('billing.cards.expires', {
                      month: String(card.expMonth).padStart(2, '0'),
                      year: card.expYear,
                    })}
                  </span>
                </span>
                {card.isDefault ? (
                  <span className="rounded-full bg-brand-100 px-2.5 py-1 text-xs font-semibold text-brand-800">
                    {t('billing.cards.default')}
                  </span>
                ) : (
                  <Button
                    variant="ghost"
                    disabled={busy}
                    aria-describedby={offlineReason}
                    onClick={() => setDefault.mutate(card.id, { onError: failed })}
                  >
                    {t('billing.cards.makeDefault')}
                  </Button>
                )}
                <Button
                  variant="ghost"
                  disabled={busy}
                  aria-describedby={offlineReason}
                  aria-label={t('billing.cards.removeNamed', { last4: card.last4 })}
                  onClick={() => remove.mutate(card.id, { onError: failed })}
                >
                  {t('billing.cards.remove')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </SectionCard>
  )
}
