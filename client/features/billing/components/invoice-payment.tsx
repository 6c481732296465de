import CircleCheck from 'lucide-react/icons/circle-check'
import FileDown from 'lucide-react/icons/file-down'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import TriangleAlert from 'lucide-react/icons/triangle-exclamation-point'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RefusalReason } from '../../../../domain/billing'
import type { Invoice } from '../../../../domain/billing-plans'
import { Button } from '../../../components/ui/button'
import { readServerError } from '../../../lib/form-mutation'
import { isCharging, usePayInvoice, usePlan } from '../plan-api'
import { usePlanCheck } from './plan-check'

/** How one Pay Actual Invoice went, as the plan now says. */
export type InvoicePaymentOutcome =
  | { phase: 'idle' }
  | { phase: 'paying'; invoice: Invoice }
  | { phase: 'paid'; invoice: Invoice }
  | { phase: 'refused'; invoice: Invoice; reason: RefusalReason }
  | { phase: 'error'; invoice: Invoice; message: string }

interface Attempt {
  invoice: Invoice
  /** The pay request answered (the charge may still be with the bank). */
  answered: boolean
  /** The request itself was refused (the invoice moved on, the network failed). */
  error?: string
}

/**
 * Pay Actual Invoice, followed to its end: the charge is with the bank for a few seconds, and the
 * member is told where they clicked whether it was paid (with the invoice's PDF) or refused and
 * why, instead of a banner that goes quiet or comes back.
 */
export function useInvoicePayment(): {
  outcome: InvoicePaymentOutcome
  pay: (invoice: Invoice) => void
  dialog: ReactNode
} {
  const { t } = useTranslation()
  const plan = usePlan()
  const check = usePlanCheck()
  const payInvoice = usePayInvoice(check.run)
  const [attempt, setAttempt] = useState<Attempt | null>(null)

  const pay = (invoice: Invoice) => {
    setAttempt({ invoice, answered: false })
    payInvoice.mutate(invoice.id, {
      onSuccess: () => setAttempt({ invoice, answered: true }),
      onError: (error) =>
        setAttempt({
          invoice,
          answered: true,
          error: readServerError(error, t('common.networkError')).message,
        }),
    })
  }

  const state = plan.data
  let outcome: InvoicePaymentOutcome = { phase: 'idle' }
  if (attempt) {
    const { invoice } = attempt
    if (attempt.error) outcome = { phase: 'error', invoice, message: attempt.error }
    else if (!attempt.answered || !state || isCharging(state) || state.bankCheck)
      outcome = { phase: 'paying', invoice }
    else if (state.openInvoice?.id !== invoice.id) outcome = { phase: 'paid', invoice }
    else if (state.paymentFailed)
      outcome = { phase: 'refused', invoice, reason: state.refusal ?? 'card_declined' }
    else outcome = { phase: 'paying', invoice }
  }
  return { outcome, pay, dialog: check.dialog }
}

/** The outcome of a Pay Actual Invoice, said beside the button that started it. */
export function InvoicePaymentStatus({ outcome }: { outcome: InvoicePaymentOutcome }) {
  const { t } = useTranslation()
  if (outcome.phase === 'idle') return null
  const number = outcome.invoice.number
  if (outcome.phase === 'paying') {
    return (
      <p
        role="status"
        className="flex items-center gap-2 text-sm font-medium"
        data-testid="invoice-payment"
      >
        <LoaderCircle aria-hidden className="size-4 animate-spin" />
        {t('billing.invoicePayment.paying', { number })}
      </p>
    )
  }
  if (outcome.phase === 'paid') {
    return (
      <div
        role="status"
        className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-950 ring-1 ring-emerald-200"
        data-testid="invoice-payment"
      >
        <p className="flex items-center gap-2 font-semibold">
          <CircleCheck aria-hidden className="size-4 text-emerald-700" />
          {t('billing.invoicePayment.paid', { number })}
        </p>
        <a
          href={outcome.invoice.pdfUrl}
          target="_blank"
          rel="noopener"
          className="inline-flex items-center gap-1.5 font-medium text-emerald-900 underline"
        >
          <FileDown aria-hidden className="size-4" />
          {t('billing.invoicePayment.pdf', { number })}
        </a>
      </div>
    )
  }
  return (
    <p
      role="alert"
      className="flex items-start gap-2 text-sm font-medium text-red-800"
      data-testid="invoice-payment"
    >
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
      {outcome.phase === 'refused'
        ? t('billing.invoicePayment.refused', {
            reason: t(`billing.refusal.${outcome.reason}`),
          })
        : outcome.message}
    </p>
  )
}

/** Pay Actual Invoice with its outcome beside it; offline, disabled and described by `offlineReason`. */
export function PayInvoiceButton({
  invoice,
  variant = 'primary',
  label,
  offlineReason,
}: {
  invoice: Invoice
  variant?: 'primary' | 'secondary'
  label?: string
  offlineReason?: string | undefined
}) {
  const { t } = useTranslation()
  const payment = useInvoicePayment()
  return (
    <div className="flex flex-col items-start gap-2">
      {payment.dialog}
      {payment.outcome.phase !== 'paid' && (
        <Button
          variant={variant}
          loading={payment.outcome.phase === 'paying'}
          disabled={offlineReason !== undefined}
          aria-describedby={offlineReason}
          onClick={() => payment.pay(invoice)}
        >
          {label ?? t('billing.banner.payInvoice')}
        </Button>
      )}
      <InvoicePaymentStatus outcome={payment.outcome} />
    </div>
  )
}
