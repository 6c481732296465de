import type { StripeElementLocale, StripeError } from '@stripe/stripe-js'
import { loadStripe } from '@stripe/stripe-js/pure'
import type { TFunction } from 'i18next'
import { ApiError } from '../../lib/api-client'

// Stripe.js, in Stripe mode only, for the card field and for the bank's check of a payment.
// Only lazily loaded modules import this one, so Stripe.js is fetched when a page needs it.

/** Stripe.js for a key and language, made once: each `Stripe()` call starts its own frames. */
const instances = new Map<string, ReturnType<typeof loadStripe>>()
export function stripeFor(publishableKey: string, locale: StripeElementLocale) {
  const name = `${publishableKey} ${locale}`
  let stripe = instances.get(name)
  if (!stripe) {
    stripe = loadStripe(publishableKey, { locale })
    // A failed load (offline, blocked) is tried again the next time it is needed.
    stripe.catch(() => instances.delete(name))
    instances.set(name, stripe)
  }
  return stripe
}

/**
 * Stripe's reason, in the member's language (its locale), for what the card or its bank said;
 * ours for a failed check of the bank's, and for anything else (its words are technical).
 */
export const refusal = (error: StripeError | undefined, t: TFunction) =>
  error?.code === 'setup_intent_authentication_failure'
    ? // Named as the server names the sandbox's, so a payment can say it in its own words.
      new ApiError(402, t('billing.card.authenticationFailed'), [], 'billing.authenticationFailed')
    : new ApiError(
        402,
        error?.code === 'payment_intent_authentication_failure'
          ? t('billing.card.paymentAuthenticationFailed')
          : (error?.type === 'card_error' || error?.type === 'validation_error') && error.message
            ? error.message
            : t('billing.card.refused'),
      )

/**
 * The bank's check (3-D Secure) of a plan's charge, in Stripe's own page: fails with the
 * reason in the member's language, or when Stripe.js cannot be loaded. The charge was made by
 * Stripe for the invoice, not confirmed by us with `use_stripe_sdk`, so it is confirmed again
 * here with its own card (Stripe's way for an invoice's payment that requires action), which
 * runs the check.
 */
export async function checkWithStripe(
  publishableKey: string,
  clientSecret: string,
  t: TFunction,
  language: string,
): Promise<void> {
  const stripe = await stripeFor(publishableKey, language.startsWith('es') ? 'es' : 'en').catch(
    () => null,
  )
  if (!stripe) throw new ApiError(503, t('billing.card.unavailable'))
  const { error } = await stripe.confirmCardPayment(clientSecret)
  if (error) {
    throw error.code === 'payment_intent_authentication_failure'
      ? new ApiError(402, t('billing.card.paymentAuthenticationFailed'))
      : refusal(error, t)
  }
}
