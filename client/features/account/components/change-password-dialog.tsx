import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { changePasswordRequestSchema } from '../../../../domain/account'
import { ourZodMessages } from '../../../../domain/messages'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { FormAlert } from '../../../components/ui/form-alert'
import { PasswordField } from '../../../components/ui/password-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useChangePassword } from '../api'

/** Spec core §4: the mismatch message goes away after 10 s. */
const MISMATCH_VISIBLE_MS = 10_000

const formSchema = z.extend(changePasswordRequestSchema, { confirmation: z.string() }).check(
  z.refine((values) => values.newPassword === values.confirmation, {
    error: 'validation.verificationPasswordMismatch',
    path: ['confirmation'],
  }),
)

export function ChangePasswordDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('account.password.title')}>
      {/* Inside the dialog's content, so every opening starts from an empty form. */}
      <ChangePasswordForm onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const form = useForm({
    resolver: zodResolver(formSchema, ourZodMessages),
    defaultValues: { currentPassword: '', newPassword: '', confirmation: '' },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useChangePassword(), { messagesAt: 'form' })
  const allFilled = Object.values(form.watch()).every((value) => value !== '')

  // Each refused try shows the mismatch anew for its 10 s.
  const mismatch = errors.confirmation
  useEffect(() => {
    if (!mismatch) return
    const timer = setTimeout(() => form.clearErrors('confirmation'), MISMATCH_VISIBLE_MS)
    return () => clearTimeout(timer)
  }, [mismatch, form])

  const handleChange = form.handleSubmit(({ currentPassword, newPassword }) =>
    submit(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          notify('success', t('account.password.changed'))
          onDone()
        },
      },
    ),
  )

  return (
    <form noValidate onSubmit={handleChange} className="flex flex-col gap-4">
      <PasswordField
        label={t('account.password.current')}
        autoComplete="current-password"
        error={text(errors.currentPassword?.message)}
        {...form.register('currentPassword')}
      />
      <PasswordField
        label={t('account.password.new')}
        autoComplete="new-password"
        hint={text('validation.passwordPolicy')}
        error={errors.newPassword ? text('validation.passwordPolicy') : undefined}
        {...form.register('newPassword')}
      />
      <PasswordField
        label={t('account.password.confirm')}
        autoComplete="new-password"
        error={text(errors.confirmation?.message)}
        {...form.register('confirmation')}
      />
      <FormAlert message={errors.root?.server?.message} />
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={pending} disabled={!allFilled}>
          {t('account.password.submit')}
        </Button>
      </div>
    </form>
  )
}
