import { z } from 'zod/mini'
import { HARMONIZE_DURATION_MS } from './constants'
import { panelDetailSchema } from './panels'
import { serialIdSchema } from './text'

// Contracts of the harmonizing session and its media files.

/** What a session needs to run: the words to rotate and the sound's frequency. */
export const sessionContentSchema = z.object({
  sessionId: z.number(),
  startedAt: z.string(),
  panel: panelDetailSchema,
  affirmations: z.array(z.string()),
})
export type SessionContent = z.infer<typeof sessionContentSchema>

export const startSessionRequestSchema = z.object({ panelId: z.string().check(z.regex(/^\d{2}$/)) })
export const sessionParamsSchema = z.object({ id: serialIdSchema })

export const recentSessionSchema = z.object({
  id: z.number(),
  panelId: z.string(),
  panelName: z.string(),
  startedAt: z.string(),
  completedAt: z.nullable(z.string()),
})
export type RecentSession = z.infer<typeof recentSessionSchema>

export const recentSessionsResponseSchema = z.object({ sessions: z.array(recentSessionSchema) })

/** The spec's key marker: a media key containing it is the background (backing) track. */
export const BACKING_TRACK_MARKER = 'WH_BackingTrack'

/** Where media files live in storage (spec §7: list 'medias/' keys). */
export const MEDIA_PREFIX = 'medias/'

/** Signed media links are valid this long (spec §9). */
export const MEDIA_LINK_SECONDS = 3600

/** The largest media file taken: a long video in good quality, well under a disk's room. */
export const MEDIA_MAX_BYTES = 2 * 1024 ** 3

/** What the operator may upload: sniffed from the bytes, never taken from the file name. */
export const MEDIA_CONTENT_TYPES = [
  'video/mp4',
  'video/webm',
  'audio/mpeg',
  'audio/mp4',
  'audio/ogg',
  'audio/wav',
] as const

export const mediaKindSchema = z.enum(['video', 'backing'])
export type MediaKind = z.infer<typeof mediaKindSchema>

/** One media file with a signed link to its bytes. */
export const mediaItemSchema = z.object({
  key: z.string(),
  url: z.string(),
  size: z.number(),
  contentType: z.string(),
  kind: mediaKindSchema,
  /** Null: usable with every panel. */
  panelId: z.nullable(z.string()),
})
export type MediaItem = z.infer<typeof mediaItemSchema>

export const harmonizeMediaQuerySchema = z.object({
  panelId: z.optional(z.string().check(z.regex(/^\d{2}$/))),
})

/**
 * The media for a session: a random video for the panel (or for every panel), the backing
 * track, and every file (for saving offline). Null when there is none: the session then stays
 * generative.
 */
export const harmonizeMediaResponseSchema = z.object({
  video: z.nullable(mediaItemSchema),
  backing: z.nullable(mediaItemSchema),
  all: z.array(mediaItemSchema),
})
export type HarmonizeMedia = z.infer<typeof harmonizeMediaResponseSchema>

/** A media file as the operator command lists it. */
export const operatorMediaSchema = z.object({
  key: z.string(),
  kind: mediaKindSchema,
  panelId: z.nullable(z.string()),
  contentType: z.string(),
  size: z.number(),
  createdAt: z.string(),
})
export type OperatorMedia = z.infer<typeof operatorMediaSchema>

/**
 * Session lengths, in minutes, a practitioner can give a tray of the aura scan (a 'Balance Rx' or
 * 'Multi Layer Rx'); 3 is the ritual's own length.
 */
export const RX_MINUTES = [3, 5, 10, 15, 20, 30] as const

/** Most panels one session layers: the whole scan list of 16. */
export const RX_MAX_PANELS = 16

/** A tray's session: its panels (the first leads: its visuals and name) and its length. */
export interface Rx {
  panelIds: string[]
  minutes: number
}

const PANEL_ID = /^\d{2}$/

/** Where a tray's session runs: the first panel's harmonizing screen, the rest in the query. */
export function rxPath({ panelIds, minutes }: Rx): string {
  const [lead, ...layered] = panelIds
  const query = new URLSearchParams({ minutes: String(minutes) })
  if (layered.length) query.set('with', layered.join(','))
  return `/harmonizing-screen/${lead}?${query}`
}

/**
 * The session a harmonizing screen's query asks for: its length (3:00 unless a known tray length
 * is given) and the panels layered with `leadId` (unknown, repeated or surplus ids left out).
 * A hand-edited address therefore still runs a sensible session instead of failing.
 */
export function parseRx(leadId: string, search: string): { durationMs: number; layered: string[] } {
  const query = new URLSearchParams(search)
  const minutes = Number(query.get('minutes'))
  const known = (RX_MINUTES as readonly number[]).includes(minutes)
  const layered = [
    ...new Set((query.get('with') ?? '').split(',').filter((id) => PANEL_ID.test(id))),
  ]
    .filter((id) => id !== leadId)
    .slice(0, RX_MAX_PANELS - 1)
  return { durationMs: known ? minutes * 60_000 : HARMONIZE_DURATION_MS, layered }
}
