import type { UseMutationResult } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod/mini'
import type { emailWithHumanCheckSchema } from '../../../../domain/auth'
import { useFormMutation } from '../../../lib/form-mutation'
import { lazyResolver } from '../../../lib/lazy-resolver'
import { useMessageText } from '../../../lib/messages'
import type { emailCodeFormResolver } from '../form-validation'
import { useHumanCheck } from '../use-human-check'
import { AuthForm, EmailField } from './auth-form'

// As on the sign-in page, the validation (the schemas and zod) loads once the form is shown: this
// form is shared with the sign-in page's card, which must not bring zod to its first render.
const resolver = lazyResolver<typeof emailCodeFormResolver>(() =>
  import('../form-validation').then((module) => module.emailCodeFormResolver),
)

/**
 * E-mail plus human check, then 'Send Code': the shared form of "send a new confirmation code"
 * and "forgot password". `onSent` receives the normalised address.
 */
export function EmailCodeRequest({
  mutation,
  onSent,
}: {
  mutation: UseMutationResult<unknown, Error, z.input<typeof emailWithHumanCheckSchema>>
  onSent: (email: string) => void
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  const humanCheck = useHumanCheck()
  useEffect(resolver.preload, [])
  const form = useForm({ resolver, defaultValues: { email: '' } })
  const { errors } = form.formState
  const { submit, pending, showMessage } = useFormMutation(form, mutation)

  const handleSend = form.handleSubmit(async ({ email }) => {
    if (!humanCheck.payload) return showMessage(text('validation.humanCheck'))
    await submit(
      { email, humanCheck: humanCheck.payload },
      {
        onSuccess: () => onSent(email),
        onError: () => {
          humanCheck.renew()
          return false
        },
      },
    )
  })

  return (
    <AuthForm
      onSubmit={handleSend}
      pending={pending}
      submitLabel={t('auth.sendCode')}
      humanCheck={humanCheck}
    >
      <EmailField error={text(errors.email?.message)} {...form.register('email')} />
    </AuthForm>
  )
}
