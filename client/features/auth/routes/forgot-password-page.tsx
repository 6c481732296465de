import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useNotifications } from '../../../lib/notifications'
import { useForgotPassword } from '../api'
import { AuthCard } from '../components/auth-card'
import { EmailCodeRequest } from '../components/email-code-request'

export function ForgotPasswordPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { notify } = useNotifications()
  const forgotPassword = useForgotPassword()
  return (
    <AuthCard title={t('auth.forgot.heading')} intro={t('auth.forgot.intro')} backTo="/login">
      <EmailCodeRequest
        mutation={forgotPassword}
        onSent={(email) => {
          notify('success', t('auth.forgot.sent'))
          navigate('/reset-password', { state: { email } })
        }}
      />
    </AuthCard>
  )
}
