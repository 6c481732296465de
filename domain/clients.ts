import { z } from 'zod/mini'
import { tooLong } from './messages'
import { multilineTextSchema, serialIdSchema, textSchema } from './text'

// A practitioner's client records (spec scans §2 User details and User records, §3 Saved client
// record). What the client form sends is in ./client-form.ts. Error messages are keys of
// domain/messages.ts.

/** How long the last stored photo is offered for the next client (spec §9: image cookie). */
export const RECENT_PHOTO_DAYS = 7
/** Client photos are kept as JPEG within this box (spec §3: a running number plus .jpg). */
export const CLIENT_PHOTO_MAX_SIDE_PX = 1024
/** One page of the records list. */
export const CLIENTS_PAGE_SIZE = 30
/** A client's first or last name, at most. */
export const CLIENT_NAME_MAX = 100

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
  search: z.optional(textSchema().check(z.trim(), z.maxLength(CLIENT_NAME_MAX * 2 + 1))),
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
      multilineTextSchema().check(z.trim(), z.maxLength(SIGNATURE_MAX, tooLong(SIGNATURE_MAX))),
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
