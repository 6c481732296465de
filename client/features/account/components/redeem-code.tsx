import { CheckCircle2, Ticket } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { TextField } from '../../../components/ui/text-field'
import { ApiError } from '../../../lib/api-client'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useAccess, useRedeemCode } from '../../access/api'

/** 'Redeem an access code' on My Account, and what the current code gives. */
export function RedeemCode() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const access = useAccess()
  const redeem = useRedeemCode()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const hasActiveCode = access.data?.flow.kind === 'code' && access.data.flow.status === 'ACTIVE'

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!code.trim()) {
      setError(text('access.codeRequired'))
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      await redeem(code)
      setCode('')
      notify('success', t('account.code.redeemed'))
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : t('common.networkError'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <h2 className="flex items-center gap-2 border-b border-slate-100 px-5 py-4 text-lg font-semibold text-brand-900">
        <Ticket aria-hidden className="size-5 text-brand-600" />
        {t('account.code.title')}
      </h2>
      <div className="flex flex-col gap-3 px-5 py-4">
        {hasActiveCode && (
          <p className="flex items-center gap-2 text-emerald-800" data-testid="code-active">
            <CheckCircle2 aria-hidden className="size-5" />
            {t('account.code.active')}
          </p>
        )}
        <form noValidate onSubmit={handleSubmit} className="flex flex-wrap items-start gap-3">
          <TextField
            label={t('account.code.label')}
            value={code}
            autoComplete="off"
            autoCapitalize="characters"
            placeholder="HZ-XXXX-XXXX"
            error={error}
            onChange={(event) => setCode(event.target.value)}
            className="min-w-56 flex-1"
          />
          <Button type="submit" loading={busy} className="mt-6">
            {t('account.code.submit')}
          </Button>
        </form>
      </div>
    </div>
  )
}
