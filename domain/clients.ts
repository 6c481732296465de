import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { z } from 'zod/mini'
import { emailSchema } from './auth'
import type { MessageKey } from './messages'
import { serialIdSchema, textSchema } from './text'

// A practitioner's client records (spec scans §2 User details and User records, §3 Saved client
// record, §5 client form messages). Error messages are keys of domain/messages.ts.

/** How long the last stored photo is offered for the next client (spec §9: image cookie). */
export const RECENT_PHOTO_DAYS = 7
/** Client photos are kept as JPEG within this box (spec §3: a running number plus .jpg). */
export const CLIENT_PHOTO_MAX_SIDE_PX = 1024
/** One page of the records list. */
export const CLIENTS_PAGE_SIZE = 30

const NAME_MAX = 100
const AFFIRMATION_MAX = 500

const requiredLine = (error: MessageKey, max: number) =>
  z.pipe(
    textSchema({ error }).check(z.trim()),
    z.string().check(z.minLength(1, { error }), z.maxLength(max, { error: 'clients.tooLong' })),
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
    firstName: requiredLine('clients.firstNameRequired', NAME_MAX),
    lastName: requiredLine('clients.lastNameRequired', NAME_MAX),
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
        z.maxLength(40, { error: 'clients.phoneInvalid' }),
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
    photoNumber: z.number({ error: 'clients.photoRequired' }).check(z.int(), z.positive()),
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

export const clientPhotoSchema = z.object({
  number: z.number(),
  /** Where the signed-in user reads it; it is theirs alone. */
  url: z.string(),
  createdAt: z.string(),
})
export type ClientPhoto = z.infer<typeof clientPhotoSchema>

/** A saved client, as the form loads it again (/user-details#{id}). */
export const clientRecordSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** E.164. */
  phone: z.string(),
  birthDate: z.nullable(z.string()),
  affirmation: z.string(),
  photo: z.nullable(clientPhotoSchema),
  consentAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type ClientRecord = z.infer<typeof clientRecordSchema>

/** A line of the records list: picture and full name. */
export const clientSummarySchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  photoUrl: z.nullable(z.string()),
})
export type ClientSummary = z.infer<typeof clientSummarySchema>

export const clientListQuerySchema = z.object({
  search: z.optional(textSchema().check(z.trim(), z.maxLength(NAME_MAX * 2 + 1))),
  /** From the previous page's `nextCursor`. */
  cursor: z.optional(z.string().check(z.maxLength(400))),
})

export const clientListResponseSchema = z.object({
  clients: z.array(clientSummarySchema),
  /** Null on the last page. */
  nextCursor: z.nullable(z.string()),
})
export type ClientList = z.infer<typeof clientListResponseSchema>

export const clientParamsSchema = z.object({
  id: z.string({ error: 'clients.notFound' }).check(z.uuid({ error: 'clients.notFound' })),
})
export const clientPhotoParamsSchema = z.object({ number: serialIdSchema })

export const clientPhotoResponseSchema = z.object({ photo: clientPhotoSchema })
/** The photo stored last, offered for the next client for RECENT_PHOTO_DAYS; null otherwise. */
export const recentPhotoResponseSchema = z.object({ photo: z.nullable(clientPhotoSchema) })

/** Where the signed-in user reads their stored photo number `number`. */
export const clientPhotoUrl = (number: number) => `/api/clients/photos/${number}`
