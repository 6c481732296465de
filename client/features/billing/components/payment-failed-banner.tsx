import ShieldCheck from 'lucide-react/icons/shield-check'
import TriangleAlert from 'lucide-react/icons/triangle-exclamation-point'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { PlanState } from '../../../../domain/billing-plans'
import { Button } from '../../../components/ui/button'
import { NetworkLink, OfflineNotice } from '../../../components/ui/offline-notice'
import { readServerError } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useOnline } from '../../../lib/network-status'
import { useNotifications } from '../../../lib/notifications'
import { useBillingAccount } from '../api'
import { useConfirmPlanCharge, usePlan } from '../plan-api'
import { usePlanName } from '../use-plan-name'
import { InvoicePaymentStatus, useInvoicePayment } from './invoice-payment'
import { PausedBanner } from './paused-banner'
import { usePlanCheck } from './plan-check'
import { SandboxNotice } from './sandbox-notice'

/**
 * A charge of the plan waiting for the member to confirm it at their bank (3-D Secure): the
 * page left before the check ran, or it was closed. Confirm with your bank runs it now.
 */
function BankCheckBanner({ state }: { state: PlanState }) {
  const { t } = useTranslation()
  const format = useFormat()
  const { notify } = useNotifications()
  const check = usePlanCheck()
  const confirm = useConfirmPlanCharge(check.run)
  const online = useOnline()
  const offlineId = useId()
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
          amount: format.money(invoice.total, invoice.currency),
        })}
      </p>
      {!online && <OfflineNotice id={offlineId}>{t('billing.offline.pay')}</OfflineNotice>}
      <div>
        <Button
          loading={confirm.isPending}
          disabled={!online}
          aria-describedby={online ? undefined : offlineId}
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
 * failed'): what is owed and for what, the reason the bank gave, when the card is tried again
 * (access stays until then) or that access stopped, and Pay now and Update card. The payment's
 * outcome is said here, where the member clicked. On /home and My Account; `sandboxNotice` where
 * the page has no sandbox notice of its own.
 */
export function PaymentFailedBanner({ sandboxNotice = false }: { sandboxNotice?: boolean }) {
  const { t } = useTranslation()
  const planName = usePlanName()
  const format = useFormat()
  const plan = usePlan()
  const account = useBillingAccount()
  const payment = useInvoicePayment()
  // Offline the banner still says what is owed (from the plan kept on this device), but paying
  // and changing the card wait for a network.
  const online = useOnline()
  const offlineId = useId()
  const offlineReason = online ? undefined : offlineId
  const state = plan.data
  if (state?.bankCheck && payment.outcome.phase === 'idle') return <BankCheckBanner state={state} />
  // Once paid here, the banner stays to say so (the plan no longer has anything failed).
  if (payment.outcome.phase === 'idle' && (!state?.paymentFailed || !state.openInvoice)) return null
  const invoice =
    state?.openInvoice ?? ('invoice' in payment.outcome ? payment.outcome.invoice : null)
  if (!invoice) return null
  if (payment.outcome.phase === 'paid') {
    return (
      <div data-testid="payment-failed-banner">
        <InvoicePaymentStatus outcome={payment.outcome} />
      </div>
    )
  }
  const subscription = state?.subscription
  const stopped = subscription?.status === 'unpaid' || subscription?.status === 'incomplete'
  return (
    <div
      role="alert"
      data-testid="payment-failed-banner"
      className="flex flex-col gap-3 rounded-2xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-300"
    >
      {payment.dialog}
      <p className="flex items-start gap-2 font-semibold">
        <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-700" />
        {t('billing.banner.failed')}
      </p>
      {sandboxNotice && <SandboxNotice sandbox={account.data?.sandbox} />}
      <p className="text-sm" data-testid="payment-failed-details">
        {t('billing.banner.refused', {
          amount: format.money(invoice.total, invoice.currency),
          plan: subscription ? planName(subscription.label) : invoice.number,
          reason: t(`billing.refusal.${state?.refusal ?? 'card_declined'}`),
        })}{' '}
        {state?.nextPaymentAttempt && !stopped
          ? t('billing.banner.retry', { date: format.day(state.nextPaymentAttempt) })
          : t(stopped ? 'billing.banner.stopped' : 'billing.banner.noRetry')}
      </p>
      {offlineReason && (
        <OfflineNotice id={offlineReason}>{t('billing.offline.pay')}</OfflineNotice>
      )}
      <div className="flex flex-wrap items-start gap-2">
        {state?.actions.payInvoice !== false && (
          <Button
            loading={payment.outcome.phase === 'paying'}
            disabled={offlineReason !== undefined}
            aria-describedby={offlineReason}
            onClick={() => payment.pay(invoice)}
          >
            {t('billing.banner.payNow', { amount: format.money(invoice.total, invoice.currency) })}
          </Button>
        )}
        <NetworkLink
          to={`/my-account/add-credit-card?default=1&invoice=${encodeURIComponent(invoice.id)}`}
          offlineReason={offlineReason}
          className="inline-flex items-center rounded-lg bg-white px-5 py-2.5 font-medium text-amber-950 ring-1 ring-amber-300 hover:bg-amber-100"
        >
          {t('billing.banner.updateCard')}
        </NetworkLink>
      </div>
      <InvoicePaymentStatus outcome={payment.outcome} />
    </div>
  )
}

/**
 * /home's word on the plan when the panels may be closed by it: a refused payment (or a charge
 * waiting for the bank's check), or a paused plan. /home has no sandbox notice of its own.
 */
export function PlanBanner() {
  return (
    <>
      <PaymentFailedBanner sandboxNotice />
      <PausedBanner />
    </>
  )
}
