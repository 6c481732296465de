import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { confirmSignUpRequestSchema } from '../../../../domain/auth'
import { ourZodMessages } from '../../../../domain/messages'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useConfirmSignUp } from '../api'
import { AuthCard } from '../components/auth-card'
import { AuthForm, EmailField } from '../components/auth-form'

export function SignupConfirmPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const navigate = useNavigate()
  const email = (useLocation().state as { email?: string } | null)?.email ?? ''
  const form = useForm({
    resolver: zodResolver(confirmSignUpRequestSchema, ourZodMessages),
    defaultValues: { email, code: '' },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useConfirmSignUp())

  const handleConfirm = form.handleSubmit((values) =>
    submit(values, { onSuccess: () => navigate('/signed', { replace: true }) }),
  )

  return (
    <AuthCard title={t('auth.confirm.heading')} intro={t('auth.confirm.intro')} backTo="/signup">
      <AuthForm onSubmit={handleConfirm} pending={pending} submitLabel={t('auth.confirm.submit')}>
        <EmailField required error={text(errors.email?.message)} {...form.register('email')} />
        <TextField
          label={t('auth.fields.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          required
          error={text(errors.code?.message)}
          {...form.register('code')}
        />
      </AuthForm>
      <p className="mt-5 text-center text-sm">
        <Link to="/resend-confirmation-code" className="font-medium text-brand-700 hover:underline">
          {t('auth.signup.resendLink')}
        </Link>
      </p>
    </AuthCard>
  )
}
