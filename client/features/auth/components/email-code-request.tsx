import { zodResolver } from '@hookform/resolvers/zod'
import type { UseMutationResult } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { emailWithHumanCheckSchema } from '../../../../domain/auth'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useHumanCheck } from '../use-human-check'
import { AuthForm, EmailField } from './auth-form'

const formSchema = z.omit(emailWithHumanCheckSchema, { humanCheck: true })

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
  const form = useForm({ resolver: zodResolver(formSchema), defaultValues: { email: '' } })
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
