import ArrowLeft from 'lucide-react/icons/arrow-left'
import FileDown from 'lucide-react/icons/file-down'
import Info from 'lucide-react/icons/info'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { Invoice } from '../../../../domain/billing-plans'
import { Button } from '../../../components/ui/button'
import { OfflineNotice } from '../../../components/ui/offline-notice'
import { type Formats, useFormat } from '../../../lib/format'
import { useShownOffline } from '../../../lib/network-status'
import { useBillingAccount } from '../api'
import { SandboxNotice } from '../components/sandbox-notice'
import { useInvoices } from '../plan-api'
import { usePlanName } from '../use-plan-name'

// Text on a light tint of the same hue: each pair is above 4.5:1 (WCAG AA).
const STATUS_BADGES: Record<Invoice['status'], string> = {
  paid: 'bg-emerald-100 text-emerald-900 ring-emerald-200',
  open: 'bg-amber-100 text-amber-900 ring-amber-200',
  void: 'bg-slate-100 text-slate-700 ring-slate-200',
  uncollectible: 'bg-red-100 text-red-900 ring-red-200',
}

/**
 * /billing-history and /my-account/billing-history: the notice, the member's invoices newest
 * first, and Go back to the subscription screen (spec core §2, §3 and §9).
 */
export function BillingHistoryPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const account = useBillingAccount()
  const invoices = useInvoices()
  const list = invoices.data?.invoices ?? []
  const format = useFormat()
  // Offline, the invoices last fetched on this device, dated; their PDFs come from the server.
  const shown = useShownOffline(invoices)

  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-6">
      <h1 className="text-2xl font-semibold text-brand-900">{t('billing.history.heading')}</h1>
      <SandboxNotice sandbox={account.data?.sandbox} />
      <p
        data-testid="invoice-notice"
        className="flex gap-2 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900 ring-1 ring-brand-100"
      >
        <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-600" />
        {t('billing.history.notice')}
      </p>
      {invoices.isPending && (
        <p className="text-sm text-slate-500" aria-busy="true" role="status">
          {t('billing.history.loading')}
        </p>
      )}
      {shown.asOf !== null && (
        <OfflineNotice>
          {t('billing.offline.history', { date: format.dateTime(new Date(shown.asOf)) })}
        </OfflineNotice>
      )}
      {shown.offline && !invoices.data && !invoices.isPending && (
        <OfflineNotice>{t('billing.offline.historyNone')}</OfflineNotice>
      )}
      {invoices.isError && !shown.offline && (
        <p role="alert" className="text-sm text-red-700">
          {t('common.networkError')}
        </p>
      )}
      {invoices.data && list.length === 0 && (
        <p className="rounded-2xl bg-white p-5 text-slate-600 shadow-sm ring-1 ring-slate-200">
          {t('billing.history.empty')}
        </p>
      )}
      {list.length > 0 && <Invoices invoices={list} />}
      <div>
        <Button variant="secondary" onClick={() => navigate('/my-account')}>
          <ArrowLeft aria-hidden className="size-4" />
          {t('billing.history.goBack')}
        </Button>
      </div>
    </section>
  )
}

/** What an invoice charged for: the plan's label, with which of the four payments it is. */
function useProductText(): (invoice: Invoice) => string {
  const { t } = useTranslation()
  const planName = usePlanName()
  return (invoice) => {
    const product = invoice.product ? planName(invoice.product) : t('billing.history.plan')
    return invoice.installment
      ? t('billing.history.installment', { product, ...invoice.installment })
      : product
  }
}

function StatusBadge({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation()
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${STATUS_BADGES[invoice.status]}`}
    >
      {t(`billing.history.statuses.${invoice.status}`)}
    </span>
  )
}

function RefundedNote({
  invoice,
  format,
  testId = 'invoice-refunded',
}: {
  invoice: Invoice
  format: Formats
  testId?: string
}) {
  const { t } = useTranslation()
  if (invoice.refunded <= 0) return null
  return (
    <span data-testid={testId} className="mt-1 block text-xs text-slate-700">
      {invoice.refunded >= invoice.total
        ? t('billing.history.refundedAll')
        : t('billing.history.refundedPart', {
            amount: format.money(invoice.refunded, invoice.currency),
          })}
    </span>
  )
}

function PdfLink({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation()
  return (
    <a
      href={invoice.pdfUrl}
      target="_blank"
      rel="noopener"
      // The accessible name starts with the word shown ('PDF'), so a person who says what they
      // see, with voice control, reaches it; the rest says which invoice.
      aria-label={t('billing.history.downloadLabel', { number: invoice.number })}
      className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 font-medium text-brand-700 underline-offset-2 hover:bg-brand-50 hover:underline"
    >
      <FileDown aria-hidden className="size-4" />
      {t('billing.history.download')}
    </a>
  )
}

/**
 * The invoices: a table where there is room, and on a phone a list of cards, one per invoice,
 * with every column's value readable without scrolling sideways.
 */
function Invoices({ invoices }: { invoices: Invoice[] }) {
  return (
    <>
      <div className="hidden sm:block">
        <InvoiceTable invoices={invoices} />
      </div>
      <div className="sm:hidden">
        <InvoiceList invoices={invoices} />
      </div>
    </>
  )
}

function InvoiceList({ invoices }: { invoices: Invoice[] }) {
  const { t } = useTranslation()
  const format = useFormat()
  const productText = useProductText()
  return (
    <ul
      aria-label={t('billing.history.heading')}
      className="flex flex-col gap-3"
      data-testid="invoice-list"
    >
      {invoices.map((invoice) => (
        <li
          key={invoice.id}
          data-testid="invoice-card"
          className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <div className="flex items-start justify-between gap-3">
            <p className="font-medium text-slate-900">{productText(invoice)}</p>
            <p className="font-semibold whitespace-nowrap text-slate-900 tabular-nums">
              {format.money(invoice.total, invoice.currency)}
            </p>
          </div>
          <p className="text-sm text-slate-700">
            <span className="font-mono">{invoice.number}</span>
            {' · '}
            <time dateTime={invoice.createdAt}>{format.shortDay(invoice.createdAt)}</time>
          </p>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div>
              <StatusBadge invoice={invoice} />
              <RefundedNote invoice={invoice} format={format} testId="invoice-card-refunded" />
            </div>
            <PdfLink invoice={invoice} />
          </div>
        </li>
      ))}
    </ul>
  )
}

/** The invoices table (spec core §9), in the member's language. */
function InvoiceTable({ invoices }: { invoices: Invoice[] }) {
  const { t } = useTranslation()
  const format = useFormat()
  const productText = useProductText()
  const header = 'px-4 py-3 text-xs font-semibold tracking-wide text-slate-600 uppercase'
  const cell = 'px-4 py-3 whitespace-nowrap'
  return (
    <section
      aria-label={t('billing.history.heading')}
      data-testid="invoice-table"
      className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">{t('billing.history.heading')}</caption>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className={`${header} text-left`}>
              {t('billing.history.product')}
            </th>
            <th scope="col" className={`${header} text-left`}>
              {t('billing.history.reference')}
            </th>
            <th scope="col" className={`${header} text-left`}>
              {t('billing.history.date')}
            </th>
            <th scope="col" className={`${header} text-right`}>
              {t('billing.history.amount')}
            </th>
            <th scope="col" className={`${header} text-left`}>
              {t('billing.history.status')}
            </th>
            <th scope="col" className={`${header} text-left`}>
              {t('billing.history.file')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {invoices.map((invoice) => (
            <tr key={invoice.id} data-testid="invoice-row">
              <td className="px-4 py-3 text-slate-900">{productText(invoice)}</td>
              <td className={`${cell} font-mono text-slate-900`}>{invoice.number}</td>
              <td className={`${cell} text-slate-700 tabular-nums`}>
                <time dateTime={invoice.createdAt}>{format.shortDay(invoice.createdAt)}</time>
              </td>
              <td className={`${cell} text-right font-medium text-slate-900 tabular-nums`}>
                {format.money(invoice.total, invoice.currency)}
              </td>
              <td className={cell}>
                <StatusBadge invoice={invoice} />
                <RefundedNote invoice={invoice} format={format} />
              </td>
              <td className={cell}>
                <PdfLink invoice={invoice} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
