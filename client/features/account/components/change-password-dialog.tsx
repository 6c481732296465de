import { type FormEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { newPasswordSchema } from '../../../../domain/account'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { PasswordField } from '../../../components/ui/password-field'
import { ApiError } from '../../../lib/api-client'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { changePassword } from '../api'

/** Spec core §4: the mismatch message goes away after 10 s. */
const MISMATCH_VISIBLE_MS = 10_000

export function ChangePasswordDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const [currentPassword, setCurrentPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    if (!mismatch) return
    const timer = setTimeout(() => setMismatch(false), MISMATCH_VISIBLE_MS)
    return () => clearTimeout(timer)
  }, [mismatch])

  const reset = () => {
    setCurrentPassword('')
    setNewPassword('')
    setConfirmation('')
    setMismatch(false)
    setError(null)
  }

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    if (newPassword !== confirmation) {
      setMismatch(true)
      return
    }
    if (!newPasswordSchema.safeParse(newPassword).success) {
      setError(text('validation.passwordPolicy'))
      return
    }
    setSaving(true)
    try {
      await changePassword({ currentPassword, newPassword })
      notify('success', t('account.password.changed'))
      reset()
      onOpenChange(false)
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : t('common.networkError'))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset()
        onOpenChange(next)
      }}
      title={t('account.password.title')}
    >
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
        <PasswordField
          label={t('account.password.current')}
          autoComplete="current-password"
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <PasswordField
          label={t('account.password.new')}
          autoComplete="new-password"
          hint={text('validation.passwordPolicy')}
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <PasswordField
          label={t('account.password.confirm')}
          autoComplete="new-password"
          value={confirmation}
          error={mismatch ? text('validation.verificationPasswordMismatch') : undefined}
          onChange={(event) => setConfirmation(event.target.value)}
        />
        {error && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <div className="mt-2 flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            loading={saving}
            disabled={!currentPassword || !newPassword || !confirmation}
          >
            {t('account.password.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
