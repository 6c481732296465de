import { zodResolver } from '@hookform/resolvers/zod'
import { type FieldErrors, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { z } from 'zod/mini'
import { signUpRequestSchema } from '../../../../domain/auth'
import { ourZodMessages } from '../../../../domain/messages'
import { PasswordField } from '../../../components/ui/password-field'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useInvitationCode } from '../../access/public'
import { useSignUp } from '../api'
import { AuthCard } from '../components/auth-card'
import { AuthForm, EmailField } from '../components/auth-form'
import { LegalLinks } from '../components/legal-links'
import { useHumanCheck } from '../use-human-check'

// The request's own rules, plus the second password, which never leaves the form. The code
// comes from the address and the language from the interface; the human check is a widget.
const formSchema = z
  .extend(z.omit(signUpRequestSchema, { code: true, language: true, humanCheck: true }), {
    confirmPassword: z.string(),
  })
  .check(
    z.refine((values) => values.password === values.confirmPassword, {
      error: 'validation.passwordsDoNotMatch',
      path: ['confirmPassword'],
    }),
  )
type FormValues = z.input<typeof formSchema>

const UNUSABLE_CODE = {
  unknown: 'access.codeUnknown',
  used: 'access.codeUsed',
  revoked: 'access.codeRevoked',
} as const

const FIRST_ERROR_ORDER = ['name', 'email', 'password', 'confirmPassword'] as const

export function SignupPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const navigate = useNavigate()
  const { code } = useParams()
  const humanCheck = useHumanCheck()
  const invitation = useInvitationCode(code)
  const form = useForm({
    resolver: zodResolver(formSchema, ourZodMessages),
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  })
  const { errors } = form.formState
  const { submit, pending, showMessage } = useFormMutation(form, useSignUp())
  // Spaces count as filled, so a blank-looking name reaches the schema's 'Please, enter your full name'.
  const allFilled = Object.values(form.watch()).every((value) => value !== '')

  const handleRegister = form.handleSubmit(
    async ({ confirmPassword: _, ...values }) => {
      if (!humanCheck.payload) return
      await submit(
        { ...values, code, humanCheck: humanCheck.payload },
        {
          onSuccess: () => {
            notify('success', t('auth.signup.codeSent'))
            navigate('/signup-confirm', { state: { email: values.email } })
          },
          onError: () => {
            humanCheck.renew()
            return false
          },
        },
      )
    },
    // Spec: the full reason of the first wrong field goes to the snackbar.
    (invalid: FieldErrors<FormValues>) => {
      const first = FIRST_ERROR_ORDER.find((field) => invalid[field])
      if (first) showMessage(text(invalid[first]?.message))
    },
  )

  // Name and e-mail say 'Incorrect entry.' under the field; the full reason goes to the snackbar.
  const incorrect = (invalid: boolean) => (invalid ? text('validation.incorrectEntry') : undefined)

  return (
    <AuthCard title={t('auth.signup.heading')} backTo="/login">
      {code && invitation.data?.status !== 'available' && invitation.data ? (
        <div role="status" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <p>{text(UNUSABLE_CODE[invitation.data.status])}</p>
          <p className="mt-1">{t('auth.signup.invitationUnusable')}</p>
        </div>
      ) : code ? (
        <p className="mb-4 rounded-lg bg-brand-100 px-3 py-2 text-sm text-brand-900">
          {t('auth.signup.invitation', { code })}
        </p>
      ) : null}
      <AuthForm
        onSubmit={handleRegister}
        pending={pending}
        submitLabel={t('auth.signup.submit')}
        submitDisabled={!humanCheck.payload || !allFilled}
        humanCheck={humanCheck}
      >
        <TextField
          label={t('auth.fields.fullName')}
          autoComplete="name"
          error={incorrect(Boolean(errors.name))}
          {...form.register('name')}
        />
        <EmailField error={incorrect(Boolean(errors.email))} {...form.register('email')} />
        <PasswordField
          label={t('auth.fields.password')}
          autoComplete="new-password"
          hint={text('validation.passwordPolicy')}
          error={errors.password ? text('validation.passwordPolicy') : undefined}
          {...form.register('password')}
        />
        <PasswordField
          label={t('auth.fields.confirmPassword')}
          autoComplete="new-password"
          error={text(errors.confirmPassword?.message)}
          {...form.register('confirmPassword')}
        />
      </AuthForm>
      <div className="mt-5 flex flex-col items-center gap-2 text-sm">
        <Link to="/signup-confirm" className="font-medium text-brand-700 hover:underline">
          {t('auth.signup.confirmLink')}
        </Link>
        <Link to="/resend-confirmation-code" className="font-medium text-brand-700 hover:underline">
          {t('auth.signup.resendLink')}
        </Link>
      </div>
      <LegalLinks intro={t('auth.legal.readFirst')} />
    </AuthCard>
  )
}
