import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { emailSchema } from '../../../../domain/account'
import { HumanCheck } from '../../../components/human-check'
import { Button } from '../../../components/ui/button'
import { TextField } from '../../../components/ui/text-field'
import { ApiError } from '../../../lib/api-client'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useHumanCheck } from '../use-human-check'

const formSchema = z.object({ email: emailSchema })

/**
 * E-mail plus human check, then 'Send Code': the shared form of "send a new confirmation code"
 * and "forgot password". `onSent` receives the normalised address.
 */
export function EmailCodeRequest({
  send,
  onSent,
  initialEmail = '',
}: {
  send: (body: { email: string; humanCheck: string }) => Promise<unknown>
  onSent: (email: string) => void
  initialEmail?: string
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const humanCheck = useHumanCheck()
  const [submitting, setSubmitting] = useState(false)
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ email: string }>({
    resolver: zodResolver(formSchema),
    defaultValues: { email: initialEmail },
  })

  const handleSend = async ({ email }: { email: string }) => {
    if (!humanCheck.payload) {
      notify('error', text('validation.humanCheck'))
      return
    }
    setSubmitting(true)
    try {
      await send({ email, humanCheck: humanCheck.payload })
      onSent(email)
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : t('common.networkError'))
      humanCheck.renew()
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit(handleSend)} className="flex flex-col gap-4">
      <TextField
        label={t('auth.fields.email')}
        type="email"
        autoComplete="email"
        inputMode="email"
        error={text(errors.email?.message)}
        {...register('email')}
      />
      <HumanCheck key={humanCheck.key} onChange={humanCheck.onChange} />
      <Button type="submit" loading={submitting} className="w-full">
        {t('auth.sendCode')}
      </Button>
    </form>
  )
}
