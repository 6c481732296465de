import { zodResolver } from '@hookform/resolvers/zod'
import CreditCard from 'lucide-react/icons/credit-card'
import { lazy, Suspense, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { z } from 'zod/mini'
import { CARD_TYPES } from '../../../../domain/billing'
import { ourZodMessages } from '../../../../domain/messages'
import { Button } from '../../../components/ui/button'
import { FormAlert } from '../../../components/ui/form-alert'
import { OfflineNotice } from '../../../components/ui/offline-notice'
import { SelectField } from '../../../components/ui/select-field'
import { useFormMutation } from '../../../lib/form-mutation'
import { useFormat } from '../../../lib/format'
import { useOfflineReason } from '../../../lib/network-status'
import { useNotifications } from '../../../lib/notifications'
import { type ProviderCard, useAddCard, useBillingAccount } from '../api'
import { useBankCheck } from '../components/bank-check'
import { CardFields, cardFieldsShape, cardOf, EMPTY_CARD } from '../components/card-fields'
import { InvoicePaymentStatus, useInvoicePayment } from '../components/invoice-payment'
import { SandboxNotice } from '../components/sandbox-notice'
import { usePlan } from '../plan-api'

// Stripe.js comes with this chunk, fetched only in Stripe mode.
const StripeCardField = lazy(() => import('../components/stripe-card-field'))

const cardTypeShape = { cardType: z.enum(CARD_TYPES) }
const sandboxSchema = z.object({ ...cardFieldsShape, ...cardTypeShape })
// Stripe's frame holds the card and checks it itself; our own card fields stay empty.
const stripeSchema = z.object({
  number: z.string(),
  expiry: z.string(),
  cvc: z.string(),
  ...cardTypeShape,
})

/**
 * Where a saved card leads: back to the purchase it was added for (`?return=`, one of our own
 * billing pages), else My Account. Anything else in the address is ignored.
 */
export function returnPath(value: string | null): string {
  if (value && /^\/(my-account|upgrade-plan)(\/[\w-]*)*(\?[\w=&%-]*)?$/.test(value)) return value
  return '/my-account'
}

/**
 * /my-account/add-credit-card: the card field and the card type; a saved card goes back to the
 * purchase it was added for, or My Account. From the failed-payment banner (`?invoice=`), the
 * card becomes the default and pays the open invoice at once, and the page says how that went.
 */
export function AddCreditCardPage() {
  const { t } = useTranslation()
  const account = useBillingAccount()
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
      {/* Which card field to show (ours or Stripe's) is known once the account has loaded. */}
      {account.data ? (
        <CardForm publishableKey={account.data.publishableKey} />
      ) : (
        <p className="text-sm text-slate-500">{t('billing.pay.loading')}</p>
      )}
    </section>
  )
}

function CardForm({ publishableKey }: { publishableKey: string | null }) {
  const { t } = useTranslation()
  const format = useFormat()
  const navigate = useNavigate()
  const [search] = useSearchParams()
  const returnTo = returnPath(search.get('return'))
  // From the failed-payment banner: the new card is the one to pay with from now on, and it
  // pays the invoice that failed.
  const plan = usePlan()
  const invoiceId = search.get('invoice')
  const open = plan.data?.openInvoice
  const invoice = invoiceId && open?.id === invoiceId && plan.data?.paymentFailed ? open : null
  const payment = useInvoicePayment()
  const makeDefault = search.get('default') === '1' || invoice !== null
  const { notify } = useNotifications()
  const [providerCard, setProviderCard] = useState<ProviderCard | null>(null)
  const bankCheck = useBankCheck()
  const form = useForm({
    resolver: zodResolver(publishableKey ? stripeSchema : sandboxSchema, ourZodMessages),
    defaultValues: { ...EMPTY_CARD, cardType: 'credit' as const },
  })
  const { errors } = form.formState
  // The bank's refusal belongs to the card, so it shows in red inside the form (spec core §8).
  const { submit, pending } = useFormMutation(form, useAddCard(), { messagesAt: 'form' })
  // Offline the card could only be refused with a generic error: Save says why it waits.
  const offlineReason = useOfflineReason()

  const handleSave = form.handleSubmit(({ cardType, ...card }) => {
    if (publishableKey && !providerCard) return
    return submit(
      providerCard
        ? { providerCard, cardType, makeDefault }
        : { card: cardOf(card), checkWithBank: bankCheck.ask, cardType, makeDefault },
      {
        onSuccess: () => {
          notify('success', t('billing.card.saved'))
          if (invoice) {
            form.reset()
            payment.pay(invoice)
          } else navigate(returnTo)
        },
      },
    )
  })

  const settled = payment.outcome.phase === 'paying' || payment.outcome.phase === 'paid'
  if (settled) {
    return (
      <div className="flex flex-col items-start gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        {payment.dialog}
        <InvoicePaymentStatus outcome={payment.outcome} />
        {payment.outcome.phase === 'paid' && (
          <Link
            to="/my-account"
            className="rounded-lg bg-brand-600 px-4 py-2.5 font-medium text-white shadow hover:bg-brand-700"
          >
            {t('billing.card.backToAccount')}
          </Link>
        )}
      </div>
    )
  }
  return (
    <form
      noValidate
      onSubmit={handleSave}
      className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      {payment.dialog}
      {invoice && payment.outcome.phase === 'idle' && (
        <p
          className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200"
          data-testid="card-pays-invoice"
        >
          {t('billing.card.paysInvoice', {
            number: invoice.number,
            amount: format.money(invoice.total, invoice.currency),
          })}
        </p>
      )}
      <InvoicePaymentStatus outcome={payment.outcome} />
      <SelectField
        label={t('billing.card.type')}
        options={CARD_TYPES.map((type) => ({ value: type, label: t(`billing.card.${type}`) }))}
        {...form.register('cardType')}
      />
      {publishableKey ? (
        <Suspense fallback={<p className="text-sm text-slate-500">{t('billing.card.loading')}</p>}>
          <StripeCardField publishableKey={publishableKey} onChange={setProviderCard} />
        </Suspense>
      ) : (
        <CardFields register={form.register} errors={errors} />
      )}
      <FormAlert message={errors.root?.server?.message} />
      {offlineReason !== undefined && (
        <OfflineNotice id={offlineReason}>{t('billing.offline.addCard')}</OfflineNotice>
      )}
      {bankCheck.dialog}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => navigate(returnTo)}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          loading={pending}
          disabled={Boolean(publishableKey && !providerCard) || offlineReason !== undefined}
          aria-describedby={offlineReason}
        >
          {t('billing.card.save')}
        </Button>
      </div>
    </form>
  )
}
