import { z } from 'zod/mini'
import type { Language } from './i18n'
import { tooLong } from './messages'
import { textSchema } from './text'

// Billing rules both sides use (spec core §3, §4, §9): plans and prices, how amounts are shown,
// and what a card number must be before anything is sent to the gateway.

/**
 * The three ways to pay. The spec tells one payment from four payments by the nickname
 * (containing ONE); we keep the plan explicit, because a subscription is a third kind and a
 * nickname is a label the operator may reword.
 */
export const PLANS = ['one_payment', 'four_payments', 'subscription'] as const
export type Plan = (typeof PLANS)[number]

/** The pending payment flow asks again this often (spec core §9). */
export const PAYMENT_POLL_MS = 2000

export const CURRENCIES = ['usd'] as const
export type Currency = (typeof CURRENCIES)[number]

/** Nicknames are operator labels such as `ONE_PAYMENT`: letters, digits, spaces and underscores. */
export const priceNicknameSchema = textSchema().check(
  z.minLength(1),
  z.maxLength(60),
  z.regex(/^[A-Za-z0-9][A-Za-z0-9 _-]*$/, 'billing.nicknameFormat'),
)

/** An amount in cents: at least 50 (the card networks' smallest charge), at most $100,000. */
export const unitAmountSchema = z.int().check(z.minimum(50), z.maximum(10_000_000))

/** A price as the price list shows it. */
export const priceSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  /** The nickname with its underscores shown as spaces (spec core §2). */
  label: z.string(),
  plan: z.enum(PLANS),
  /** Cents; the price is charged this many times for four payments, every month for a subscription. */
  unitAmount: z.int(),
  currency: z.enum(CURRENCIES),
  active: z.boolean(),
})
export type Price = z.infer<typeof priceSchema>

export const priceListResponseSchema = z.object({ prices: z.array(priceSchema) })

/** What the operator gives to create a price. */
export const createPriceRequestSchema = z.object({
  nickname: priceNicknameSchema,
  plan: z.enum(PLANS),
  unitAmount: unitAmountSchema,
})
export type CreatePriceRequest = z.infer<typeof createPriceRequestSchema>

/** Nickname underscores are shown as spaces: `FOUR_PAYMENTS` → `FOUR PAYMENTS`. */
export function priceLabel(nickname: string): string {
  return nickname.replaceAll('_', ' ')
}

/** Our catalog's plan names (server/features/billing/catalog.ts) as each language writes them. */
const PLAN_NAMES: Readonly<Record<string, Record<Language, string>>> = {
  'ONE PAYMENT': { en: 'ONE PAYMENT', es: 'PAGO ÚNICO' },
  'FOUR PAYMENTS': { en: 'FOUR PAYMENTS', es: 'CUATRO PAGOS' },
  SUBSCRIPTION: { en: 'SUBSCRIPTION', es: 'SUSCRIPCIÓN' },
}

/**
 * A price's label (see priceLabel) in the reader's language: the spec's English names are the
 * catalog's, so they are translated like any other text; a name an operator gave a price of
 * their own is theirs, and shown as written.
 */
export function planName(label: string, language: Language): string {
  return PLAN_NAMES[label]?.[language] ?? label
}

/**
 * Why the bank refused a charge, in the provider's own words (its decline or error code); any
 * other code is a plain `card_declined`. Screens and mails word each one.
 */
export const REFUSAL_REASONS = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'test_mode_live_card',
  'authentication_required',
  'payment_intent_authentication_failure',
] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]

export function refusalReason(code: string | null | undefined): RefusalReason {
  return (REFUSAL_REASONS as readonly string[]).includes(code ?? '')
    ? (code as RefusalReason)
    : 'card_declined'
}

/** Digits only: people type card numbers with spaces or dashes. */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '')
}

/** The Luhn check every card number passes; it catches a mistyped digit or two swapped ones. */
export function passesLuhn(number: string): boolean {
  const digits = cardDigits(number)
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'unknown'] as const
export type CardBrand = (typeof CARD_BRANDS)[number]

/** The brand a number belongs to, by its leading digits (the networks' published ranges). */
export function cardBrand(number: string): CardBrand {
  const digits = cardDigits(number)
  if (/^4/.test(digits)) return 'visa'
  const firstTwo = Number(digits.slice(0, 2))
  const firstFour = Number(digits.slice(0, 4))
  if ((firstTwo >= 51 && firstTwo <= 55) || (firstFour >= 2221 && firstFour <= 2720)) {
    return 'mastercard'
  }
  if (firstTwo === 34 || firstTwo === 37) return 'amex'
  if (/^6011|^65|^64[4-9]/.test(digits)) return 'discover'
  return 'unknown'
}

/** A card is good through the last day of its expiry month. */
export function isCardExpired(expMonth: number, expYear: number, now: Date = new Date()): boolean {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth() + 1
  return expYear < year || (expYear === year && expMonth < month)
}

/** The card types the Add Credit Card screen offers; no rule depends on the choice (spec core §2). */
export const CARD_TYPES = ['debit', 'credit'] as const
export type CardType = (typeof CARD_TYPES)[number]

/**
 * The card as typed into the sandbox's card field. In Stripe mode the provider's own field takes
 * it and our server never sees the number.
 */
export const sandboxCardRequestSchema = z
  .object({
    number: textSchema({ error: 'billing.cardNumberInvalid' }).check(
      z.maxLength(30, { error: 'billing.cardNumberInvalid' }),
      z.refine(passesLuhn, { error: 'billing.cardNumberInvalid' }),
    ),
    expMonth: z
      .int({ error: 'billing.cardExpiryInvalid' })
      .check(
        z.minimum(1, { error: 'billing.cardExpiryInvalid' }),
        z.maximum(12, { error: 'billing.cardExpiryInvalid' }),
      ),
    expYear: z
      .int({ error: 'billing.cardExpiryInvalid' })
      .check(
        z.minimum(2000, { error: 'billing.cardExpiryInvalid' }),
        z.maximum(2100, { error: 'billing.cardExpiryInvalid' }),
      ),
    cvc: textSchema({ error: 'billing.cvcInvalid' }).check(
      z.regex(/^\d{3,4}$/, { error: 'billing.cvcInvalid' }),
    ),
  })
  .check(
    z.refine((card) => !isCardExpired(card.expMonth, card.expYear), {
      error: 'billing.cardExpired',
      path: ['expYear'],
    }),
  )
export type SandboxCardRequest = z.infer<typeof sandboxCardRequestSchema>

/** What the sandbox's card field answers: the new payment method's id and what may be shown. */
export const sandboxCardResponseSchema = z.object({
  id: z.string(),
  brand: z.enum(CARD_BRANDS),
  last4: z.string(),
})

/** A card the page made (our field or the provider's), to be checked by the bank and saved. */
export const cardConfirmRequestSchema = z.object({
  paymentMethodId: textSchema().check(z.regex(/^pm_[A-Za-z0-9]{1,100}$/)),
})

/**
 * The bank's answer on a card: saved to the member's customer, or its check (3-D Secure) still
 * to run in the page, with the secret the page runs it with.
 */
export const cardConfirmResponseSchema = z.object({
  status: z.enum(['succeeded', 'requires_action']),
  clientSecret: z.nullable(z.string()),
})
export type CardConfirmResponse = z.infer<typeof cardConfirmResponseSchema>

/** The member's answer on the sandbox bank's 3-D Secure check of a card. */
export const sandboxCheckRequestSchema = z.object({
  clientSecret: textSchema({ error: 'billing.cardNotFound' }).check(
    z.regex(/^seti_[A-Za-z0-9]{1,100}_secret_[A-Za-z0-9]{1,100}$/, {
      error: 'billing.cardNotFound',
    }),
  ),
  outcome: z.enum(['complete', 'fail']),
})
export type SandboxCheckRequest = z.infer<typeof sandboxCheckRequestSchema>

/** A card made by the card field (sandbox or provider), saved to the account. */
export const addCardRequestSchema = z.object({
  paymentMethodId: textSchema().check(z.regex(/^pm_[A-Za-z0-9]{1,100}$/)),
  cardType: z.enum(CARD_TYPES),
  /** The new card becomes the default (a card added to pay a failed invoice). */
  makeDefault: z.optional(z.boolean()),
})

/** The billing form (spec core §3), with the city and state we add (PRODUCT.md). */
export const billingInfoRequestSchema = z.object({
  name: textSchema({ error: 'validation.fullName' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.fullName' }),
    z.maxLength(120, tooLong(120)),
  ),
  email: z.pipe(
    textSchema().check(z.trim(), z.toLowerCase(), z.maxLength(254, tooLong(254))),
    z.email({ error: 'validation.email' }),
  ),
  line1: textSchema({ error: 'billing.addressRequired' }).check(
    z.trim(),
    z.minLength(1, { error: 'billing.addressRequired' }),
    z.maxLength(200, tooLong(200)),
  ),
  line2: z.optional(textSchema().check(z.trim(), z.maxLength(200, tooLong(200)))),
  city: z.optional(textSchema().check(z.trim(), z.maxLength(100, tooLong(100)))),
  state: z.optional(textSchema().check(z.trim(), z.maxLength(100, tooLong(100)))),
  postalCode: textSchema({ error: 'billing.postalCodeRequired' }).check(
    z.trim(),
    z.minLength(1, { error: 'billing.postalCodeRequired' }),
    z.maxLength(20, tooLong(20)),
  ),
  country: textSchema({ error: 'billing.countryRequired' }).check(
    z.regex(/^[A-Z]{2}$/, { error: 'billing.countryRequired' }),
  ),
})
export type BillingInfoRequest = z.infer<typeof billingInfoRequestSchema>

export const savedCardSchema = z.object({
  id: z.string(),
  brand: z.enum(CARD_BRANDS),
  last4: z.string(),
  expMonth: z.int(),
  expYear: z.int(),
  cardType: z.nullable(z.enum(CARD_TYPES)),
  isDefault: z.boolean(),
})
export type SavedCard = z.infer<typeof savedCardSchema>

/** Billing information, saved cards and the gateway's kind, as My Account shows them. */
export const billingAccountSchema = z.object({
  /** True in the sandbox: every screen with money says 'Sandbox — no real charges'. */
  sandbox: z.boolean(),
  /** Stripe mode: the key of Stripe's own card field, which then takes the card. */
  publishableKey: z.nullable(z.string()),
  billingInfo: z.nullable(
    z.object({
      name: z.string(),
      email: z.string(),
      line1: z.nullable(z.string()),
      line2: z.nullable(z.string()),
      city: z.nullable(z.string()),
      state: z.nullable(z.string()),
      postalCode: z.nullable(z.string()),
      country: z.nullable(z.string()),
    }),
  ),
  cards: z.array(savedCardSchema),
})
export type BillingAccount = z.infer<typeof billingAccountSchema>

export const cardParamsSchema = z.object({
  id: textSchema().check(z.regex(/^pm_[A-Za-z0-9]{1,100}$/, { error: 'billing.cardNotFound' })),
})

/** Pay now on the ONE PAYMENT screen. `attemptId` is new for each try: a retry of the same try charges once. */
export const payOnceRequestSchema = z.object({
  // No plan chosen reaches the form as null: the same words as a wrong one.
  priceId: textSchema({ error: 'billing.choosePrice' }).check(
    z.regex(/^price_[A-Za-z0-9]{1,100}$/, { error: 'billing.choosePrice' }),
  ),
  paymentMethodId: textSchema().check(z.regex(/^pm_[A-Za-z0-9]{1,100}$/)),
  /** The 'Cc Invoice to Payment' address, if given. */
  receiptEmail: z.optional(
    z.pipe(
      textSchema().check(z.trim(), z.toLowerCase(), z.maxLength(254, tooLong(254))),
      z.email({ error: 'validation.email' }),
    ),
  ),
  attemptId: textSchema().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)),
})
export type PayOnceRequest = z.infer<typeof payOnceRequestSchema>

/** A one-time payment as the pay screen follows it. */
export const paymentSchema = z.object({
  id: z.string(),
  amount: z.int(),
  /**
   * `processing` while the bank answers, then `succeeded` or `requires_payment_method`;
   * `requires_action` while the bank waits for the member's check (3-D Secure), `canceled`
   * when that check was never answered and something else was bought.
   */
  status: z.string(),
  /** Why it failed, in the user's language (shown after 'Payment failed'). */
  failure: z.nullable(z.string()),
  createdAt: z.string(),
})
export type Payment = z.infer<typeof paymentSchema>

export const paymentsResponseSchema = z.object({ payments: z.array(paymentSchema) })

/**
 * Pay now's answer: the payment it made (follow it in the list by its id while it is pending),
 * and, while the bank asks the member to confirm it (3-D Secure), the secret the page runs
 * that check with.
 */
export const payOnceResponseSchema = z.object({
  payment: paymentSchema,
  clientSecret: z.nullable(z.string()),
})
export type PayOnceResponse = z.infer<typeof payOnceResponseSchema>

/** After the bank's check of a payment ran in Stripe's page: the payment to read again. */
export const paymentCheckedRequestSchema = z.object({
  paymentId: textSchema({ error: 'billing.paymentNotFound' }).check(
    z.regex(/^pi_[A-Za-z0-9]{1,100}$/, { error: 'billing.paymentNotFound' }),
  ),
})
export type PaymentCheckedRequest = z.infer<typeof paymentCheckedRequestSchema>

/**
 * The member's answer on the sandbox bank's 3-D Secure check of a payment: a ONE PAYMENT, or the
 * charge of a plan's open invoice.
 */
export const sandboxPaymentCheckRequestSchema = z.object({
  clientSecret: textSchema({ error: 'billing.paymentNotFound' }).check(
    z.regex(/^pi_[A-Za-z0-9]{1,100}_secret_[A-Za-z0-9]{1,100}$/, {
      error: 'billing.paymentNotFound',
    }),
  ),
  outcome: z.enum(['complete', 'fail']),
})
export type SandboxPaymentCheckRequest = z.infer<typeof sandboxPaymentCheckRequestSchema>
