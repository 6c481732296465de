import CheckCircle2 from 'lucide-react/icons/circle-check'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Button } from '../../../components/ui/button'
import { AuthCard } from '../components/auth-card'

export function SignedPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <AuthCard title={t('auth.signed.heading')}>
      <div className="flex flex-col items-center gap-4 text-center">
        <CheckCircle2 aria-hidden className="size-12 text-emerald-600" />
        <p className="text-slate-700">{t('auth.signed.text')}</p>
        <Button onClick={() => navigate('/login')} className="w-full">
          {t('auth.signed.goToSignIn')}
        </Button>
      </div>
    </AuthCard>
  )
}
