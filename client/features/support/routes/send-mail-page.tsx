import { zodResolver } from '@hookform/resolvers/zod'
import Send from 'lucide-react/icons/send'
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { z } from 'zod/mini'
import { ourZodMessages } from '../../../../domain/messages'
import {
  isSupportMailFilled,
  SUPPORT_BODY_MAX,
  supportMailRequestSchema,
} from '../../../../domain/support'
import { Button } from '../../../components/ui/button'
import { TextAreaField } from '../../../components/ui/text-area-field'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useSession } from '../../../lib/session'
import { useSendSupportMail } from '../api'

type SupportMailValues = z.input<typeof supportMailRequestSchema>

/** /send-mail: subject and message to the support team (spec scans §2 Send mail, §5). */
export function SendMailPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const navigate = useNavigate()
  const { user } = useSession()
  const fillHintId = useId()
  const form = useForm<SupportMailValues, unknown, z.output<typeof supportMailRequestSchema>>({
    resolver: zodResolver(supportMailRequestSchema, ourZodMessages),
    defaultValues: { subject: '', body: '' },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useSendSupportMail())
  const filled = isSupportMailFilled(form.watch())

  const handleSend = form.handleSubmit((values) =>
    submit(values, { onSuccess: () => navigate('/mail-sent') }),
  )

  return (
    <section className="mx-auto flex w-full max-w-xl flex-col gap-4 px-4 py-6">
      <form
        noValidate
        onSubmit={handleSend}
        className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      >
        {user && (
          <p className="text-slate-700 [overflow-wrap:anywhere]">
            {t('support.send.intro', { email: user.email })}
          </p>
        )}
        <TextField
          label={t('support.send.subject')}
          autoComplete="off"
          error={text(errors.subject?.message)}
          {...form.register('subject')}
        />
        <TextAreaField
          label={t('support.send.body')}
          rows={8}
          hint={t('support.send.bodyHint', { max: SUPPORT_BODY_MAX })}
          error={text(errors.body?.message)}
          {...form.register('body')}
        />
        <div className="flex flex-col items-stretch gap-2 sm:flex-row sm:items-center sm:justify-end">
          {!filled && (
            <p id={fillHintId} className="text-sm text-slate-500 sm:mr-auto">
              {t('support.send.fillBoth')}
            </p>
          )}
          <Button
            type="submit"
            loading={pending}
            disabled={!filled}
            aria-describedby={filled ? undefined : fillHintId}
          >
            <Send aria-hidden className="size-4" />
            {t('support.send.submit')}
          </Button>
        </div>
      </form>
    </section>
  )
}
