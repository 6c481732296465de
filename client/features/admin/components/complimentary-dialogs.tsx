import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { grantComplimentarySchema, type MemberDetail } from '../../../../domain/members'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { FormAlert } from '../../../components/ui/form-alert'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useNotifications } from '../../../lib/notifications'
import { useEndComplimentary, useGrantComplimentary } from '../api'
import { useConsoleMessageText } from '../messages'
import { ReasonDialog } from './reason-dialog'

interface DialogProps {
  member: MemberDetail
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** The form's own: an empty date field is "until ended", not a date in the wrong form. */
const grantFormSchema = z.extend(grantComplimentarySchema, {
  endsOn: z.string().check(z.regex(/^(\d{4}-\d{2}-\d{2})?$/, { error: 'members.endsOnFormat' })),
})

/** Today, UTC: the earliest last day the server takes. */
const today = () => new Date().toISOString().slice(0, 10)

/** "Grant complimentary access": why, until when (or until ended), and what it will do. */
export function GrantComplimentaryDialog({ member, open, onOpenChange }: DialogProps) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('admin.complimentary.grant')}>
      <GrantForm member={member} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}

function GrantForm({ member, onDone }: { member: MemberDetail; onDone: () => void }) {
  const { t } = useTranslation()
  const format = useFormat()
  const text = useConsoleMessageText()
  const { notify } = useNotifications()
  const form = useForm({
    resolver: zodResolver(grantFormSchema),
    defaultValues: { reason: '', endsOn: '' },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useGrantComplimentary(member.account.id), {
    messagesAt: 'form',
  })
  const endsOn = form.watch('endsOn')
  const until = endsOn
    ? t('admin.complimentary.untilDay', {
        date: format.day(`${endsOn}T00:00:00Z`),
      })
    : t('admin.complimentary.untilEnded')
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ reason, endsOn }) =>
        submit(
          { reason, endsOn: endsOn || null },
          {
            onSuccess: () => {
              notify('success', t('admin.complimentary.granted'))
              onDone()
            },
          },
        ),
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
      <TextField
        label={t('admin.complimentary.endsOn')}
        hint={t('admin.complimentary.endsOnHint')}
        type="date"
        min={today()}
        error={text(errors.endsOn?.message)}
        {...form.register('endsOn')}
      />
      <p
        className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900"
        data-testid="grant-effect"
      >
        {t('admin.complimentary.grantEffect', { email: member.account.email, until })}
      </p>
      <FormAlert message={errors.root?.server?.message} />
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={pending}>
          {t('admin.complimentary.grantSubmit')}
        </Button>
      </div>
    </form>
  )
}

/** Ends complimentary access now: why, and what the member keeps. */
export function EndComplimentaryDialog({ member, open, onOpenChange }: DialogProps) {
  const { t } = useTranslation()
  return (
    <ReasonDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('admin.complimentary.end')}
      effect={t('admin.complimentary.endEffect', { email: member.account.email })}
      submitLabel={t('admin.complimentary.endSubmit')}
      done={t('admin.complimentary.ended')}
      send={useEndComplimentary(member.account.id)}
    />
  )
}
