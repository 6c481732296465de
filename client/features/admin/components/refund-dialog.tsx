import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { type MemberDetail, refundSchema } from '../../../../domain/members'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { FormAlert } from '../../../components/ui/form-alert'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useNotifications } from '../../../lib/notifications'
import { useRefund } from '../api'
import { useConsoleMessageText } from '../messages'

type MemberInvoice = MemberDetail['invoices'][number]

/** What is left to give back on an invoice, in cents. */
export const refundableOf = (invoice: MemberInvoice) =>
  invoice.status === 'paid' ? Math.max(0, invoice.amountPaid - invoice.refunded) : 0

/** The amount as typed, in dollars ("15", "7.50" or "7,50"), to cents; NaN when it is not one. */
const centsOf = (typed: string) =>
  /^\s*\d{1,6}([.,]\d{1,2})?\s*$/.test(typed)
    ? Math.round(Number(typed.trim().replace(',', '.')) * 100)
    : Number.NaN

/** Dollars as the field shows them to start with: "15.00". */
const dollarsOf = (cents: number) => (cents / 100).toFixed(2)

/** The form as typed: the amount in dollars, checked against what is left to give back. */
const refundFormSchema = (left: number) =>
  z.object({
    amount: z.string().check(
      z.refine((typed) => centsOf(typed) >= 1 && centsOf(typed) <= left, {
        error: 'members.refundAmount',
      }),
    ),
    reason: refundSchema.shape.reason,
  })

interface RefundDialogProps {
  member: MemberDetail
  invoice: MemberInvoice | null
  onClose: () => void
}

/** Refund: how much of the invoice goes back to the card, why, and what will (not) change. */
export function RefundDialog({ member, invoice, onClose }: RefundDialogProps) {
  const { t } = useTranslation()
  return (
    <Dialog
      open={invoice !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('admin.refund.title', { number: invoice?.number ?? '' })}
    >
      {invoice && <RefundForm member={member} invoice={invoice} onDone={onClose} />}
    </Dialog>
  )
}

function RefundForm({
  member,
  invoice,
  onDone,
}: {
  member: MemberDetail
  invoice: MemberInvoice
  onDone: () => void
}) {
  const { t } = useTranslation()
  const format = useFormat()
  const text = useConsoleMessageText()
  const { notify } = useNotifications()
  const left = refundableOf(invoice)
  const form = useForm({
    resolver: zodResolver(refundFormSchema(left)),
    defaultValues: { amount: dollarsOf(left), reason: '' },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useRefund(member.account.id), {
    messagesAt: 'form',
  })
  // One key per refund meant: sent again after a time-out (or clicked twice) it gives back once;
  // another amount is another refund, so it has a key of its own.
  const [series] = useState(() => crypto.randomUUID())
  const typed = centsOf(form.watch('amount'))
  const amount = Number.isNaN(typed) ? null : typed
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ amount: dollars, reason }) => {
        const cents = centsOf(dollars)
        return submit(
          { invoiceId: invoice.id, amount: cents, reason, requestKey: `${series}-${cents}` },
          {
            onSuccess: () => {
              notify('success', t('admin.refund.done', { amount: format.money(cents) }))
              onDone()
            },
          },
        )
      })}
      className="flex flex-col gap-4"
    >
      <p className="text-sm text-slate-700" data-testid="refund-paid">
        {invoice.refunded > 0
          ? t('admin.refund.paidAndRefunded', {
              paid: format.money(invoice.amountPaid),
              refunded: format.money(invoice.refunded),
              left: format.money(left),
            })
          : t('admin.refund.paid', { paid: format.money(invoice.amountPaid) })}
      </p>
      <TextField
        label={t('admin.refund.amount')}
        hint={t('admin.refund.amountHint', { left: format.money(left) })}
        inputMode="decimal"
        autoComplete="off"
        error={text(errors.amount?.message)}
        {...form.register('amount')}
      />
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
        {t('admin.refund.effect', {
          amount: amount === null ? '—' : format.money(amount),
          email: member.account.email,
        })}
      </p>
      <FormAlert message={errors.root?.server?.message} />
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={pending}>
          {t('admin.refund.submit')}
        </Button>
      </div>
    </form>
  )
}
