import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { mediaUploads } from '../../../db/schema/admin'
import type { OperatorMedia } from '../../../domain/harmonize'
import {
  MEDIA_PART_BYTES,
  type MediaUpload,
  type MediaUploadRequest,
} from '../../../domain/media-uploads'
import { AppError } from '../../errors'
import { mediaTarget, mediaTypeOf, SNIFF_BYTES } from '../harmonize/public'
import type { Actor } from './audit'
import { uploadMedia } from './media'

// The console sends a file in parts, each its own request (ADR 0032): a part arrives well within
// the server's request time-out on any link, one lost on the way is sent again alone, and any
// server behind a balancer can take any part, as they wait in the shared storage. The last call
// puts them together into the media file, through the same path as the CLI's `media add`.

const UPLOADS_PREFIX = 'uploads/'
/** An upload nobody sent a part to for this long is dropped with its parts. */
const ABANDONED_MS = 24 * 60 * 60_000
/** Parts with no upload are left this long, so an upload started a moment ago keeps its first. */
const ORPHAN_MS = 60 * 60_000

type UploadRow = typeof mediaUploads.$inferSelect

const partsOf = (size: number) => Math.ceil(size / MEDIA_PART_BYTES)
const partKey = (id: string, index: number) =>
  `${UPLOADS_PREFIX}${id}/${String(index).padStart(5, '0')}`
/** How long part `index` of a file of `size` bytes must be: all full but the last. */
const partLength = (size: number, index: number) =>
  index < partsOf(size) - 1 ? MEDIA_PART_BYTES : size - MEDIA_PART_BYTES * (partsOf(size) - 1)

/** Opens an upload: where the file goes is checked now, before any byte is sent. */
export async function startUpload(
  app: FastifyInstance,
  actor: Actor,
  input: MediaUploadRequest,
): Promise<MediaUpload> {
  await dropAbandonedUploads(app)
  await mediaTarget(app.db, {
    name: input.name,
    panelId: input.panelId,
    kind: input.backing ? 'backing' : 'video',
  })
  const id = randomUUID()
  await app.db.insert(mediaUploads).values({
    id,
    operatorId: actor.id,
    name: input.name,
    panelId: input.panelId,
    backing: input.backing,
    size: input.size,
  })
  return { id, partBytes: MEDIA_PART_BYTES, parts: partsOf(input.size) }
}

/** The operator's own upload still taking parts; another operator's is as good as missing. */
const isOpen = (actor: Actor, id: string) =>
  and(
    eq(mediaUploads.id, id),
    eq(mediaUploads.operatorId, actor.id),
    isNull(mediaUploads.claimedAt),
  )

async function openUpload(app: FastifyInstance, actor: Actor, id: string): Promise<UploadRow> {
  const [row] = await app.db.select().from(mediaUploads).where(isOpen(actor, id))
  if (!row) throw new AppError(404, 'media.uploadNotFound')
  return row
}

/**
 * Keeps one part. The first is sniffed as it arrives, so a file we do not take is refused
 * (and its upload dropped) before the rest is sent. Sending a part again replaces it.
 */
export async function putPart(
  app: FastifyInstance,
  actor: Actor,
  id: string,
  index: number,
  data: Buffer,
): Promise<void> {
  const upload = await openUpload(app, actor, id)
  if (index >= partsOf(upload.size) || data.length !== partLength(upload.size, index)) {
    throw new AppError(400, 'media.partInvalid')
  }
  let contentType = upload.contentType
  if (index === 0) {
    try {
      ;({ contentType } = await mediaTypeOf(data.subarray(0, SNIFF_BYTES), upload.backing))
    } catch (error) {
      await dropUpload(app, upload.id)
      throw error
    }
  }
  await app.storage.put(partKey(id, index), data, 'application/octet-stream')
  const [still] = await app.db
    .update(mediaUploads)
    .set({ contentType, updatedAt: new Date() })
    .where(isOpen(actor, id))
    .returning({ id: mediaUploads.id })
  if (!still) {
    // Stopped or being put together while this part was stored: it would be nobody's.
    await app.storage.delete(partKey(id, index))
    throw new AppError(404, 'media.uploadNotFound')
  }
}

/**
 * Puts the parts together into the media file and records it (with its audit entry). The upload
 * is claimed first, so a second call, a late part or a Stop finds nothing, and it is gone with
 * its parts afterwards however this ends.
 */
export async function completeUpload(
  app: FastifyInstance,
  actor: Actor,
  id: string,
): Promise<OperatorMedia> {
  const [upload] = await app.db
    .update(mediaUploads)
    .set({ claimedAt: new Date() })
    .where(isOpen(actor, id))
    .returning()
  if (!upload) throw new AppError(404, 'media.uploadNotFound')
  let body: Readable | null = null
  try {
    const stored = await app.storage.list(`${UPLOADS_PREFIX}${id}/`)
    const parts = partsOf(upload.size)
    const complete =
      stored.length === parts &&
      stored.every(
        (part, index) =>
          part.key === partKey(id, index) && part.size === partLength(upload.size, index),
      )
    if (!complete) throw new AppError(409, 'media.partsMissing')
    const storage = app.storage
    async function* joined() {
      for (let index = 0; index < parts; index++) {
        const part = await storage.open(partKey(id, index))
        if (!part) throw new AppError(409, 'media.partsMissing')
        yield* part.stream()
      }
    }
    body = Readable.from(joined(), { objectMode: false })
    return await uploadMedia(app, actor, {
      name: upload.name,
      panelId: upload.panelId,
      backing: upload.backing,
      body,
    })
  } finally {
    // Refused after its first bytes were read (its panel removed meanwhile), the stream would
    // keep a part open.
    body?.destroy()
    await dropUpload(app, id)
  }
}

/** Stops an upload: its parts are deleted. Stopping one that is gone already is no error. */
export async function cancelUpload(app: FastifyInstance, actor: Actor, id: string) {
  const [upload] = await app.db
    .delete(mediaUploads)
    .where(isOpen(actor, id))
    .returning({ id: mediaUploads.id })
  if (upload) await dropParts(app, upload.id)
}

async function dropUpload(app: FastifyInstance, id: string) {
  await app.db.delete(mediaUploads).where(eq(mediaUploads.id, id))
  await dropParts(app, id)
}

async function dropParts(app: FastifyInstance, id: string) {
  for (const part of await app.storage.list(`${UPLOADS_PREFIX}${id}/`)) {
    await app.storage.delete(part.key)
  }
}

/**
 * Uploads left behind (a closed tab, a lost link, a server stopped while joining) are dropped
 * when the next one starts, with any parts that no upload owns.
 */
export async function dropAbandonedUploads(app: FastifyInstance, now = new Date()) {
  // One being put together counts from when that began (a long join is not abandoned).
  await app.db
    .delete(mediaUploads)
    .where(
      lt(
        sql`coalesce(${mediaUploads.claimedAt}, ${mediaUploads.updatedAt})`,
        new Date(now.getTime() - ABANDONED_MS),
      ),
    )
  const open = new Set(
    (await app.db.select({ id: mediaUploads.id }).from(mediaUploads)).map((row) => row.id),
  )
  for (const part of await app.storage.list(UPLOADS_PREFIX)) {
    const id = part.key.slice(UPLOADS_PREFIX.length).split('/')[0] ?? ''
    if (!open.has(id) && now.getTime() - part.updatedAt.getTime() > ORPHAN_MS) {
      await app.storage.delete(part.key)
    }
  }
}
