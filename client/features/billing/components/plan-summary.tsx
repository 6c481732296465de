import LoaderCircle from 'lucide-react/icons/loader-circle'
import History from 'lucide-react/icons/rotate-ccw-clock'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { displayedSubscriptionStatus } from '../../../../domain/access'
import type { Price } from '../../../../domain/billing'
import type { PlanState } from '../../../../domain/billing-plans'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { NetworkLink, OfflineNotice } from '../../../components/ui/offline-notice'
import { SectionCard } from '../../../components/ui/section-card'
import { readServerError } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useMessageText } from '../../../lib/messages'
import { useShownOffline } from '../../../lib/network-status'
import { useNotifications } from '../../../lib/notifications'
import { usePrices } from '../api'
import {
  isCharging,
  useCancelRenewal,
  usePausePlan,
  usePlan,
  useReactivatePlan,
  useResumePlan,
  useStartPlan,
} from '../plan-api'
import { usePlanName } from '../use-plan-name'
import { PayInvoiceButton } from './invoice-payment'
import { usePlanCheck } from './plan-check'
import { RenewalReminders } from './renewal-reminders'

const BADGE = {
  active: 'bg-emerald-100 text-emerald-800',
  canceled: 'bg-slate-200 text-slate-700',
  unpaid: 'bg-amber-100 text-amber-900',
  paused: 'bg-sky-100 text-sky-900',
} as const

/**
 * My Account's plan: its status, what happens next, and the account actions spec core §2
 * lists (Start Now, Cancel Renewal, Reactivate Subscription, Pay Actual Invoice), plus Pause,
 * Resume and Upgrade. The server decides which actions are offered. `paidOnce` is what the
 * access answer says (a payment paid: ONE PAYMENT, or FOUR PAYMENTS paid off); the page passes
 * it in, as billing does not import access (on the server, access reads billing).
 */
export function PlanSummary({ paidOnce }: { paidOnce: boolean }) {
  const { t } = useTranslation()
  const format = useFormat()
  const plan = usePlan()
  const state = plan.data
  // Offline, the plan as it was last fetched on this device, dated, and nothing that needs the
  // server: an action pressed now could only fail, and a copy that says 'in progress' is stale.
  const shown = useShownOffline(plan)
  const noticeId = useId()
  const offlineReason = shown.offline ? noticeId : undefined
  return (
    <SectionCard
      title={t('billing.plan.title')}
      link={{
        to: '/my-account/billing-history',
        label: t('billing.plan.history'),
        icon: <History aria-hidden className="size-4" />,
      }}
    >
      <div className="flex flex-col gap-3 px-5 py-4" data-testid="plan-summary">
        {plan.isPending && (
          <p className="text-sm text-slate-500" aria-busy="true">
            {t('billing.plan.loading')}
          </p>
        )}
        {shown.asOf !== null && (
          <OfflineNotice id={noticeId}>
            {t('billing.offline.plan', { date: format.dateTime(new Date(shown.asOf)) })}
          </OfflineNotice>
        )}
        {shown.offline && !state && !plan.isPending && (
          <OfflineNotice>{t('billing.offline.planNone')}</OfflineNotice>
        )}
        {plan.isError && !shown.offline && (
          <p className="text-sm text-red-700">{t('common.networkError')}</p>
        )}
        {isCharging(state) && !shown.offline && <PaymentInProgress />}
        {state && <PlanDetails state={state} paidOnce={paidOnce} />}
        {state && <PlanActions state={state} paidOnce={paidOnce} offlineReason={offlineReason} />}
        {state && <RenewalReminders state={state} offlineReason={offlineReason} />}
      </div>
    </SectionCard>
  )
}

/** 'Payment Status: in progress...' with a spinner while the bank answers (spec core §2). */
export function PaymentInProgress() {
  const { t } = useTranslation()
  return (
    <p
      role="status"
      data-testid="plan-payment-status"
      className="flex items-center gap-2 rounded-lg bg-brand-50 px-3 py-2 font-medium text-brand-900 ring-1 ring-brand-100"
    >
      <LoaderCircle aria-hidden className="size-5 animate-spin text-brand-600" />
      {t('billing.pay.inProgress')}
    </p>
  )
}

function PlanDetails({ state, paidOnce }: { state: PlanState; paidOnce: boolean }) {
  const { t } = useTranslation()
  const planName = usePlanName()
  const format = useFormat()
  const plan = state.subscription
  // Paid for good: what was bought before (a subscription that ended with the upgrade) is
  // history, and nothing is charged any more (docs/decisions/0034).
  if (state.lifetime || (paidOnce && !plan)) {
    return (
      <div className="flex flex-col gap-1" data-testid="plan-lifetime">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="font-medium text-slate-900">{t('billing.plan.lifetime')}</span>
          <span
            className={`rounded-full px-2.5 py-1 text-xs font-semibold ${BADGE.active}`}
            data-testid="plan-status"
          >
            {t('billing.plan.status.paid')}
          </span>
        </p>
        <p className="text-sm text-slate-700">{t('billing.plan.lifetimeDetail')}</p>
      </div>
    )
  }
  if (!plan) return <p className="text-sm text-slate-600">{t('billing.plan.none')}</p>
  // The spec's three labels (core §4: active or trialing read Active, canceled Canceled, any
  // other Unpaid), except that a paused plan says so: it owes nothing. A renewal being retried
  // is Unpaid, as the spec says, beside the banner that says when the card is tried again and
  // that access stays meanwhile (docs/decisions/0034); a green Active there contradicted it.
  // While the first payment is with the bank, the progress line speaks.
  const shown = plan.status === 'paused' ? 'paused' : displayedSubscriptionStatus(plan.status)
  const periodEnd = format.day(plan.currentPeriodEnd)
  const lines: string[] = []
  if (plan.installments) lines.push(t('billing.plan.detail.installments', plan.installments))
  switch (state.bankCheck ? 'waiting_for_bank' : plan.status) {
    // A charge waits for the member's check at the bank (3-D Secure): nothing failed.
    case 'waiting_for_bank':
      lines.push(t('billing.plan.detail.waitingForBank'))
      break
    case 'active':
    case 'trialing':
      if (plan.cancelAtPeriodEnd)
        lines.push(t('billing.plan.detail.cancelling', { date: periodEnd }))
      else if (plan.installments)
        lines.push(t('billing.plan.detail.nextInstallment', { date: periodEnd }))
      else lines.push(t('billing.plan.detail.active', { date: periodEnd }))
      break
    case 'past_due':
      lines.push(
        state.nextPaymentAttempt
          ? t('billing.plan.detail.retry', { date: format.day(state.nextPaymentAttempt) })
          : t('billing.plan.detail.past_due'),
      )
      break
    case 'canceled':
      lines.push(
        t('billing.plan.detail.canceled', {
          date: format.day(plan.endedAt ?? plan.currentPeriodEnd),
        }),
      )
      break
    case 'paused':
    case 'unpaid':
    case 'incomplete':
    case 'incomplete_expired':
      lines.push(t(`billing.plan.detail.${plan.status}`))
      break
    default:
      break
  }
  return (
    <div className="flex flex-col gap-1">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-medium text-slate-900">{planName(plan.label)}</span>
        <span className="font-semibold text-brand-900">
          {t(`billing.plans.amount.${plan.plan}`, { amount: format.money(plan.unitAmount) })}
        </span>
        {plan.status !== 'pending' && (
          <span
            className={`rounded-full px-2.5 py-1 text-xs font-semibold ${BADGE[shown]}`}
            data-testid="plan-status"
          >
            {t(`billing.plan.status.${shown}`)}
          </span>
        )}
      </p>
      {lines.map((line) => (
        <p key={line} className="text-sm text-slate-700">
          {line}
        </p>
      ))}
    </div>
  )
}

/** FOUR PAYMENTS and SUBSCRIPTION prices, to choose one for Start Now or Reactivate. */
export function PlanPriceChoice({
  prices,
  value,
  onChange,
  error,
}: {
  prices: readonly Price[]
  value: string
  onChange: (id: string) => void
  error?: string
}) {
  const { t } = useTranslation()
  const planName = usePlanName()
  const format = useFormat()
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">
        {t('billing.plan.choosePrice')}
      </legend>
      {prices.map((price) => (
        <label
          key={price.id}
          className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 rounded-lg px-3 py-2.5 ring-1 ring-slate-200 has-checked:bg-brand-50 has-checked:ring-brand-400"
        >
          <input
            type="radio"
            name="plan-price"
            value={price.id}
            checked={value === price.id}
            onChange={() => onChange(price.id)}
          />
          <span className="flex-1 font-medium text-slate-900">{planName(price.label)}</span>
          <span className="font-semibold text-brand-900">
            {t(`billing.plans.amount.${price.plan}`, { amount: format.money(price.unitAmount) })}
          </span>
        </label>
      ))}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  )
}

export const recurringPrices = (prices: readonly Price[] | undefined) =>
  (prices ?? []).filter((price) => price.plan !== 'one_payment')

/** `offlineReason`: offline, the id of the notice that says why the actions wait for a network. */
function PlanActions({
  state,
  paidOnce,
  offlineReason,
}: {
  state: PlanState
  paidOnce: boolean
  offlineReason: string | undefined
}) {
  const { t } = useTranslation()
  const format = useFormat()
  const text = useMessageText()
  const { notify } = useNotifications()
  const prices = usePrices()
  const check = usePlanCheck()
  const start = useStartPlan(check.run)
  const reactivate = useReactivatePlan(check.run)
  const cancel = useCancelRenewal()
  const pause = usePausePlan()
  const resume = useResumePlan(check.run)
  const [priceId, setPriceId] = useState('')
  const [priceError, setPriceError] = useState<string>()
  const [error, setError] = useState<string>()
  // Cancel Renewal and Pause each ask first (YES/NO), saying what they do to the month paid for.
  const [confirming, setConfirming] = useState<'cancel' | 'pause' | null>(null)
  // One id per try, so a repeated request of one try starts one plan.
  const attempt = useRef(crypto.randomUUID())
  const { actions, subscription } = state
  // Each button waits while another action runs; its own running shows as loading, which
  // keeps the keyboard's focus on it (a disabled button would lose it).
  const mutations = [start, reactivate, cancel, pause, resume]
  const busyBesides = (own: (typeof mutations)[number] | null) =>
    mutations.some((mutation) => mutation !== own && mutation.isPending) ||
    offlineReason !== undefined
  const busy = busyBesides(null)
  const actionsRow = useRef<HTMLDivElement>(null)
  // Reactivate before the period ends takes the cancellation back; after the plan ended it
  // starts a new one, which needs a price, as Start Now does.
  const undoesCancel =
    subscription?.cancelAtPeriodEnd === true &&
    !['canceled', 'incomplete_expired'].includes(subscription.status)
  const needsPrice = actions.startNow || (actions.reactivate && !undoesCancel)
  // Without a card there is nothing to start yet; after a lifetime payment, nothing to start.
  const needsCardHint = !paidOnce && !state.lifetime

  // Start Now goes on to the panels once the first payment is confirmed (spec core §2).
  const navigate = useNavigate()
  const [startedHere, setStartedHere] = useState(false)
  const active = subscription?.status === 'active'
  useEffect(() => {
    if (startedHere && active) navigate('/home')
  }, [startedHere, active, navigate])

  // An action that ends by removing its own button (Resume, then Pause is offered) would leave
  // the keyboard's focus on the page: it goes to the plan's next action instead.
  const focusWasHere = useRef(false)
  useEffect(() => {
    if (!focusWasHere.current || !state) return
    focusWasHere.current = false
    const lost = document.activeElement === null || document.activeElement === document.body
    if (lost) actionsRow.current?.querySelector<HTMLElement>('button:enabled, a[href]')?.focus()
  }, [state])

  const run = async (call: () => Promise<unknown>, done: string | null) => {
    setError(undefined)
    focusWasHere.current = actionsRow.current?.contains(document.activeElement) ?? false
    try {
      await call()
      attempt.current = crypto.randomUUID()
      if (done) notify('success', done)
    } catch (failure) {
      attempt.current = crypto.randomUUID()
      setError(readServerError(failure, t('common.networkError')).message)
    }
  }
  const withPrice = (call: (input: { priceId: string; attemptId: string }) => Promise<unknown>) => {
    if (needsPrice && !priceId) {
      setPriceError(text('billing.choosePrice'))
      return Promise.resolve()
    }
    setPriceError(undefined)
    return call({ priceId, attemptId: attempt.current })
  }

  return (
    <div className="flex flex-col gap-3">
      {check.dialog}
      {needsPrice && (
        <PlanPriceChoice
          prices={recurringPrices(prices.data?.prices)}
          value={priceId}
          onChange={(id) => {
            setPriceId(id)
            setPriceError(undefined)
          }}
          error={priceError}
        />
      )}
      {!state.hasDefaultCard && !subscription && needsCardHint && (
        <p className="text-sm text-slate-700">
          {t('billing.plan.needsCard')}{' '}
          <NetworkLink
            to="/my-account/add-credit-card"
            offlineReason={offlineReason}
            className="font-medium text-brand-700 underline"
          >
            {t('billing.plan.addCard')}
          </NetworkLink>
        </p>
      )}
      <div ref={actionsRow} className="flex flex-wrap gap-2">
        {actions.startNow && (
          <Button
            loading={start.isPending}
            disabled={busyBesides(start)}
            aria-describedby={offlineReason}
            onClick={() =>
              run(
                () =>
                  withPrice(async (input) => {
                    await start.mutateAsync(input)
                    setStartedHere(true)
                  }),
                null,
              )
            }
          >
            {t('billing.plan.startNow')}
          </Button>
        )}
        {actions.reactivate && (
          <Button
            loading={reactivate.isPending}
            disabled={busyBesides(reactivate)}
            aria-describedby={offlineReason}
            onClick={() =>
              run(
                () =>
                  undoesCancel
                    ? reactivate.mutateAsync({ attemptId: attempt.current })
                    : withPrice((input) => reactivate.mutateAsync(input)),
                t('billing.plan.reactivated'),
              )
            }
          >
            {t('billing.plan.reactivate')}
          </Button>
        )}
        {/* After a refused charge the banner above offers it, with the reason: once a page. */}
        {actions.payInvoice && state.openInvoice && !state.bankCheck && !state.paymentFailed && (
          <PayInvoiceButton invoice={state.openInvoice} offlineReason={offlineReason} />
        )}
        {actions.resume && (
          <Button
            loading={resume.isPending}
            disabled={busyBesides(resume)}
            aria-describedby={offlineReason}
            onClick={() => run(() => resume.mutateAsync(undefined), t('billing.plan.resumed'))}
          >
            {t('billing.plan.resume')}
          </Button>
        )}
        {actions.upgrade && (
          <NetworkLink
            to="/upgrade-plan"
            offlineReason={offlineReason}
            className="inline-flex items-center rounded-lg px-5 py-2.5 font-medium text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50"
          >
            {t('billing.plan.upgrade')}
          </NetworkLink>
        )}
        {actions.pause && (
          <Button
            variant="secondary"
            loading={pause.isPending}
            disabled={busyBesides(pause)}
            aria-describedby={offlineReason}
            onClick={() => setConfirming('pause')}
          >
            {t('billing.plan.pause')}
          </Button>
        )}
        {actions.cancelRenewal && (
          <Button
            variant="secondary"
            disabled={busy}
            aria-describedby={offlineReason}
            onClick={() => setConfirming('cancel')}
          >
            {t('billing.plan.cancelRenewal')}
          </Button>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null)
        }}
        // Paused or cancelled, the plan's next action (Resume, Reactivate) takes the focus.
        focusAfter={() => actionsRow.current?.querySelector<HTMLElement>('button:enabled, a[href]')}
        title={t(confirming === 'pause' ? 'billing.plan.pauseTitle' : 'billing.plan.cancelTitle')}
        description={t(
          confirming === 'pause' ? 'billing.plan.pauseText' : 'billing.plan.cancelText',
          { date: subscription ? format.day(subscription.currentPeriodEnd) : '' },
        )}
      >
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(null)}>
            {t('billing.plan.no')}
          </Button>
          <Button
            loading={cancel.isPending || pause.isPending}
            onClick={async () => {
              await (confirming === 'pause'
                ? run(() => pause.mutateAsync(undefined), t('billing.plan.paused'))
                : run(() => cancel.mutateAsync(undefined), t('billing.plan.cancelled')))
              setConfirming(null)
            }}
          >
            {t('billing.plan.yes')}
          </Button>
        </div>
      </Dialog>
    </div>
  )
}
