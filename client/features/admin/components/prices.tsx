import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { PLANS, type Price } from '../../../../domain/billing'
import { Button } from '../../../components/ui/button'
import { FormAlert } from '../../../components/ui/form-alert'
import { SectionCard } from '../../../components/ui/section-card'
import { SelectField } from '../../../components/ui/select-field'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useNotifications } from '../../../lib/notifications'
import { pricesQuery, useArchivePrice, useCreatePrice } from '../api'
import { ConfirmDialog } from './confirm-dialog'
import { ListState } from './list-state'

/** The form as typed: the amount in dollars ("49" or "49.50"); the server checks the rest. */
const priceFormSchema = z.object({
  nickname: z.string(),
  plan: z.enum(PLANS),
  amount: z.string().check(z.regex(/^\s*\d{1,6}([.,]\d{1,2})?\s*$/)),
})

const cents = (amount: string) => Math.round(Number(amount.trim().replace(',', '.')) * 100)

/** The prices: put one on sale, take one off; the amount of a price never changes. */
export function Prices() {
  const { t } = useTranslation()
  const format = useFormat()
  const prices = useQuery(pricesQuery)
  const [archiving, setArchiving] = useState<Price | null>(null)
  const list = prices.data?.prices ?? []
  return (
    <>
      <SectionCard title={t('admin.prices.createTitle')}>
        <div className="px-5 py-4">
          <CreatePrice />
        </div>
      </SectionCard>
      <SectionCard title={t('admin.prices.title')}>
        <div className="flex flex-col gap-3 px-5 py-4">
          <ListState query={prices}>
            {() => (
              <ul className="divide-y divide-slate-100" data-testid="prices">
                {list.map((price) => (
                  <li key={price.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                    <span className="min-w-0 flex-1 font-medium text-slate-900 [overflow-wrap:anywhere]">
                      {price.label}
                    </span>
                    <span className="text-slate-700">{t(`admin.plans.${price.plan}`)}</span>
                    <span className="text-slate-900 tabular-nums">
                      {format.money(price.unitAmount)}
                    </span>
                    <span className="text-sm text-slate-600">
                      {price.active ? t('admin.prices.onSale') : t('admin.prices.archived')}
                    </span>
                    {price.active && (
                      <Button variant="secondary" onClick={() => setArchiving(price)}>
                        {t('admin.prices.archive')}
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </ListState>
        </div>
      </SectionCard>
      <ConfirmDialog
        open={archiving !== null}
        onClose={() => setArchiving(null)}
        title={t('admin.prices.archiveTitle')}
        effect={t('admin.prices.archiveEffect', { label: archiving?.label ?? '' })}
        submitLabel={t('admin.prices.archiveSubmit')}
        done={t('admin.prices.archivedDone')}
        action={useArchivePrice()}
        variables={archiving?.id ?? ''}
      />
    </>
  )
}

function CreatePrice() {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const form = useForm({
    resolver: zodResolver(priceFormSchema),
    defaultValues: { nickname: '', plan: 'subscription' as const, amount: '' },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, useCreatePrice(), { messagesAt: 'form' })
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ nickname, plan, amount }) =>
        submit(
          { nickname: nickname.trim(), plan, unitAmount: cents(amount) },
          {
            onSuccess: ({ price }) => {
              notify('success', t('admin.prices.created', { label: price.label }))
              form.reset()
            },
          },
        ),
      )}
      className="grid items-start gap-3 sm:grid-cols-3"
    >
      <TextField
        label={t('admin.prices.nickname')}
        hint={t('admin.prices.nicknameHint')}
        maxLength={60}
        error={errors.nickname?.message}
        {...form.register('nickname')}
      />
      <SelectField
        label={t('admin.prices.plan')}
        options={PLANS.map((plan) => ({ value: plan, label: t(`admin.plans.${plan}`) }))}
        {...form.register('plan')}
      />
      <TextField
        label={t('admin.prices.amount')}
        hint={t('admin.prices.amountHint')}
        inputMode="decimal"
        error={errors.amount ? t('admin.prices.amountFormat') : undefined}
        {...form.register('amount')}
      />
      <FormAlert message={errors.root?.server?.message} />
      <Button type="submit" loading={pending} className="sm:col-start-3">
        {t('admin.prices.create')}
      </Button>
    </form>
  )
}
