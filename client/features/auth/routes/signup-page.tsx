import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { type FieldErrors, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { z } from 'zod/mini'
import { emailSchema, fullNameSchema, newPasswordSchema } from '../../../../domain/account'
import { HumanCheck } from '../../../components/human-check'
import { Button } from '../../../components/ui/button'
import { PasswordField } from '../../../components/ui/password-field'
import { TextField } from '../../../components/ui/text-field'
import { ApiError } from '../../../lib/api-client'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { signUp } from '../api'
import { AuthCard } from '../components/auth-card'
import { useHumanCheck } from '../use-human-check'

const formSchema = z
  .object({
    name: fullNameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .check(
    z.refine((values) => values.password === values.confirmPassword, {
      error: 'validation.passwordsDoNotMatch',
      path: ['confirmPassword'],
    }),
  )
type FormValues = z.input<typeof formSchema>

const FIRST_ERROR_ORDER = ['name', 'email', 'password', 'confirmPassword'] as const

export function SignupPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const navigate = useNavigate()
  const { code } = useParams()
  const humanCheck = useHumanCheck()
  const [submitting, setSubmitting] = useState(false)
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  })
  const values = watch()
  // Spaces count as filled, so a blank-looking name reaches the schema's 'Please, enter your full name'.
  const allFilled = Object.values(values).every((value) => value !== '')

  const handleRegister = async (form: FormValues) => {
    if (!humanCheck.payload) return
    setSubmitting(true)
    try {
      const email = form.email.trim().toLowerCase()
      await signUp({
        name: form.name.trim(),
        email,
        password: form.password,
        code,
        humanCheck: humanCheck.payload,
      })
      notify('success', t('auth.signup.codeSent'))
      navigate('/signup-confirm', { state: { email } })
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : t('common.networkError'))
      humanCheck.renew()
    } finally {
      setSubmitting(false)
    }
  }

  const handleInvalid = (invalid: FieldErrors<FormValues>) => {
    const first = FIRST_ERROR_ORDER.find((field) => invalid[field])
    if (first) notify('error', text(invalid[first]?.message))
  }

  // Name and e-mail say 'Incorrect entry.' under the field; the full reason goes to the snackbar.
  const incorrect = (invalid: boolean) => (invalid ? text('validation.incorrectEntry') : undefined)

  return (
    <AuthCard title={t('auth.signup.heading')} backTo="/login">
      {code && (
        <p className="mb-4 rounded-lg bg-brand-100 px-3 py-2 text-sm text-brand-900">
          {t('auth.signup.invitation', { code })}
        </p>
      )}
      <form
        noValidate
        onSubmit={handleSubmit(handleRegister, handleInvalid)}
        className="flex flex-col gap-4"
      >
        <TextField
          label={t('auth.fields.fullName')}
          autoComplete="name"
          error={incorrect(Boolean(errors.name))}
          {...register('name')}
        />
        <TextField
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={incorrect(Boolean(errors.email))}
          {...register('email')}
        />
        <PasswordField
          label={t('auth.fields.password')}
          autoComplete="new-password"
          hint={text('validation.passwordPolicy')}
          error={errors.password ? text('validation.passwordPolicy') : undefined}
          {...register('password')}
        />
        <PasswordField
          label={t('auth.fields.confirmPassword')}
          autoComplete="new-password"
          error={text(errors.confirmPassword?.message)}
          {...register('confirmPassword')}
        />
        <HumanCheck key={humanCheck.key} onChange={humanCheck.onChange} />
        <Button
          type="submit"
          loading={submitting}
          disabled={!humanCheck.payload || !allFilled}
          className="w-full"
        >
          {t('auth.signup.submit')}
        </Button>
      </form>
      <div className="mt-5 flex flex-col items-center gap-2 text-sm">
        <Link to="/signup-confirm" className="font-medium text-brand-700 hover:underline">
          {t('auth.signup.confirmLink')}
        </Link>
        <Link to="/resend-confirmation-code" className="font-medium text-brand-700 hover:underline">
          {t('auth.signup.resendLink')}
        </Link>
      </div>
    </AuthCard>
  )
}
