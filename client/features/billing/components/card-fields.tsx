import type { FieldErrors, UseFormRegister } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { isCardExpired, sandboxCardRequestSchema } from '../../../../domain/billing'
import { textSchema } from '../../../../domain/text'
import { TextField } from '../../../components/ui/text-field'
import { useMessageText } from '../../../lib/messages'

// The card field of every form that takes a card: number, expiry and security code, each with
// its message in red under it. In the sandbox our server turns it into a payment method; the
// provider's own field replaces it in Stripe mode.

const EXPIRY = /^\s*(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})\s*$/

/** `MM / YY` (or `MM/YYYY`) as month and four-digit year, or null. */
export function parseExpiry(text: string): { expMonth: number; expYear: number } | null {
  const match = EXPIRY.exec(text)
  if (!match) return null
  const year = Number(match[2])
  return { expMonth: Number(match[1]), expYear: year < 100 ? 2000 + year : year }
}

/** The card field's part of a form schema. */
export const cardFieldsShape = {
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
}

export interface CardFieldValues {
  number: string
  expiry: string
  cvc: string
}

export const EMPTY_CARD: CardFieldValues = { number: '', expiry: '', cvc: '' }

/** The values as the sandbox's card endpoint takes them (the form schema has checked them). */
export function cardOf({ number, expiry, cvc }: CardFieldValues) {
  const parsed = parseExpiry(expiry) ?? { expMonth: 0, expYear: 0 }
  return { number, cvc, ...parsed }
}

/** Whether every part of the card has been typed (Pay now waits for it). */
export const isCardComplete = (values: Partial<CardFieldValues>) =>
  Boolean(values.number?.trim() && values.expiry?.trim() && values.cvc?.trim())

export function CardFields<T extends CardFieldValues>({
  register,
  errors,
}: {
  register: UseFormRegister<T>
  errors: FieldErrors<T>
}) {
  const { t } = useTranslation()
  const text = useMessageText()
  // The form's own type names these fields; the generic register cannot see that.
  const field = register as unknown as UseFormRegister<CardFieldValues>
  const fieldErrors = errors as FieldErrors<CardFieldValues>
  return (
    <>
      <TextField
        label={t('billing.card.number')}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        error={text(fieldErrors.number?.message)}
        {...field('number')}
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label={t('billing.card.expiry')}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={t('billing.card.expiryPlaceholder')}
          error={text(fieldErrors.expiry?.message)}
          {...field('expiry')}
        />
        <TextField
          label={t('billing.card.cvc')}
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          error={text(fieldErrors.cvc?.message)}
          {...field('cvc')}
        />
      </div>
    </>
  )
}
