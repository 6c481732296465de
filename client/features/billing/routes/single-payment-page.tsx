import { zodResolver } from '@hookform/resolvers/zod'
import CircleCheck from 'lucide-react/icons/circle-check'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { z } from 'zod/mini'
import { payOnceRequestSchema } from '../../../../domain/billing'
import { ourZodMessages } from '../../../../domain/messages'
import { Button } from '../../../components/ui/button'
import { FormAlert } from '../../../components/ui/form-alert'
import { TextField } from '../../../components/ui/text-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useMessageText } from '../../../lib/messages'
import { type ProviderCard, useBillingAccount, usePayments, usePayOnce, usePrices } from '../api'
import { useBankCheck } from '../components/bank-check'
import {
  CardFields,
  cardFieldsShape,
  cardOf,
  EMPTY_CARD,
  isCardComplete,
} from '../components/card-fields'
import { SandboxNotice } from '../components/sandbox-notice'
import { usePlanName } from '../use-plan-name'
import { preselected } from '../use-priced-plan-action'

// Stripe.js comes with this chunk, fetched only in Stripe mode.
const StripeCardField = lazy(() => import('../components/stripe-card-field'))

const planShape = {
  priceId: payOnceRequestSchema.shape.priceId,
  receiptEmail: z.union([z.literal(''), payOnceRequestSchema.shape.receiptEmail]),
}
const sandboxSchema = z.object({ ...planShape, ...cardFieldsShape })
// Stripe's frame holds the card and checks it itself; our own card fields stay empty.
const stripeSchema = z.object({
  ...planShape,
  number: z.string(),
  expiry: z.string(),
  cvc: z.string(),
})

/**
 * /my-account/single-payment: the ONE PAYMENT plan, the optional invoice copy, the card and
 * Pay now; then the payment's progress until the bank has answered (spec core §4 pay flow).
 */
export function SinglePaymentPage() {
  const { t } = useTranslation()
  const account = useBillingAccount()
  // Which card field to show (ours or Stripe's) is known once the account has loaded.
  if (!account.data) {
    return (
      <section className="mx-auto flex w-full max-w-lg flex-col gap-4 px-4 py-6">
        <h1 className="text-2xl font-semibold text-brand-900">{t('billing.pay.heading')}</h1>
        <p className="text-sm text-slate-500">{t('billing.pay.loading')}</p>
      </section>
    )
  }
  return <PayForm sandbox={account.data.sandbox} publishableKey={account.data.publishableKey} />
}

function PayForm({ sandbox, publishableKey }: { sandbox: boolean; publishableKey: string | null }) {
  const { t } = useTranslation()
  const planName = usePlanName()
  const format = useFormat()
  const text = useMessageText()
  const prices = usePrices()
  const payments = usePayments()
  const onePayment = (prices.data?.prices ?? []).filter((price) => price.plan === 'one_payment')
  const [providerCard, setProviderCard] = useState<ProviderCard | null>(null)
  const bankCheck = useBankCheck()
  const form = useForm({
    resolver: zodResolver(publishableKey ? stripeSchema : sandboxSchema, ourZodMessages),
    defaultValues: { priceId: '', receiptEmail: '', ...EMPTY_CARD },
  })
  const { errors } = form.formState
  const { submit, pending } = useFormMutation(form, usePayOnce(), { messagesAt: 'form' })
  // The price clicked on My Account, or the only one on sale, is already chosen.
  const [search] = useSearchParams()
  const initial = preselected(onePayment, search.get('price'))
  useEffect(() => {
    if (initial && !form.getValues('priceId')) form.setValue('priceId', initial)
  }, [initial, form])
  // One id per try: a repeated request of the same try (a retry, a double submit) charges once.
  const attempt = useRef(crypto.randomUUID())
  // The payment whose progress is shown: before any Pay now here, the newest (one still with
  // the bank when the page opens); after one, only the payment that try made (`null` until it
  // has made one). An older payment's refusal is not the answer to a new try, so it never
  // speaks for it, not even while the bank's check of the new one is open.
  const [followedId, setFollowedId] = useState<string | null | undefined>(undefined)
  const followed =
    followedId === undefined
      ? payments.data?.[0]
      : payments.data?.find((payment) => payment.id === followedId)
  const paid = payments.data?.some((payment) => payment.status === 'succeeded') ?? false
  const inProgress = followed?.status === 'processing'
  // Refused at once (the answer to Pay now) or later (the bank's answer to the payment).
  const failure = errors.root?.server?.message ?? followed?.failure ?? null
  const cardComplete = publishableKey ? providerCard !== null : isCardComplete(form.watch())

  const handlePay = form.handleSubmit(({ priceId, receiptEmail, ...card }) => {
    // A new try: what the last one came to no longer holds (handleSubmit already cleared its
    // message on the form).
    setFollowedId(null)
    return submit(
      {
        priceId,
        ...(providerCard ? { providerCard } : { card: cardOf(card), checkWithBank: bankCheck.ask }),
        attemptId: attempt.current,
        ...(receiptEmail ? { receiptEmail } : {}),
      },
      {
        onSuccess: ({ payment }) => {
          setFollowedId(payment.id)
          attempt.current = crypto.randomUUID()
        },
        onError: () => {
          // A refused try is over: the next one is a new attempt.
          attempt.current = crypto.randomUUID()
          return false
        },
      },
    )
  })

  return (
    <section className="mx-auto flex w-full max-w-lg flex-col gap-4 px-4 py-6">
      <h1 className="text-2xl font-semibold text-brand-900">{t('billing.pay.heading')}</h1>
      <SandboxNotice sandbox={sandbox} />
      {inProgress && (
        <p
          role="status"
          data-testid="payment-status"
          className="flex items-center gap-2 rounded-lg bg-brand-50 px-3 py-2 font-medium text-brand-900 ring-1 ring-brand-100"
        >
          <LoaderCircle aria-hidden className="size-5 animate-spin text-brand-600" />
          {t('billing.pay.inProgress')}
        </p>
      )}
      {paid ? (
        <div
          role="status"
          data-testid="payment-paid"
          className="flex flex-col items-start gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
        >
          <p className="flex items-center gap-2 text-lg font-semibold text-emerald-800">
            <CircleCheck aria-hidden className="size-6" />
            {t('billing.pay.paid')}
          </p>
          <Link
            to="/home"
            className="rounded-lg bg-brand-600 px-4 py-2.5 font-medium text-white shadow hover:bg-brand-700"
          >
            {t('billing.pay.toPanels')}
          </Link>
        </div>
      ) : (
        <form
          noValidate
          onSubmit={handlePay}
          className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
        >
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-slate-700">
              {t('billing.pay.plan')}
            </legend>
            {prices.isPending && (
              <p className="text-sm text-slate-500">{t('billing.pay.loading')}</p>
            )}
            {onePayment.map((price) => (
              <label
                key={price.id}
                className="flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 ring-1 ring-slate-200 has-checked:bg-brand-50 has-checked:ring-brand-400"
              >
                <input type="radio" value={price.id} {...form.register('priceId')} />
                <span className="flex-1 font-medium text-slate-900">{planName(price.label)}</span>
                <span className="font-semibold text-brand-900">
                  {format.money(price.unitAmount)}
                </span>
              </label>
            ))}
            {errors.priceId && (
              <p role="alert" className="text-sm text-red-700">
                {text(errors.priceId.message)}
              </p>
            )}
          </fieldset>
          <TextField
            label={t('billing.pay.receiptEmail')}
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder={t('billing.pay.receiptPlaceholder')}
            error={text(errors.receiptEmail?.message)}
            {...form.register('receiptEmail')}
          />
          {publishableKey ? (
            <Suspense
              fallback={<p className="text-sm text-slate-500">{t('billing.card.loading')}</p>}
            >
              <StripeCardField publishableKey={publishableKey} onChange={setProviderCard} />
            </Suspense>
          ) : (
            <CardFields register={form.register} errors={errors} />
          )}
          {failure && <FormAlert message={t('billing.pay.failed', { message: failure })} />}
          {bankCheck.dialog}
          <Button
            type="submit"
            loading={pending}
            disabled={!cardComplete || inProgress || paid}
            className="w-full"
          >
            {t('billing.pay.payNow')}
          </Button>
        </form>
      )}
    </section>
  )
}
