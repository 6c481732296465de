import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import path from 'node:path'
import { Readable } from 'node:stream'
import { asc, eq, gt } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { mediaFiles } from '../../../db/schema/harmonize'
import { panels } from '../../../db/schema/panels'
import {
  BACKING_TRACK_MARKER,
  type HarmonizeMedia,
  MEDIA_CONTENT_TYPES,
  MEDIA_LINK_SECONDS,
  MEDIA_MAX_BYTES,
  MEDIA_PREFIX,
  type MediaItem,
  type MediaKind,
  type OperatorMedia,
} from '../../../domain/harmonize'
import { AppError } from '../../errors'
import type { Storage } from '../../storage/storage'

type MediaRow = typeof mediaFiles.$inferSelect

/** What the operator hands over to add a media file. */
export interface NewMedia {
  /** The original file name; only its base name is kept, made safe for a storage key. */
  name: string
  /** The bytes, or a stream of them (an upload), which is stored as it arrives. */
  data: Buffer | Readable
  /** Null or missing: usable with every panel. */
  panelId?: string | null
  /** Marks an audio file as the backing track (audio files are backing tracks anyway). */
  backing?: boolean
}

/** A storage-safe base name: letters, digits, dots, dashes, underscores, starting with one. */
function safeName(name: string): string {
  const base = path
    .basename(name.replaceAll('\\', '/'))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 150)
  if (!base || base.endsWith('.meta.json')) throw new AppError(400, 'media.badName')
  return base
}

/** Enough of a file's start for file-type to know every type we take (MP4 needs the most). */
export const SNIFF_BYTES = 4100

/**
 * A file's first bytes to sniff, and all of it to store. A stream is read only up to its first
 * bytes here; the rest flows to storage as it arrives, counted, and refused past the limit.
 */
function sniffable(data: Buffer | Readable, maxBytes: number) {
  let size = 0
  if (!(data instanceof Readable)) {
    if (data.length > maxBytes) throw new AppError(413, 'media.tooLarge')
    size = data.length
    return { head: Promise.resolve(data.subarray(0, SNIFF_BYTES)), body: data, counted: () => size }
  }
  const chunks = data[Symbol.asyncIterator]()
  const taken: Buffer[] = []
  const head = (async () => {
    let length = 0
    while (length < SNIFF_BYTES) {
      const next = await chunks.next()
      if (next.done) break
      const chunk: Buffer = next.value
      taken.push(chunk)
      length += chunk.length
    }
    return Buffer.concat(taken).subarray(0, SNIFF_BYTES)
  })()
  async function* all() {
    await head
    const rest = { [Symbol.asyncIterator]: () => chunks }
    for (const chunk of taken) {
      size += chunk.length
      yield chunk
    }
    for await (const chunk of rest as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > maxBytes) throw new AppError(413, 'media.tooLarge')
      yield chunk
    }
  }
  return { head, body: Readable.from(all(), { objectMode: false }), counted: () => size }
}

/**
 * Stores a media file under `medias/{name}` and records it. The type is sniffed from the bytes
 * (file-type), so a renamed file cannot pass as a video. A backing track's key always carries the
 * spec's marker `WH_BackingTrack`, which is how sessions find it. Adding the same name again
 * replaces the file.
 */
export async function addMedia(
  db: Database,
  storage: Storage,
  media: NewMedia,
  {
    maxBytes = MEDIA_MAX_BYTES,
    recorded,
  }: {
    maxBytes?: number
    /** Runs in the transaction that records the file (the console's audit entry). */
    recorded?: (media: OperatorMedia) => Promise<void>
  } = {},
): Promise<OperatorMedia> {
  const { head, body, counted } = sniffable(media.data, maxBytes)
  const { contentType, kind } = await mediaTypeOf(await head, media.backing ?? false)
  const { key, panelId } = await mediaTarget(db, { ...media, kind })
  await storage.put(key, body, contentType)
  const values = { key, panelId, kind, contentType, size: counted() }
  return db.transaction(async () => {
    const [row] = await db
      .insert(mediaFiles)
      .values(values)
      .onConflictDoUpdate({
        target: mediaFiles.key,
        set: { ...values, createdAt: new Date() },
      })
      .returning()
    if (!row) throw new Error('media insert returned no row')
    const media = presentOperator(row)
    await recorded?.(media)
    return media
  })
}

/**
 * What a file is, from its first bytes (at least the first 4,100, or all of a shorter file):
 * one of the types we take, and so a video or a backing track. Throws in the operator's words
 * otherwise, or when a video is offered as the backing track.
 */
export async function mediaTypeOf(
  head: Buffer,
  backing: boolean,
): Promise<{ contentType: (typeof MEDIA_CONTENT_TYPES)[number]; kind: MediaKind }> {
  // Only operators add media, so the sniffer is loaded then rather than at start-up.
  const { fileTypeFromBuffer } = await import('file-type')
  const sniffed = await fileTypeFromBuffer(head)
  // file-type names WAV 'audio/wav' and some M4A files 'audio/x-m4a'; both are what we accept.
  const mime = sniffed?.mime === 'audio/x-m4a' ? 'audio/mp4' : sniffed?.mime
  const contentType = MEDIA_CONTENT_TYPES.find((type) => type === mime)
  if (!contentType) throw new AppError(415, 'media.unsupportedType')
  const isAudio = contentType.startsWith('audio/')
  if (backing && !isAudio) throw new AppError(400, 'media.backingMustBeAudio')
  return { contentType, kind: isAudio ? 'backing' : 'video' }
}

/**
 * Where a file will be stored, checked before any byte is: its key (a backing track's always
 * carries the spec's marker) and its panel, which must exist. Throws in the operator's words.
 */
export async function mediaTarget(
  db: Database,
  media: { name: string; panelId?: string | null; kind: MediaKind },
): Promise<{ key: string; panelId: string | null }> {
  const panelId = media.panelId ?? null
  if (panelId) {
    const [panel] = await db.select({ id: panels.id }).from(panels).where(eq(panels.id, panelId))
    if (!panel) throw new AppError(404, 'panels.notFound')
  }
  let name = safeName(media.name)
  if (media.kind === 'backing' && !name.includes(BACKING_TRACK_MARKER)) {
    name = `${BACKING_TRACK_MARKER}-${name}`
  }
  return { key: `${MEDIA_PREFIX}${name}`, panelId }
}

function presentOperator(row: MediaRow): OperatorMedia {
  return {
    key: row.key,
    kind: row.kind,
    panelId: row.panelId,
    contentType: row.contentType,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
  }
}

/** Every recorded media file, by key. */
export async function listMedia(db: Database): Promise<OperatorMedia[]> {
  const rows = await db.select().from(mediaFiles).orderBy(asc(mediaFiles.key))
  return rows.map(presentOperator)
}

/** Removes the file and its record; false when no such media file was recorded. */
export async function removeMedia(
  db: Database,
  storage: Storage,
  key: string,
  /** Runs in the transaction that forgets the file (the console's audit entry). */
  removed?: (media: OperatorMedia) => Promise<void>,
): Promise<boolean> {
  const row = await db.transaction(async () => {
    const [deleted] = await db.delete(mediaFiles).where(eq(mediaFiles.key, key)).returning()
    if (deleted) await removed?.(presentOperator(deleted))
    return deleted
  })
  if (!row) return false
  await storage.delete(key)
  return true
}

// The signing key is derived, so a media link can never be confused with (or help forge) any
// other value signed with the auth secret.
const signingKey = (secret: string) =>
  createHmac('sha256', secret).update('harmonize/media-links/v1').digest()

const signatureOf = (secret: string, key: string, expires: number) =>
  createHmac('sha256', signingKey(secret)).update(`${key}\n${expires}`).digest('base64url')

/**
 * A link to a media file that works without a session until `expires` (epoch seconds):
 * `/api/media/{key}?expires=…&signature=…`.
 */
export function signMediaUrl(
  secret: string,
  key: string,
  expires = Math.floor(Date.now() / 1000) + MEDIA_LINK_SECONDS,
): string {
  const encodedKey = key.split('/').map(encodeURIComponent).join('/')
  return `/api/media/${encodedKey}?expires=${expires}&signature=${signatureOf(secret, key, expires)}`
}

/** True when the signature is ours for this key and expiry, and the expiry has not passed. */
export function verifyMediaSignature(
  secret: string,
  key: string,
  expires: number,
  signature: string,
): boolean {
  if (!Number.isInteger(expires) || expires * 1000 <= Date.now()) return false
  const given = Buffer.from(signature)
  const expected = Buffer.from(signatureOf(secret, key, expires))
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * The media for a session on `panelId` (or any panel): a random video among the panel's own
 * and the shared ones, the backing track (the panel's own first, then the newest shared one),
 * and every file for saving offline. Only files with bytes are listed (spec §5). The caller
 * checks access first.
 */
export async function harmonizeMedia(
  db: Database,
  secret: string,
  panelId: string | undefined,
): Promise<HarmonizeMedia> {
  const rows = await db
    .select()
    .from(mediaFiles)
    .where(gt(mediaFiles.size, 0))
    .orderBy(asc(mediaFiles.key))
  const expires = Math.floor(Date.now() / 1000) + MEDIA_LINK_SECONDS
  const present = (row: MediaRow): MediaItem => ({
    key: row.key,
    url: signMediaUrl(secret, row.key, expires),
    size: row.size,
    contentType: row.contentType,
    kind: row.kind,
    panelId: row.panelId,
  })
  const forPanel = (row: MediaRow) => !panelId || row.panelId === null || row.panelId === panelId
  const videos = rows.filter((row) => row.kind === 'video' && forPanel(row))
  const backings = rows
    .filter((row) => row.kind === 'backing' && row.key.includes(BACKING_TRACK_MARKER))
    .filter(forPanel)
    .sort(
      (a, b) =>
        Number(b.panelId !== null) - Number(a.panelId !== null) ||
        b.createdAt.getTime() - a.createdAt.getTime(),
    )
  const video = videos.length ? videos[randomInt(videos.length)] : undefined
  const backing = backings[0]
  return {
    video: video ? present(video) : null,
    backing: backing ? present(backing) : null,
    all: rows.map(present),
  }
}

/** The recorded media file under `key`, or null. */
export async function findMedia(db: Database, key: string): Promise<MediaRow | null> {
  const [row] = await db.select().from(mediaFiles).where(eq(mediaFiles.key, key))
  return row ?? null
}
