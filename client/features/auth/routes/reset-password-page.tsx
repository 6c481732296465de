import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { z } from 'zod/mini'
import { resetPasswordRequestSchema } from '../../../../domain/auth'
import { ourZodMessages } from '../../../../domain/messages'
import { LOGIN_PATH } from '../../../../domain/routes'
import { PasswordField } from '../../../components/ui/password-field'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useResetPassword } from '../api'
import { AuthCard } from '../components/auth-card'
import { AuthForm, EmailField } from '../components/auth-form'
import { useHumanCheck } from '../use-human-check'

const formSchema = z.omit(resetPasswordRequestSchema, { humanCheck: true })

export function ResetPasswordPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const navigate = useNavigate()
  const email = (useLocation().state as { email?: string } | null)?.email ?? ''
  const humanCheck = useHumanCheck()
  const form = useForm({
    resolver: zodResolver(formSchema, ourZodMessages),
    defaultValues: { email, code: '', password: '' },
  })
  const { errors } = form.formState
  // Failures say the real reason (wrong or expired code, weak password), not the spec's
  // misleading 'Code has been sent to your email.' (PRODUCT.md).
  const { submit, pending, showMessage } = useFormMutation(form, useResetPassword())

  const handleChange = form.handleSubmit(async (values) => {
    if (!humanCheck.payload) return showMessage(text('validation.humanCheck'))
    await submit(
      { ...values, humanCheck: humanCheck.payload },
      {
        onSuccess: () => {
          notify('success', t('auth.reset.done'))
          navigate(LOGIN_PATH, { replace: true, state: { email: values.email } })
        },
        onError: () => {
          humanCheck.renew()
          return false
        },
      },
    )
  })

  return (
    <AuthCard
      title={t('auth.reset.heading')}
      intro={t('auth.reset.intro')}
      backTo="/forgot-password"
    >
      <AuthForm
        onSubmit={handleChange}
        pending={pending}
        submitLabel={t('auth.reset.submit')}
        humanCheck={humanCheck}
      >
        <EmailField error={text(errors.email?.message)} {...form.register('email')} />
        <TextField
          label={t('auth.fields.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          error={text(errors.code?.message)}
          {...form.register('code')}
        />
        <PasswordField
          label={t('auth.fields.newPassword')}
          autoComplete="new-password"
          hint={text('validation.passwordPolicy')}
          error={errors.password ? text('validation.passwordPolicy') : undefined}
          {...form.register('password')}
        />
      </AuthForm>
    </AuthCard>
  )
}
