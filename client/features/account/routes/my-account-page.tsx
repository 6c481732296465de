import KeyRound from 'lucide-react/icons/key-round'
import Mail from 'lucide-react/icons/mail'
import Pencil from 'lucide-react/icons/pencil'
import { Suspense, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { Button } from '../../../components/ui/button'
import { OfflineNotice } from '../../../components/ui/offline-notice'
import { useOfflineReason } from '../../../lib/network-status'
import { useSession } from '../../../lib/session'
import { useAccess } from '../../access/public'
import {
  BillingInfoSummary,
  BillingSandboxNotice,
  PaymentFailedBanner,
  PlanSummary,
  PricePlans,
  SavedCards,
} from '../../billing/public'
import { OfflineMedia } from '../../harmonize/public'
import { LeavingSection } from '../../leaving/public'
import { ChangeEmailDialog } from '../components/change-email-dialog'
import { ChangePasswordDialog } from '../components/change-password-dialog'
import { MemberHeader } from '../components/member-header'
import { RedeemCode } from '../components/redeem-code'

/** Account summary: who you are, your e-mail and password, your saved cards and access code. */
export function MyAccountPage() {
  const { t } = useTranslation()
  const { user } = useSession()
  // Media belong to sessions, so only people with access see them (the API says 402 otherwise).
  const access = useAccess()
  // What billing's plan and price lists show for a payment paid for good, from access's answer.
  const paidOnce = access.data?.standing === 'lifetime'
  const [dialog, setDialog] = useState<'email' | 'password' | null>(null)
  // Offline, the e-mail and password cannot be changed: their buttons say why, not fail later.
  const offlineReason = useOfflineReason()
  // Sent to the plans (after signing in without access, from a locked panel): there they are.
  const { hash } = useLocation()
  useEffect(() => {
    if (hash === '#plans') document.getElementById('plans')?.scrollIntoView({ block: 'start' })
  }, [hash])
  const close = (open: boolean) => {
    if (!open) setDialog(null)
  }
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-6">
      <MemberHeader />
      <BillingSandboxNotice />
      <PaymentFailedBanner />
      <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <h2 className="border-b border-slate-100 px-5 py-4 text-lg font-semibold text-brand-900">
          {t('account.summary.title')}
        </h2>
        {/* Each row is a dt/dd group (all a <dl> may hold): the label with its icon, the value,
            and the action that changes it. The value wraps rather than hide part of an address;
            the action moves under it when both do not fit. */}
        <dl className="divide-y divide-slate-100">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-4">
            <dt className="flex basis-full items-center gap-2 text-sm text-slate-500">
              <Mail aria-hidden className="size-4 text-brand-600" />
              {t('account.summary.email')}
            </dt>
            <dd
              className="min-w-32 flex-1 font-medium text-slate-900 [overflow-wrap:anywhere]"
              data-testid="account-email"
            >
              {user?.email}
            </dd>
            <dd>
              <Button
                variant="secondary"
                disabled={offlineReason !== undefined}
                aria-describedby={offlineReason}
                onClick={() => setDialog('email')}
              >
                <Pencil aria-hidden className="size-4" />
                {t('account.summary.editEmail')}
              </Button>
            </dd>
          </div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-4">
            <dt className="flex basis-full items-center gap-2 text-sm text-slate-500">
              <KeyRound aria-hidden className="size-4 text-brand-600" />
              {t('account.summary.password')}
            </dt>
            <dd className="min-w-32 flex-1 font-medium tracking-widest text-slate-900">
              <span aria-hidden>••••••••</span>
              <span className="sr-only">{t('account.summary.passwordHidden')}</span>
            </dd>
            <dd>
              <Button
                variant="secondary"
                disabled={offlineReason !== undefined}
                aria-describedby={offlineReason}
                onClick={() => setDialog('password')}
              >
                {t('account.summary.changePassword')}
              </Button>
            </dd>
          </div>
        </dl>
        {offlineReason !== undefined && (
          <div className="px-5 pb-4">
            <OfflineNotice id={offlineReason}>{t('account.offline.summary')}</OfflineNotice>
          </div>
        )}
      </div>
      <PlanSummary paidOnce={paidOnce} />
      <div id="plans" className="scroll-mt-20">
        <PricePlans paidOnce={paidOnce} />
      </div>
      <SavedCards />
      <BillingInfoSummary />
      <RedeemCode />
      {access.data?.hasAccess && <OfflineMedia />}
      <Suspense fallback={null}>
        <LeavingSection />
      </Suspense>
      <ChangeEmailDialog open={dialog === 'email'} onOpenChange={close} />
      <ChangePasswordDialog open={dialog === 'password'} onOpenChange={close} />
    </section>
  )
}
