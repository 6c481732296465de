import { zodResolver } from '@hookform/resolvers/zod'
import type { UseMutationResult } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { emailWithHumanCheckSchema } from '../../../../domain/auth'
import { HumanCheck } from '../../../components/human-check'
import { Button } from '../../../components/ui/button'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useHumanCheck } from '../use-human-check'

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
    <form noValidate onSubmit={handleSend} className="flex flex-col gap-4">
      <TextField
        label={t('auth.fields.email')}
        type="email"
        autoComplete="email"
        inputMode="email"
        error={text(errors.email?.message)}
        {...form.register('email')}
      />
      <HumanCheck key={humanCheck.key} onChange={humanCheck.onChange} />
      <Button type="submit" loading={pending} className="w-full">
        {t('auth.sendCode')}
      </Button>
    </form>
  )
}
