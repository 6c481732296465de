import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { z } from 'zod/mini'
import { emailSchema, newPasswordSchema, otpCodeSchema } from '../../../../domain/account'
import { HumanCheck } from '../../../components/human-check'
import { Button } from '../../../components/ui/button'
import { PasswordField } from '../../../components/ui/password-field'
import { TextField } from '../../../components/ui/text-field'
import { ApiError } from '../../../lib/api-client'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { resetPassword } from '../api'
import { AuthCard } from '../components/auth-card'
import { useHumanCheck } from '../use-human-check'

const formSchema = z.object({
  email: emailSchema,
  code: otpCodeSchema,
  password: newPasswordSchema,
})
type FormValues = z.input<typeof formSchema>

export function ResetPasswordPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const navigate = useNavigate()
  const location = useLocation()
  const humanCheck = useHumanCheck()
  const [submitting, setSubmitting] = useState(false)
  const email = (location.state as { email?: string } | null)?.email ?? ''
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { email, code: '', password: '' },
  })

  const handleChange = async (values: FormValues) => {
    if (!humanCheck.payload) {
      notify('error', text('validation.humanCheck'))
      return
    }
    setSubmitting(true)
    try {
      const address = values.email.trim().toLowerCase()
      await resetPassword({ ...values, email: address, humanCheck: humanCheck.payload })
      notify('success', t('auth.reset.done'))
      navigate('/login', { replace: true, state: { email: address } })
    } catch (error) {
      // The real reason (wrong or expired code, weak password), not the spec's misleading text.
      notify('error', error instanceof ApiError ? error.message : t('common.networkError'))
      humanCheck.renew()
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <AuthCard
      title={t('auth.reset.heading')}
      intro={t('auth.reset.intro')}
      backTo="/forgot-password"
    >
      <form noValidate onSubmit={handleSubmit(handleChange)} className="flex flex-col gap-4">
        <TextField
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          error={text(errors.email?.message)}
          {...register('email')}
        />
        <TextField
          label={t('auth.fields.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          error={text(errors.code?.message)}
          {...register('code')}
        />
        <PasswordField
          label={t('auth.fields.newPassword')}
          autoComplete="new-password"
          hint={text('validation.passwordPolicy')}
          error={errors.password ? text('validation.passwordPolicy') : undefined}
          {...register('password')}
        />
        <HumanCheck key={humanCheck.key} onChange={humanCheck.onChange} />
        <Button type="submit" loading={submitting} className="w-full">
          {t('auth.reset.submit')}
        </Button>
      </form>
    </AuthCard>
  )
}
