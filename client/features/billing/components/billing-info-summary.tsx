import { Pencil } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useBillingAccount } from '../api'

/** My Account's billing information: what invoices will carry, and the way to change it. */
export function BillingInfoSummary() {
  const { t } = useTranslation()
  const account = useBillingAccount()
  const info = account.data?.billingInfo
  const lines = info
    ? [
        info.name,
        info.email,
        info.line1,
        info.line2,
        [info.postalCode, info.city].filter(Boolean).join(' '),
        [info.state, info.country].filter(Boolean).join(', '),
      ].filter((line): line is string => Boolean(line))
    : []
  return (
    <section
      aria-labelledby="billing-info-heading"
      className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <h2 id="billing-info-heading" className="text-lg font-semibold text-brand-900">
          {t('billing.info.title')}
        </h2>
        <Link
          to="/modify-billing-info"
          className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50"
        >
          <Pencil aria-hidden className="size-4" />
          {t('billing.info.edit')}
        </Link>
      </div>
      <div className="px-5 py-4 text-sm" data-testid="billing-info">
        {account.isSuccess && lines.length === 0 && (
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
    </section>
  )
}
