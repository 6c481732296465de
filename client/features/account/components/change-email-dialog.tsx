import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { emailChangeConfirmSchema, emailChangeRequestSchema } from '../../../../domain/account'
import { emailSchema } from '../../../../domain/auth'
import { ourZodMessages } from '../../../../domain/messages'
import { textSchema } from '../../../../domain/text'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useConfirmEmailChange, useRequestEmailChange } from '../api'

// Spec core §5: a blank address says 'Please enter your email address' before the shared rule
// ('Please, enter a valid email') looks at it.
const addressSchema = z.extend(emailChangeRequestSchema, {
  newEmail: z.pipe(
    textSchema({ error: 'validation.emailRequired' }).check(
      z.trim(),
      z.minLength(1, { error: 'validation.emailRequired', abort: true }),
    ),
    emailSchema,
  ),
})

/** Two steps: the new address gets a code; the change happens when the code comes back. */
export function ChangeEmailDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  // Set once the code is on its way; the dialog content (and so both forms) start afresh on
  // every opening.
  const [newEmail, setNewEmail] = useState<string | null>(null)
  const handleOpenChange = (next: boolean) => {
    if (!next) setNewEmail(null)
    onOpenChange(next)
  }
  return (
    <Dialog
      open={open}
      onOpenChange={handleOpenChange}
      title={t('account.email.title')}
      description={
        newEmail === null
          ? t('account.email.intro')
          : t('account.email.codeSent', { email: newEmail })
      }
    >
      {newEmail === null ? (
        <AddressStep onSent={setNewEmail} onCancel={() => handleOpenChange(false)} />
      ) : (
        <CodeStep
          newEmail={newEmail}
          onBack={() => setNewEmail(null)}
          onDone={() => handleOpenChange(false)}
        />
      )}
    </Dialog>
  )
}

function AddressStep({
  onSent,
  onCancel,
}: {
  onSent: (newEmail: string) => void
  onCancel: () => void
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  const form = useForm({
    resolver: zodResolver(addressSchema, ourZodMessages),
    defaultValues: { newEmail: '' },
  })
  // One field: what the server says goes under it.
  const { submit, pending } = useFormMutation(form, useRequestEmailChange(), {
    messagesAt: 'newEmail',
  })
  const handleSendCode = form.handleSubmit((values) =>
    submit(values, { onSuccess: () => onSent(values.newEmail) }),
  )
  return (
    <form noValidate onSubmit={handleSendCode} className="flex flex-col gap-4">
      <TextField
        label={t('account.email.newEmail')}
        type="email"
        autoComplete="email"
        inputMode="email"
        error={text(form.formState.errors.newEmail?.message)}
        {...form.register('newEmail')}
      />
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={pending}>
          {t('account.email.sendCode')}
        </Button>
      </div>
    </form>
  )
}

function CodeStep({
  newEmail,
  onBack,
  onDone,
}: {
  newEmail: string
  onBack: () => void
  onDone: () => void
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const form = useForm({
    resolver: zodResolver(emailChangeConfirmSchema, ourZodMessages),
    defaultValues: { newEmail, code: '' },
  })
  const { submit, pending } = useFormMutation(form, useConfirmEmailChange(), {
    messagesAt: 'code',
  })
  const handleConfirm = form.handleSubmit((values) =>
    submit(values, {
      onSuccess: () => {
        notify('success', t('account.email.changed'))
        onDone()
      },
    }),
  )
  return (
    <form noValidate onSubmit={handleConfirm} className="flex flex-col gap-4">
      <TextField
        label={t('auth.fields.code')}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        error={text(form.formState.errors.code?.message)}
        {...form.register('code')}
      />
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onBack}>
          {t('common.back')}
        </Button>
        <Button type="submit" loading={pending}>
          {t('account.email.confirm')}
        </Button>
      </div>
    </form>
  )
}
