import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import {
  addCardRequestSchema,
  type BillingAccount,
  billingAccountSchema,
  billingInfoRequestSchema,
  type CardType,
  cardConfirmRequestSchema,
  cardConfirmResponseSchema,
  PAYMENT_POLL_MS,
  type Payment,
  type PayOnceRequest,
  type PayOnceResponse,
  paymentCheckedRequestSchema,
  paymentsResponseSchema,
  payOnceRequestSchema,
  payOnceResponseSchema,
  priceListResponseSchema,
  type SandboxCardRequest,
  sandboxCardRequestSchema,
  sandboxCardResponseSchema,
  sandboxCheckRequestSchema,
  sandboxPaymentCheckRequestSchema,
} from '../../../domain/billing'
import { countriesResponseSchema, statesResponseSchema } from '../../../domain/reference'
import { ApiError, apiRequest, endpoint } from '../../lib/api-client'
import { paymentsQueryKey, planQueryKey } from '../../lib/payment-progress'
import { accessQueryKey } from '../../lib/query-keys'
import { keptForMember, memberCopyQuery, setKeptForMember } from './offline-copy'

// Billing for the signed-in member: prices, saved cards and billing information.

export const billingAccountQueryKey = ['billing', 'account'] as const

const saveCard = endpoint('POST', '/api/billing/cards', addCardRequestSchema, billingAccountSchema)
const confirmCard = endpoint(
  'POST',
  '/api/billing/cards/confirm',
  cardConfirmRequestSchema,
  cardConfirmResponseSchema,
)

/**
 * A card typed into the provider's own field (Stripe mode): made into a card by the provider
 * from the page, and the bank's check run there when the bank asks for one (3-D Secure). Each
 * fails with the provider's reason.
 */
export interface ProviderCard {
  createPaymentMethod(): Promise<string>
  handleNextAction(clientSecret: string): Promise<void>
}

/**
 * Where the card comes from: our own field (the sandbox), with the page's way of asking the
 * member to answer the bank's check, or the provider's (Stripe mode), which asks by itself.
 */
export type CardSource =
  | {
      card: SandboxCardRequest
      checkWithBank: (subject: 'card' | 'payment') => Promise<'complete' | 'fail'>
    }
  | { providerCard: ProviderCard }

const sandboxCard = endpoint(
  'POST',
  '/api/billing/sandbox/cards',
  sandboxCardRequestSchema,
  sandboxCardResponseSchema,
)
const sandboxCheck = endpoint(
  'POST',
  '/api/billing/sandbox/setups/check',
  sandboxCheckRequestSchema,
  cardConfirmResponseSchema,
)

/**
 * The typed card checked by the bank and saved to the member's customer, the same way in both
 * modes: made by the card field (the sandbox's, or Stripe's in the page), confirmed by our
 * server, where every try counts, then the bank's check (3-D Secure) when it asks for one, on
 * Stripe's page or the sandbox's stand-in for it. Answers the saved card's id.
 */
async function paymentMethodOf(source: CardSource): Promise<string> {
  const paymentMethodId =
    'providerCard' in source
      ? await source.providerCard.createPaymentMethod()
      : (await sandboxCard(source.card)).id
  const answer = await confirmCard({ paymentMethodId })
  if (answer.status === 'requires_action' && answer.clientSecret) {
    if ('providerCard' in source) await source.providerCard.handleNextAction(answer.clientSecret)
    else {
      const outcome = await source.checkWithBank('card')
      await sandboxCheck({ clientSecret: answer.clientSecret, outcome })
    }
  }
  return paymentMethodId
}
const saveBillingInfo = endpoint(
  'PUT',
  '/api/billing/info',
  billingInfoRequestSchema,
  billingAccountSchema,
)

// My Account shows the cards, billing information and prices offline as they last were.
/** The name of the billing account's copy on the device (offline-copy.ts). */
const ACCOUNT_COPY = 'billing-account'

export const billingAccountQuery = queryOptions({
  queryKey: billingAccountQueryKey,
  queryFn: keptForMember(ACCOUNT_COPY, () =>
    apiRequest('/api/billing/account', billingAccountSchema),
  ),
  ...memberCopyQuery,
})

export const pricesQuery = queryOptions({
  queryKey: ['billing', 'prices'],
  queryFn: keptForMember('prices', () =>
    apiRequest('/api/billing/prices', priceListResponseSchema),
  ),
  ...memberCopyQuery,
  staleTime: 5 * 60_000,
})

export const useBillingAccount = () => useQuery(billingAccountQuery)

export const usePrices = () => useQuery(pricesQuery)

/** Every change answers with the whole billing account; the cache takes it as it is. */
function useAccountMutation<Variables>(call: (variables: Variables) => Promise<BillingAccount>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: call,
    onSuccess: (account) => {
      setKeptForMember(queryClient, ACCOUNT_COPY, billingAccountQueryKey, account)
      // The plan's actions hang on the default card (Start Now, Pay Actual Invoice): My
      // Subscription reads them again at once rather than on the next visit.
      void queryClient.invalidateQueries({ queryKey: planQueryKey })
    },
  })
}

/**
 * The card field, then Save: the typed card becomes a payment method at the sandbox's card
 * endpoint or Stripe's, and only its id reaches the account.
 */
export const useAddCard = () =>
  useAccountMutation(
    async ({
      cardType,
      makeDefault,
      ...source
    }: CardSource & { cardType: CardType; makeDefault?: boolean }) =>
      saveCard({
        paymentMethodId: await paymentMethodOf(source),
        cardType,
        ...(makeDefault ? { makeDefault } : {}),
      }),
  )

export const useSetDefaultCard = () =>
  useAccountMutation((id: string) =>
    apiRequest(`/api/billing/cards/${encodeURIComponent(id)}/default`, billingAccountSchema, {
      method: 'PUT',
    }),
  )

export const useRemoveCard = () =>
  useAccountMutation((id: string) =>
    apiRequest(`/api/billing/cards/${encodeURIComponent(id)}`, billingAccountSchema, {
      method: 'DELETE',
    }),
  )

export const useSaveBillingInfo = () => useAccountMutation(saveBillingInfo)

/** Countries for the billing form, named in the interface language. */
export const useCountries = (language: string) =>
  useQuery({
    queryKey: ['countries', language],
    queryFn: () =>
      apiRequest(`/api/countries?lang=${encodeURIComponent(language)}`, countriesResponseSchema),
    staleTime: Number.POSITIVE_INFINITY,
  })

/** The states or provinces of a country for the billing form; none until a country is chosen. */
export const useStates = (country: string) =>
  useQuery({
    queryKey: ['states', country],
    queryFn: () =>
      apiRequest(`/api/countries/${encodeURIComponent(country)}/states`, statesResponseSchema),
    enabled: /^[A-Z]{2}$/.test(country),
    // The last country's list stays while the next one loads, so the field does not blink.
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  })

const payOnce = endpoint(
  'POST',
  '/api/billing/one-payment',
  payOnceRequestSchema,
  payOnceResponseSchema,
)
const paymentChecked = endpoint(
  'POST',
  '/api/billing/one-payment/checked',
  paymentCheckedRequestSchema,
  payOnceResponseSchema,
)
const sandboxPaymentCheck = endpoint(
  'POST',
  '/api/billing/sandbox/payments/check',
  sandboxPaymentCheckRequestSchema,
  payOnceResponseSchema,
)

/**
 * The bank's check of a payment it asked the member to confirm (3-D Secure): Stripe's own in
 * its frame, or the sandbox's stand-in answered at our server. Answers the payment as it now
 * is; a failed check is thrown with its reason.
 */
async function checkPayment(answer: PayOnceResponse, source: CardSource): Promise<PayOnceResponse> {
  const { clientSecret } = answer
  if (!clientSecret) return answer
  if (!('providerCard' in source)) {
    return sandboxPaymentCheck({ clientSecret, outcome: await source.checkWithBank('payment') })
  }
  const refusal = await source.providerCard.handleNextAction(clientSecret).then(
    () => null,
    (error: unknown) => ({ error }),
  )
  // Stripe's webhook may come later: the payment is read again from Stripe now, refused too.
  // The bank's refusal is what the member is told, even when that reading fails.
  if (refusal) {
    await paymentChecked({ paymentId: answer.payment.id }).catch(() => null)
    throw refusal.error
  }
  return paymentChecked({ paymentId: answer.payment.id })
}

/**
 * The member's one-time payments. While one is processing it is asked for again every 2 s
 * (spec core §9), and the polling stops on success or failure; access is read again then.
 */
export function usePayments() {
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: paymentsQueryKey,
    queryFn: async () => {
      const pending = (queryClient.getQueryData<Payment[]>(paymentsQueryKey) ?? []).some(
        (payment) => payment.status === 'processing',
      )
      const { payments } = await apiRequest('/api/billing/payments', paymentsResponseSchema)
      // Only a payment that has just settled can change access.
      if (pending && !payments.some((payment) => payment.status === 'processing')) {
        void queryClient.invalidateQueries({ queryKey: accessQueryKey })
      }
      return payments
    },
    refetchInterval: (query) =>
      query.state.data?.some((payment) => payment.status === 'processing')
        ? PAYMENT_POLL_MS
        : false,
  })
}

/** Pay now: the card field's card, then the payment; the list starts following it at once. */
export function usePayOnce() {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({
      priceId,
      attemptId,
      receiptEmail,
      ...source
    }: Omit<PayOnceRequest, 'paymentMethodId'> & CardSource) => {
      const paymentMethodId = await paymentMethodOf(source).catch((error: unknown) => {
        // The bank checks a new card as it is saved to pay with. On a payment, a failed check
        // means no payment was made, and that is what the member is told; 'this card was not
        // saved' is Add Credit Card's wording.
        if (error instanceof ApiError && error.reason === 'billing.authenticationFailed') {
          throw new ApiError(
            error.status,
            t('billing.card.paymentAuthenticationFailed'),
            [],
            'billing.paymentAuthenticationFailed',
          )
        }
        throw error
      })
      const answer = await payOnce({
        priceId,
        attemptId,
        ...(receiptEmail ? { receiptEmail } : {}),
        paymentMethodId,
      })
      return checkPayment(answer, source)
    },
    // The new payment goes into the list at once, so its settling is seen (and access re-read)
    // even when the bank answers before the list is fetched again.
    onSuccess: ({ payment }) =>
      queryClient.setQueryData<Payment[]>(paymentsQueryKey, (old = []) => [
        payment,
        ...old.filter((known) => known.id !== payment.id),
      ]),
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentsQueryKey }),
  })
}
