import MailCheck from 'lucide-react/icons/mail-check'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Button } from '../../../components/ui/button'

/** /mail-sent: the message is on its way (spec scans §2 Mail sent page). */
export function MailSentPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <section className="mx-auto flex w-full max-w-md flex-col px-4 py-10">
      <div className="flex flex-col items-center gap-4 rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
        <MailCheck aria-hidden className="size-12 text-emerald-600" />
        <h1 className="text-2xl font-semibold text-brand-900">{t('support.sent.heading')}</h1>
        <p className="text-lg text-slate-700">{t('support.sent.text')}</p>
        <p className="text-sm text-slate-600">{t('support.sent.copy')}</p>
        <Button onClick={() => navigate('/')} className="mt-2 w-full">
          {t('support.sent.goHome')}
        </Button>
      </div>
    </section>
  )
}
