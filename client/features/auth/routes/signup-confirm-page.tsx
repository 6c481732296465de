import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { confirmSignUpRequestSchema } from '../../../../domain/account'
import { Button } from '../../../components/ui/button'
import { TextField } from '../../../components/ui/text-field'
import { ApiError } from '../../../lib/api-client'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { confirmSignUp } from '../api'
import { AuthCard } from '../components/auth-card'

type FormValues = { email: string; code: string }

export function SignupConfirmPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const navigate = useNavigate()
  const location = useLocation()
  const [submitting, setSubmitting] = useState(false)
  const email = (location.state as { email?: string } | null)?.email ?? ''
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(confirmSignUpRequestSchema),
    defaultValues: { email, code: '' },
  })

  const handleConfirm = async (values: FormValues) => {
    setSubmitting(true)
    try {
      await confirmSignUp(values)
      navigate('/signed', { replace: true })
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : t('common.networkError'))
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <AuthCard title={t('auth.confirm.heading')} intro={t('auth.confirm.intro')} backTo="/signup">
      <form noValidate onSubmit={handleSubmit(handleConfirm)} className="flex flex-col gap-4">
        <TextField
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          required
          error={text(errors.email?.message)}
          {...register('email')}
        />
        <TextField
          label={t('auth.fields.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          required
          error={text(errors.code?.message)}
          {...register('code')}
        />
        <Button type="submit" loading={submitting} className="w-full">
          {t('auth.confirm.submit')}
        </Button>
      </form>
      <p className="mt-5 text-center text-sm">
        <Link to="/resend-confirmation-code" className="font-medium text-brand-700 hover:underline">
          {t('auth.signup.resendLink')}
        </Link>
      </p>
    </AuthCard>
  )
}
