import { zodResolver } from '@hookform/resolvers/zod'
import { CreditCard } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { z } from 'zod/mini'
import { CARD_TYPES, isCardExpired, sandboxCardRequestSchema } from '../../../../domain/billing'
import { textSchema } from '../../../../domain/text'
import { Button } from '../../../components/ui/button'
import { FormAlert } from '../../../components/ui/form-alert'
import { SelectField } from '../../../components/ui/select-field'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useAddCard, useBillingAccount } from '../api'
import { SandboxNotice } from '../components/sandbox-notice'

const EXPIRY = /^\s*(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})\s*$/

/** `MM / YY` (or `MM/YYYY`) as month and four-digit year, or null. */
export function parseExpiry(text: string): { expMonth: number; expYear: number } | null {
  const match = EXPIRY.exec(text)
  if (!match) return null
  const year = Number(match[2])
  return { expMonth: Number(match[1]), expYear: year < 100 ? 2000 + year : year }
}

const formSchema = z.object({
  number: sandboxCardRequestSchema.shape.number,
  expiry: textSchema({ error: 'billing.cardExpiryInvalid' }).check(
    z.refine((text) => parseExpiry(text) !== null, { error: 'billing.cardExpiryInvalid' }),
    z.refine(
      (text) => {
        const expiry = parseExpiry(text)
        return !expiry || !isCardExpired(expiry.expMonth, expiry.expYear)
      },
      { error: 'billing.cardExpired' },
    ),
  ),
  cvc: sandboxCardRequestSchema.shape.cvc,
  cardType: z.enum(CARD_TYPES),
})

/** /my-account/add-credit-card: the card field and the card type; a saved card goes back to My Account. */
export function AddCreditCardPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const navigate = useNavigate()
  const { notify } = useNotifications()
  const account = useBillingAccount()
  const form = useForm({
    resolver: zodResolver(formSchema),
    defaultValues: { number: '', expiry: '', cvc: '', cardType: 'credit' as const },
  })
  const { errors } = form.formState
  // The bank's refusal belongs to the card, so it shows in red inside the form (spec core §8).
  const { submit, pending } = useFormMutation(form, useAddCard(), { messagesAt: 'form' })

  const handleSave = form.handleSubmit(({ number, expiry, cvc, cardType }) => {
    const parsed = parseExpiry(expiry)
    if (!parsed) return
    return submit(
      { card: { number, cvc, ...parsed }, cardType },
      {
        onSuccess: () => {
          notify('success', t('billing.card.saved'))
          navigate('/my-account')
        },
      },
    )
  })

  return (
    <section className="mx-auto flex w-full max-w-lg flex-col gap-4 px-4 py-6">
      <h1 className="flex items-center gap-2 text-2xl font-semibold text-brand-900">
        <CreditCard aria-hidden className="size-6 text-brand-600" />
        {t('billing.card.heading')}
      </h1>
      <SandboxNotice sandbox={account.data?.sandbox} />
      {account.data?.sandbox && (
        <p className="text-sm text-slate-600">{t('billing.card.testCards')}</p>
      )}
      <form
        noValidate
        onSubmit={handleSave}
        className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      >
        <SelectField
          label={t('billing.card.type')}
          options={CARD_TYPES.map((type) => ({ value: type, label: t(`billing.card.${type}`) }))}
          {...form.register('cardType')}
        />
        <TextField
          label={t('billing.card.number')}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          error={text(errors.number?.message)}
          {...form.register('number')}
        />
        <div className="grid grid-cols-2 gap-4">
          <TextField
            label={t('billing.card.expiry')}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder={t('billing.card.expiryPlaceholder')}
            error={text(errors.expiry?.message)}
            {...form.register('expiry')}
          />
          <TextField
            label={t('billing.card.cvc')}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            error={text(errors.cvc?.message)}
            {...form.register('cvc')}
          />
        </div>
        <FormAlert message={errors.root?.server?.message} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => navigate('/my-account')}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {t('billing.card.save')}
          </Button>
        </div>
      </form>
    </section>
  )
}
