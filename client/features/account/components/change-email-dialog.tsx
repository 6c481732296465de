import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { emailSchema, otpCodeSchema } from '../../../../domain/account'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { TextField } from '../../../components/ui/text-field'
import { ApiError } from '../../../lib/api-client'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { sessionQueryKey } from '../../../lib/session'
import { confirmEmailChange, requestEmailChange } from '../api'

/** Two steps: the new address gets a code; the change happens when the code comes back. */
export function ChangeEmailDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const queryClient = useQueryClient()
  const [newEmail, setNewEmail] = useState('')
  const [code, setCode] = useState('')
  const [step, setStep] = useState<'address' | 'code'>('address')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const reset = () => {
    setNewEmail('')
    setCode('')
    setStep('address')
    setError(null)
  }

  const run = async (action: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await action()
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : t('common.networkError'))
    } finally {
      setBusy(false)
    }
  }

  const handleSendCode = (event: FormEvent) => {
    event.preventDefault()
    if (!newEmail.trim()) {
      setError(text('validation.emailRequired'))
      return
    }
    const parsed = emailSchema.safeParse(newEmail)
    if (!parsed.success) {
      setError(text('validation.email'))
      return
    }
    void run(async () => {
      await requestEmailChange({ newEmail: parsed.data })
      setNewEmail(parsed.data)
      setStep('code')
    })
  }

  const handleConfirm = (event: FormEvent) => {
    event.preventDefault()
    if (!otpCodeSchema.safeParse(code).success) {
      setError(text('validation.code'))
      return
    }
    void run(async () => {
      await confirmEmailChange({ newEmail, code: code.trim() })
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey })
      notify('success', t('account.email.changed'))
      reset()
      onOpenChange(false)
    })
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset()
        onOpenChange(next)
      }}
      title={t('account.email.title')}
      description={
        step === 'address'
          ? t('account.email.intro')
          : t('account.email.codeSent', { email: newEmail })
      }
    >
      {step === 'address' ? (
        <form noValidate onSubmit={handleSendCode} className="flex flex-col gap-4">
          <TextField
            label={t('account.email.newEmail')}
            type="email"
            autoComplete="email"
            inputMode="email"
            value={newEmail}
            error={error ?? undefined}
            onChange={(event) => setNewEmail(event.target.value)}
          />
          <div className="mt-2 flex justify-end gap-2">
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('account.email.sendCode')}
            </Button>
          </div>
        </form>
      ) : (
        <form noValidate onSubmit={handleConfirm} className="flex flex-col gap-4">
          <TextField
            label={t('auth.fields.code')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            value={code}
            error={error ?? undefined}
            onChange={(event) => setCode(event.target.value)}
          />
          <div className="mt-2 flex justify-end gap-2">
            <Button variant="ghost" onClick={() => setStep('address')}>
              {t('common.back')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('account.email.confirm')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  )
}
