import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { LOGIN_PATH } from '../../../../domain/routes'
import { PasswordField } from '../../../components/ui/password-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { lazyResolver } from '../../../lib/lazy-resolver'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useHydrated } from '../../../lib/prerendered'
import { signedInLanding } from '../../../lib/session'
import { isUnconfirmedAccount, useSignIn } from '../api'
import { AuthCard } from '../components/auth-card'
import { AuthForm, EmailField } from '../components/auth-form'
import { LegalLinks } from '../components/legal-links'
import type { signInFormResolver } from '../form-validation'
import { hasSignedInHere, rememberSignedInHere } from '../returning'
import { useHumanCheck } from '../use-human-check'

// The form is on screen before its validation's code arrives: it loads once the page is shown.
const resolver = lazyResolver<typeof signInFormResolver>(() =>
  import('../form-validation').then((module) => module.signInFormResolver),
)

export function LoginPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const navigate = useNavigate()
  const state = useLocation().state as { email?: string; from?: string } | null
  const humanCheck = useHumanCheck()
  useEffect(resolver.preload, [])
  // 'Welcome back' only to someone who signed in on this device before; the page's HTML, made
  // for anyone, greets a new visitor.
  const hydrated = useHydrated()
  const returning = hydrated && hasSignedInHere()
  const form = useForm({
    resolver,
    defaultValues: { email: state?.email ?? '', password: '', rememberMe: false },
  })
  const { errors } = form.formState
  const { submit, pending, showMessage } = useFormMutation(form, useSignIn())

  const handleSignIn = form.handleSubmit(async (values) => {
    if (!humanCheck.payload) return showMessage(text('validation.humanCheck'))
    await submit(
      { ...values, humanCheck: humanCheck.payload },
      {
        onSuccess: (session) => {
          rememberSignedInHere()
          const from = state?.from
          navigate(from && from !== LOGIN_PATH ? from : signedInLanding(session), { replace: true })
        },
        onError: (error) => {
          // A human-check solution works once; the widget asks again for the next try.
          humanCheck.renew()
          if (!isUnconfirmedAccount(error)) return false
          // Not a failure: the account waits for its code. The server's words say whether a new
          // one is on its way; the code page takes it, with the address already filled in.
          notify('info', error.message)
          navigate('/signup-confirm', { state: { email: values.email } })
          return true
        },
      },
    )
  })

  return (
    <AuthCard
      title={t(returning ? 'auth.login.heading' : 'auth.login.headingNew')}
      intro={
        <>
          <p className="font-medium text-slate-700" data-testid="what-harmonize-is">
            {t('auth.login.about')}
          </p>
          <p className="mt-1">{t('auth.login.intro')}</p>
        </>
      }
    >
      <AuthForm
        onSubmit={(event) =>
          // The validation's code could not arrive (offline, a new version deployed meanwhile).
          handleSignIn(event).catch(() => showMessage(t('common.networkError')))
        }
        // From the click: the validation's code may still be arriving (lazyResolver).
        pending={pending || form.formState.isSubmitting}
        submitLabel={t('auth.login.submit')}
        humanCheck={humanCheck}
      >
        <EmailField error={text(errors.email?.message)} {...form.register('email')} />
        <PasswordField
          label={t('auth.fields.password')}
          autoComplete="current-password"
          error={text(errors.password?.message)}
          {...form.register('password')}
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4 accent-brand-600"
            {...form.register('rememberMe')}
          />
          {t('auth.login.rememberMe')}
        </label>
      </AuthForm>
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
      <LegalLinks />
    </AuthCard>
  )
}
