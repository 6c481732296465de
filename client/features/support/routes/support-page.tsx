import type { LucideIcon } from 'lucide-react'
import ChevronRight from 'lucide-react/icons/chevron-right'
import Clock from 'lucide-react/icons/clock'
import KeyRound from 'lucide-react/icons/key-round'
import Mail from 'lucide-react/icons/mail'
import ShieldCheck from 'lucide-react/icons/shield-check'
import UserRound from 'lucide-react/icons/user-round'
import { type ReactNode, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ChangePasswordDialog } from '../../account/public'

const ROW =
  'flex w-full items-center gap-4 px-5 py-4 text-left hover:bg-brand-50 focus-visible:bg-brand-50 focus-visible:outline-none'

/** /support: 'How can we help you?' (spec scans §2 Support). */
export function SupportPage() {
  const { t } = useTranslation()
  const [passwordOpen, setPasswordOpen] = useState(false)
  return (
    <section className="mx-auto flex w-full max-w-xl flex-col gap-6 px-4 py-6">
      <h1 className="text-2xl font-semibold text-brand-900">{t('support.help.heading')}</h1>
      <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <li>
          <Link to="/my-account" className={ROW}>
            <Choice
              Icon={UserRound}
              label={t('support.help.loginDetails')}
              hint={t('support.help.loginDetailsHint')}
            />
          </Link>
        </li>
        <li>
          <button
            type="button"
            onClick={() => setPasswordOpen(true)}
            className={ROW}
            aria-haspopup="dialog"
          >
            <Choice
              Icon={KeyRound}
              label={t('support.help.changePassword')}
              hint={t('support.help.changePasswordHint')}
            />
          </button>
        </li>
        <li>
          <Link to="/privacy-policy" className={ROW}>
            <Choice
              Icon={ShieldCheck}
              label={t('support.help.privacyPolicy')}
              hint={t('support.help.privacyPolicyHint')}
            />
          </Link>
        </li>
      </ul>
      <div className="flex flex-col items-start gap-4 rounded-2xl bg-brand-50 p-5 ring-1 ring-brand-100">
        <h2 className="text-lg font-semibold text-brand-900">{t('support.help.writeHeading')}</h2>
        <p className="flex gap-3 text-slate-700">
          <Clock aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-600" />
          {t('support.help.replyNote')}
        </p>
        <Link
          to="/send-mail"
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-5 py-2.5 font-medium text-white shadow hover:bg-brand-700"
        >
          <Mail aria-hidden className="size-4" />
          {t('support.help.sendEmail')}
        </Link>
      </div>
      <Suspense fallback={null}>
        <ChangePasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
      </Suspense>
    </section>
  )
}

/** One way to get help: its icon, what it is and a line on where it leads. */
function Choice({ Icon, label, hint }: { Icon: LucideIcon; label: string; hint: ReactNode }) {
  return (
    <>
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700">
        <Icon aria-hidden className="size-5" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="font-medium text-slate-900">{label}</span>
        <span className="text-sm text-slate-600">{hint}</span>
      </span>
      <ChevronRight aria-hidden className="size-5 shrink-0 text-slate-400" />
    </>
  )
}
