import ShieldCheck from 'lucide-react/icons/shield-check'
import TriangleAlert from 'lucide-react/icons/triangle-exclamation-point'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatAmount } from '../../../../domain/billing'
import type { PlanState } from '../../../../domain/billing-plans'
import { Button } from '../../../components/ui/button'
import { readServerError } from '../../../lib/form-mutation'
import { useNotifications } from '../../../lib/notifications'
import { useBillingAccount } from '../api'
import { useConfirmPlanCharge, usePayInvoice, usePlan } from '../plan-api'
import { usePlanCheck } from './plan-check'
import { SandboxNotice } from './sandbox-notice'

/** Pay Actual Invoice: the open invoice, charged to the default card now. */
export function PayInvoiceButton({
  invoiceId,
  onError,
  variant = 'primary',
}: {
  invoiceId: string
  onError?: (message: string) => void
  variant?: 'primary' | 'secondary'
}) {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const check = usePlanCheck()
  const pay = usePayInvoice(check.run)
  return (
    <>
      {check.dialog}
      <Button
        variant={variant}
        loading={pay.isPending}
        onClick={() =>
          pay.mutate(invoiceId, {
            onSuccess: () => notify('info', t('billing.plan.invoicePaying')),
            onError: (error) => {
              const message = readServerError(error, t('common.networkError')).message
              if (onError) onError(message)
              else notify('error', message)
            },
          })
        }
      >
        {t('billing.banner.payInvoice')}
      </Button>
    </>
  )
}

/**
 * A charge of the plan waiting for the member to confirm it at their bank (3-D Secure): the
 * page left before the check ran, or it was closed. Confirm with your bank runs it now.
 */
function BankCheckBanner({ state }: { state: PlanState }) {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const check = usePlanCheck()
  const confirm = useConfirmPlanCharge(check.run)
  const invoice = state.openInvoice
  if (!state.bankCheck || !invoice) return null
  const secret = state.bankCheck
  return (
    <div
      role="status"
      data-testid="bank-check-banner"
      className="flex flex-col gap-3 rounded-2xl bg-brand-50 p-4 text-brand-950 ring-1 ring-brand-200"
    >
      {check.dialog}
      <p className="flex items-start gap-2 font-semibold">
        <ShieldCheck aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-700" />
        {t('billing.plan.checkWaiting', {
          amount: `${formatAmount(invoice.total)} ${invoice.currency.toUpperCase()}`,
        })}
      </p>
      <div>
        <Button
          loading={confirm.isPending}
          onClick={() =>
            confirm.mutate(secret, {
              onSuccess: () => notify('info', t('billing.plan.invoicePaying')),
              onError: (error) =>
                notify('error', readServerError(error, t('common.networkError')).message),
            })
          }
        >
          {t('billing.plan.confirmWithBank')}
        </Button>
      </div>
    </div>
  )
}

/**
 * After a refused renewal or installment (spec core §8: 'Sorry, it seems that a payment
 * failed'): what is owed, a way to change the card, and Pay Actual Invoice. On /home and My
 * Account.
 */
export function PaymentFailedBanner() {
  const { t } = useTranslation()
  const plan = usePlan()
  const account = useBillingAccount()
  const state = plan.data
  if (state?.bankCheck) return <BankCheckBanner state={state} />
  if (!state?.paymentFailed || !state.openInvoice) return null
  const invoice = state.openInvoice
  return (
    <div
      role="alert"
      data-testid="payment-failed-banner"
      className="flex flex-col gap-3 rounded-2xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-300"
    >
      <p className="flex items-start gap-2 font-semibold">
        <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-700" />
        {t('billing.banner.failed')}
      </p>
      <SandboxNotice sandbox={account.data?.sandbox} />
      <p className="text-sm">
        {t('billing.banner.invoice', {
          number: invoice.number,
          amount: `${formatAmount(invoice.total)} ${invoice.currency.toUpperCase()}`,
        })}
      </p>
      <div className="flex flex-wrap gap-2">
        <Link
          to="/my-account/add-credit-card?default=1"
          className="inline-flex items-center rounded-lg bg-white px-5 py-2.5 font-medium text-amber-950 ring-1 ring-amber-300 hover:bg-amber-100"
        >
          {t('billing.banner.updateCard')}
        </Link>
        {state.actions.payInvoice && <PayInvoiceButton invoiceId={invoice.id} />}
      </div>
    </div>
  )
}
