import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { z } from 'zod/mini'
import { emailSchema } from './auth'
import { CLIENT_NAME_MAX } from './clients'
import { type MessageKey, tooLong } from './messages'
import { MAX_SERIAL_ID, textSchema } from './text'

// The client form (spec scans §2 User details, §5 its messages), apart from the records'
// other contracts (./clients.ts): reading phone numbers needs libphonenumber's metadata (20 KB
// compressed), which only this form needs; in the browser the list of records and the scans
// no longer load it.

const AFFIRMATION_MAX = 500

const requiredLine = (error: MessageKey, max: number) =>
  z.pipe(
    textSchema({ error }).check(z.trim()),
    z.string().check(z.minLength(1, { error }), z.maxLength(max, tooLong(max))),
  )

/**
 * A phone number as the person typed it, in international form (with its country code) or in
 * the national form of `country`; stored in E.164 (+34600123456).
 */
export function normalisePhone(value: string, country?: string): string | null {
  try {
    const parsed = parsePhoneNumberFromString(
      value,
      country ? { defaultCountry: country as never } : undefined,
    )
    return parsed?.isValid() ? parsed.number : null
  } catch {
    // An unknown default country throws; the number cannot be read then.
    return null
  }
}

/** Year, month and day that exist, from 1900 up to today. */
export function isBirthDate(value: string, today = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false
  return year >= 1900 && value <= today.toISOString().slice(0, 10)
}

/** What the client form sends on Start (spec §5 messages, in their order). */
export const clientFormSchema = z
  .object({
    firstName: requiredLine('clients.firstNameRequired', CLIENT_NAME_MAX),
    lastName: requiredLine('clients.lastNameRequired', CLIENT_NAME_MAX),
    email: z.pipe(
      textSchema({ error: 'clients.emailRequired' }).check(
        z.trim(),
        z.minLength(1, { error: 'clients.emailRequired', abort: true }),
      ),
      emailSchema,
    ),
    phone: z.pipe(
      textSchema({ error: 'clients.phoneRequired' }).check(
        z.trim(),
        z.minLength(1, { error: 'clients.phoneRequired' }),
        z.maxLength(40, tooLong(40)),
      ),
      z.string(),
    ),
    /** Where a number typed without its country code is from (ISO 3166-1 alpha-2). */
    phoneCountry: z.optional(z.string().check(z.regex(/^[A-Z]{2}$/))),
    /** Optional (PRODUCT.md); YYYY-MM-DD. */
    birthDate: z.nullable(
      z.string().check(z.refine((value) => isBirthDate(value), { error: 'clients.birthDate' })),
    ),
    affirmation: requiredLine('clients.affirmationRequired', AFFIRMATION_MAX),
    /** A photo this user stored (POST /api/clients/photos), by its running number. */
    /**
     * Bounded by the column (PostgreSQL `integer`): a larger number cannot be one of this user's
     * photos, and unbounded it reached the database and failed there (HTTP 500).
     */
    photoNumber: z
      .number({ error: 'clients.photoRequired' })
      .check(
        z.int({ error: 'clients.photoNotFound' }),
        z.positive({ error: 'clients.photoNotFound' }),
        z.maximum(MAX_SERIAL_ID, { error: 'clients.photoNotFound' }),
      ),
    consent: z.literal(true, { error: 'clients.consentRequired' }),
  })
  .check(
    z.refine((form) => normalisePhone(form.phone, form.phoneCountry) !== null, {
      error: 'clients.phoneInvalid',
      path: ['phone'],
      // Only once the phone itself is there: an empty one already reads 'Phone Number is required'.
      when: ({ value, issues }) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as { phone?: unknown }).phone === 'string' &&
        !issues.some((issue) => issue.path?.[0] === 'phone'),
    }),
  )
export type ClientForm = z.infer<typeof clientFormSchema>
