import Pencil from 'lucide-react/icons/pencil'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { NetworkLink, OfflineNotice } from '../../../components/ui/offline-notice'
import { SECTION_LINK_CLASS, SectionCard } from '../../../components/ui/section-card'
import { useShownOffline } from '../../../lib/network-status'
import { useBillingAccount } from '../api'

/** The browser names the country in the interface language; the code is shown if it cannot. */
function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code
  } catch {
    return code
  }
}

/** My Account's billing information: what invoices will carry, and the way to change it. */
export function BillingInfoSummary() {
  const { t, i18n } = useTranslation()
  const account = useBillingAccount()
  const info = account.data?.billingInfo
  // Offline it shows what was last fetched (the cards' notice dates it); editing waits.
  const shown = useShownOffline(account)
  const noticeId = useId()
  const lines = info
    ? [
        info.name,
        info.email,
        info.line1,
        info.line2,
        [info.postalCode, info.city].filter(Boolean).join(' '),
        [info.state, info.country && countryName(info.country, i18n.language)]
          .filter(Boolean)
          .join(', '),
      ].filter((line): line is string => Boolean(line))
    : []
  return (
    <SectionCard
      title={t('billing.info.title')}
      action={
        <NetworkLink
          to="/modify-billing-info"
          offlineReason={shown.offline ? noticeId : undefined}
          className={SECTION_LINK_CLASS}
        >
          <Pencil aria-hidden className="size-4" />
          {t('billing.info.edit')}
        </NetworkLink>
      }
    >
      <div className="flex flex-col gap-3 px-5 py-4 text-sm" data-testid="billing-info">
        {shown.offline && <OfflineNotice id={noticeId}>{t('billing.offline.info')}</OfflineNotice>}
        {account.data && lines.length === 0 && (
          <p className="text-slate-600">{t('billing.info.none')}</p>
        )}
        {lines.length > 0 && (
          <address className="not-italic text-slate-800 [overflow-wrap:anywhere]">
            {lines.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        )}
      </div>
    </SectionCard>
  )
}
