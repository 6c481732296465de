import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { z } from 'zod/mini'
import { emailSchema } from './auth'
import type { MessageKey } from './messages'
import { multilineTextSchema, serialIdSchema, textSchema } from './text'

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

/** The spec's order (scans §3 Chakra reading). */
export const CHAKRAS = ['crown', 'brow', 'throat', 'heart', 'solar', 'sacral', 'root'] as const
export type Chakra = (typeof CHAKRAS)[number]
/** Readings are whole numbers in this range (spec scans §9). */
export const READING_MIN = 100
export const READING_MAX = 999
/** Aura pictures, numbered 1 to this (spec scans §9). */
export const AURA_PICTURES = 98
/** A scan list number from here on is highlighted (spec scans §2 Aura scan help). */
export const DISTURBANCE_THRESHOLD = 650
export const SIGNATURE_MAX = 500

/**
 * The positions of the three highest readings, highest first; of equal readings the one that
 * comes first in the spec's order wins.
 */
export function topThree(readings: readonly number[]): number[] {
  return readings
    .map((value, index) => ({ value, index }))
    .sort((a, b) => b.value - a.value || a.index - b.index)
    .slice(0, 3)
    .map(({ index }) => index)
}

export const scanRequestSchema = z.object({
  /** The personalised energetic signature, when the practitioner added one. */
  signature: z.nullable(
    z.pipe(
      multilineTextSchema().check(
        z.trim(),
        z.maxLength(SIGNATURE_MAX, { error: 'clients.tooLong' }),
      ),
      z.transform((value: string) => value || null),
    ),
  ),
})

export const clientScanSchema = z.object({
  id: z.number(),
  kind: z.enum(['aura', 'chakra']),
  createdAt: z.string(),
  signature: z.nullable(z.string()),
  /** Aura scans: the picture shown, 1–98. */
  auraPicture: z.nullable(z.number()),
  /** Chakra scans: seven readings in the order of CHAKRAS. */
  chakras: z.nullable(z.array(z.number())),
})
export type ClientScan = z.infer<typeof clientScanSchema>

export const clientScanResponseSchema = z.object({ scan: clientScanSchema })
export const clientScansResponseSchema = z.object({ scans: z.array(clientScanSchema) })
