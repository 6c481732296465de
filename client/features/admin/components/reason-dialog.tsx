import { zodResolver } from '@hookform/resolvers/zod'
import type { UseMutationResult } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { memberActionSchema } from '../../../../domain/members'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { FormAlert } from '../../../components/ui/form-alert'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useNotifications } from '../../../lib/notifications'
import { useConsoleMessageText } from '../messages'

interface ReasonDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  /** What will happen, said before it does. */
  effect: string
  submitLabel: string
  /** Said once it is done. */
  done: string
  send: UseMutationResult<unknown, Error, { reason: string }>
}

/** An action on a member that asks why (the audit log keeps it) and says what it will do. */
export function ReasonDialog({ open, onOpenChange, title, ...form }: ReasonDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title}>
      <ReasonForm {...form} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}

function ReasonForm({
  effect,
  submitLabel,
  done,
  send,
  onDone,
}: Omit<ReasonDialogProps, 'open' | 'onOpenChange' | 'title'> & { onDone: () => void }) {
  const { t } = useTranslation()
  const text = useConsoleMessageText()
  const { notify } = useNotifications()
  const form = useForm({ resolver: zodResolver(memberActionSchema), defaultValues: { reason: '' } })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, send, { messagesAt: 'form' })
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) =>
        submit(values, {
          onSuccess: () => {
            notify('success', done)
            onDone()
          },
        }),
      )}
      className="flex flex-col gap-4"
    >
      <TextField
        label={t('admin.complimentary.reason')}
        hint={t('admin.complimentary.reasonHint')}
        maxLength={500}
        error={text(errors.reason?.message)}
        {...form.register('reason')}
      />
      <p
        className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
        data-testid="action-effect"
      >
        {effect}
      </p>
      <FormAlert message={errors.root?.server?.message} />
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  )
}
