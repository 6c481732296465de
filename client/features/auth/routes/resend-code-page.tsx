import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useNotifications } from '../../../lib/notifications'
import { useResendCode } from '../api'
import { AuthCard } from '../components/auth-card'
import { EmailCodeRequest } from '../components/email-code-request'

export function ResendCodePage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { notify } = useNotifications()
  const resendCode = useResendCode()
  return (
    <AuthCard title={t('auth.resend.heading')} intro={t('auth.resend.intro')} backTo="/signup">
      <EmailCodeRequest
        mutation={resendCode}
        onSent={(email) => {
          notify('success', t('auth.resend.sent'))
          navigate('/signup-confirm', { state: { email } })
        }}
      />
    </AuthCard>
  )
}
