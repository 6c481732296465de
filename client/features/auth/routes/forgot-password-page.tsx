import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useNotifications } from '../../../lib/notifications'
import { forgotPassword } from '../api'
import { AuthCard } from '../components/auth-card'
import { EmailCodeRequest } from '../components/email-code-request'

export function ForgotPasswordPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { notify } = useNotifications()
  return (
    <AuthCard title={t('auth.forgot.heading')} intro={t('auth.forgot.intro')} backTo="/login">
      <EmailCodeRequest
        send={forgotPassword}
        onSent={(email) => {
          notify('success', t('auth.forgot.sent'))
          navigate('/reset-password', { state: { email } })
        }}
      />
    </AuthCard>
  )
}
