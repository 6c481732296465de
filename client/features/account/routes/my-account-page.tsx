import { KeyRound, Mail, Pencil } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useSession } from '../../../lib/session'
import { useAccess } from '../../access/api'
import { OfflineMedia } from '../../harmonize/components/offline-media'
import { ChangeEmailDialog } from '../components/change-email-dialog'
import { ChangePasswordDialog } from '../components/change-password-dialog'
import { MemberHeader } from '../components/member-header'
import { RedeemCode } from '../components/redeem-code'

/** Account summary: who you are, your e-mail and password. Billing joins it with its issue. */
export function MyAccountPage() {
  const { t } = useTranslation()
  const { user } = useSession()
  // Media belong to sessions, so only people with access see them (the API says 402 otherwise).
  const access = useAccess()
  const [dialog, setDialog] = useState<'email' | 'password' | null>(null)
  const close = (open: boolean) => {
    if (!open) setDialog(null)
  }
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-6">
      <MemberHeader />
      <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <h2 className="border-b border-slate-100 px-5 py-4 text-lg font-semibold text-brand-900">
          {t('account.summary.title')}
        </h2>
        <dl className="divide-y divide-slate-100">
          <div className="flex flex-wrap items-center gap-3 px-5 py-4">
            <Mail aria-hidden className="size-5 text-brand-600" />
            <div className="min-w-0 flex-1">
              <dt className="text-sm text-slate-500">{t('account.summary.email')}</dt>
              <dd className="truncate font-medium text-slate-900" data-testid="account-email">
                {user?.email}
              </dd>
            </div>
            <Button variant="secondary" onClick={() => setDialog('email')}>
              <Pencil aria-hidden className="size-4" />
              {t('account.summary.editEmail')}
            </Button>
          </div>
          <div className="flex flex-wrap items-center gap-3 px-5 py-4">
            <KeyRound aria-hidden className="size-5 text-brand-600" />
            <div className="min-w-0 flex-1">
              <dt className="text-sm text-slate-500">{t('account.summary.password')}</dt>
              <dd className="font-medium tracking-widest text-slate-900">••••••••</dd>
            </div>
            <Button variant="secondary" onClick={() => setDialog('password')}>
              {t('account.summary.changePassword')}
            </Button>
          </div>
        </dl>
      </div>
      <RedeemCode />
      {access.data?.hasAccess && <OfflineMedia />}
      <ChangeEmailDialog open={dialog === 'email'} onOpenChange={close} />
      <ChangePasswordDialog open={dialog === 'password'} onOpenChange={close} />
    </section>
  )
}
