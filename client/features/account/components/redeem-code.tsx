import { zodResolver } from '@hookform/resolvers/zod'
import CheckCircle2 from 'lucide-react/icons/circle-check'
import Ticket from 'lucide-react/icons/ticket'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { redeemCodeRequestSchema } from '../../../../domain/access-codes'
import { ourZodMessages } from '../../../../domain/messages'
import { Button } from '../../../components/ui/button'
import { OfflineNotice } from '../../../components/ui/offline-notice'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useOfflineReason } from '../../../lib/network-status'
import { useNotifications } from '../../../lib/notifications'
import { useAccess } from '../../access/public'
import { useRedeemCode } from '../api'

/**
 * 'Redeem an access code' on My Account while the member has no access; once they have it,
 * only what their code gives (a second code would add nothing).
 */
export function RedeemCode() {
  const { t } = useTranslation()
  const access = useAccess()
  if (access.isPending) return null
  const hasActiveCode = access.data?.flow.kind === 'code' && access.data.flow.status === 'ACTIVE'
  if (access.data?.hasAccess && !hasActiveCode) return null
  return (
    <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <h2 className="flex items-center gap-2 border-b border-slate-100 px-5 py-4 text-lg font-semibold text-brand-900">
        <Ticket aria-hidden className="size-5 text-brand-600" />
        {hasActiveCode ? t('account.code.activeTitle') : t('account.code.title')}
      </h2>
      <div className="flex flex-col gap-3 px-5 py-4">
        {hasActiveCode ? (
          <p className="flex items-center gap-2 text-emerald-800" data-testid="code-active">
            <CheckCircle2 aria-hidden className="size-5 shrink-0" />
            {t('account.code.active')}
          </p>
        ) : (
          <RedeemCodeForm />
        )}
      </div>
    </div>
  )
}

function RedeemCodeForm() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const form = useForm({
    resolver: zodResolver(redeemCodeRequestSchema, ourZodMessages),
    defaultValues: { code: '' },
  })
  // One field: the server's reason (unknown, used, revoked code) goes under it.
  const { submit, pending } = useFormMutation(form, useRedeemCode(), { messagesAt: 'code' })
  const offlineReason = useOfflineReason()
  const handleRedeem = form.handleSubmit((values) =>
    submit(values, { onSuccess: () => notify('success', t('account.code.redeemed')) }),
  )
  return (
    <form noValidate onSubmit={handleRedeem} className="flex flex-wrap items-start gap-3">
      <TextField
        label={t('account.code.label')}
        autoComplete="off"
        autoCapitalize="characters"
        placeholder="HZ-XXXX-XXXX"
        error={text(form.formState.errors.code?.message)}
        className="min-w-0 flex-[1_1_14rem]"
        {...form.register('code')}
      />
      <Button
        type="submit"
        loading={pending}
        disabled={offlineReason !== undefined}
        aria-describedby={offlineReason}
        className="mt-6"
      >
        {t('account.code.submit')}
      </Button>
      {offlineReason !== undefined && (
        <div className="basis-full">
          <OfflineNotice id={offlineReason}>{t('account.offline.code')}</OfflineNotice>
        </div>
      )}
    </form>
  )
}
