import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { z } from 'zod/mini'
import { emailSchema } from '../../../../domain/account'
import { SIGNED_IN_LANDING_PATH } from '../../../../domain/routes'
import { HumanCheck } from '../../../components/human-check'
import { Button } from '../../../components/ui/button'
import { PasswordField } from '../../../components/ui/password-field'
import { TextField } from '../../../components/ui/text-field'
import { ApiError } from '../../../lib/api-client'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useSignIn } from '../api'
import { AuthCard } from '../components/auth-card'
import { useHumanCheck } from '../use-human-check'

// Plain state instead of a form library: this page is the first thing most people load, and
// react-hook-form alone was 13 KB of its 150 KB budget (scripts/bench/bundle-size.ts).
const formSchema = z.object({
  email: emailSchema,
  password: z.string().check(z.minLength(1, { error: 'validation.passwordRequired' })),
  rememberMe: z.boolean(),
})
type FormValues = z.output<typeof formSchema>
type FormErrors = Partial<Record<keyof FormValues, string>>

export function LoginPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const navigate = useNavigate()
  const location = useLocation()
  const signIn = useSignIn()
  const humanCheck = useHumanCheck()
  const [submitting, setSubmitting] = useState(false)
  const [email, setEmail] = useState((location.state as { email?: string } | null)?.email ?? '')
  const [password, setPassword] = useState('')
  const [rememberMe, setRememberMe] = useState(false)
  const [errors, setErrors] = useState<FormErrors>({})

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = formSchema.safeParse({ email, password, rememberMe })
    if (!parsed.success) {
      const found: FormErrors = {}
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FormValues
        found[field] ??= issue.message
      }
      setErrors(found)
      return
    }
    setErrors({})
    void handleSignIn(parsed.data)
  }

  const handleSignIn = async (values: FormValues) => {
    if (!humanCheck.payload) {
      notify('error', text('validation.humanCheck'))
      return
    }
    setSubmitting(true)
    try {
      await signIn({ ...values, humanCheck: humanCheck.payload })
      const from = (location.state as { from?: string } | null)?.from
      navigate(from && from !== '/login' ? from : SIGNED_IN_LANDING_PATH, { replace: true })
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : t('common.networkError'))
      humanCheck.renew()
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <AuthCard title={t('auth.login.heading')} intro={t('auth.login.intro')}>
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
        <TextField
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={text(errors.email)}
          name="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <PasswordField
          label={t('auth.fields.password')}
          autoComplete="current-password"
          error={text(errors.password)}
          name="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            name="rememberMe"
            checked={rememberMe}
            onChange={(event) => setRememberMe(event.target.checked)}
            className="size-4 accent-brand-600"
          />
          {t('auth.login.rememberMe')}
        </label>
        <HumanCheck key={humanCheck.key} onChange={humanCheck.onChange} />
        <Button type="submit" loading={submitting} className="w-full">
          {t('auth.login.submit')}
        </Button>
      </form>
      <div className="mt-5 flex flex-col items-center gap-2 text-sm">
        <Link to="/forgot-password" className="font-medium text-brand-700 hover:underline">
          {t('auth.login.forgot')}
        </Link>
        <p className="text-slate-600">
          {t('auth.login.noAccount')}{' '}
          <Link to="/signup" className="font-medium text-brand-700 hover:underline">
            {t('auth.login.signUp')}
          </Link>
        </p>
      </div>
    </AuthCard>
  )
}
