import { and, asc, desc, eq, gt, gte, ilike, max, or, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../../db/client'
import { clientPhotos, clientRecords } from '../../../db/schema/clients'
import { type ClientForm, normalisePhone } from '../../../domain/client-form'
import {
  CLIENT_PHOTO_MAX_SIDE_PX,
  CLIENTS_PAGE_SIZE,
  type ClientList,
  type ClientPhoto,
  type ClientRecord,
  RECENT_PHOTO_DAYS,
} from '../../../domain/clients'
import { AppError } from '../../errors'
import { processImage } from '../../images'
import type { Rule } from '../../plugins/rate-limit'
import { presentClient, presentPhoto, presentSummary } from './presenter'

export const CLIENT_PHOTO_CONTENT_TYPE = 'image/jpeg'
export const CLIENT_PHOTO_UPLOADS_PER_USER: Rule = { limit: 60, windowMs: 60 * 60 * 1000 }
const JPEG_QUALITY = 85
const DAY_MS = 24 * 60 * 60 * 1000

/** Where photo `number` of a user lives (spec scans §3: the user's own folder, number.jpg). */
export function clientPhotoKey(userId: string, number: number): string {
  return `aura/${userId}/${number}.jpg`
}

/**
 * Re-encodes an uploaded client photo (sniffed, upright, at most 1024 px a side, JPEG without
 * metadata) and stores it under the user's next running number.
 */
export async function storeClientPhoto(
  app: FastifyInstance,
  userId: string,
  bytes: Buffer,
): Promise<ClientPhoto> {
  await app.rateLimiter.consume(`client-photo:${userId}`, CLIENT_PHOTO_UPLOADS_PER_USER)
  const jpeg = await processImage(bytes, {
    width: CLIENT_PHOTO_MAX_SIDE_PX,
    height: CLIENT_PHOTO_MAX_SIDE_PX,
    fit: 'inside',
    format: 'jpeg',
    quality: JPEG_QUALITY,
  })
  return app.db.transaction(async (tx) => {
    // One number per upload, even for two at once: they queue on the user's lock.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`client-photo:${userId}`}))`)
    const [last] = await tx
      .select({ number: max(clientPhotos.number) })
      .from(clientPhotos)
      .where(eq(clientPhotos.userId, userId))
    const number = (last?.number ?? 0) + 1
    const storageKey = clientPhotoKey(userId, number)
    // Stored inside the transaction: if the file cannot be written, no row points to it.
    await app.storage.put(storageKey, jpeg, CLIENT_PHOTO_CONTENT_TYPE)
    const [photo] = await tx.insert(clientPhotos).values({ userId, number, storageKey }).returning()
    if (!photo) throw new Error('photo insert returned no row')
    return presentPhoto(photo)
  })
}

/** The user's own photo `number`; anyone else's, or a missing one, is "not found". */
export async function readClientPhoto(
  app: FastifyInstance,
  userId: string,
  number: number,
): Promise<{ data: Buffer; contentType: string }> {
  const photo = await photoOf(app.db, userId, number)
  const stored = photo ? await app.storage.get(photo.storageKey) : null
  if (!stored) throw new AppError(404, 'clients.photoNotFound')
  return { data: stored.data, contentType: stored.contentType }
}

/** The photo stored last, if within RECENT_PHOTO_DAYS (spec scans §4: the image cookie). */
export async function recentClientPhoto(
  db: Database,
  userId: string,
  now = new Date(),
): Promise<ClientPhoto | null> {
  const [photo] = await db
    .select()
    .from(clientPhotos)
    .where(
      and(
        eq(clientPhotos.userId, userId),
        gte(clientPhotos.createdAt, new Date(now.getTime() - RECENT_PHOTO_DAYS * DAY_MS)),
      ),
    )
    .orderBy(desc(clientPhotos.createdAt), desc(clientPhotos.number))
    .limit(1)
  return photo ? presentPhoto(photo) : null
}

/** The user's photo `number`, which a record is about to show; 422 when there is none. */
async function ownPhoto(db: Database, userId: string, number: number) {
  const photo = await photoOf(db, userId, number)
  if (!photo) throw new AppError(422, 'clients.photoNotFound')
  return photo
}

function recordValues(form: ClientForm) {
  const phone = normalisePhone(form.phone, form.phoneCountry)
  // The request schema checked it already; this only narrows the type.
  if (!phone) throw new AppError(400, 'clients.phoneInvalid')
  return {
    firstName: form.firstName,
    lastName: form.lastName,
    email: form.email,
    phone,
    birthDate: form.birthDate,
    affirmation: form.affirmation,
    photoNumber: form.photoNumber,
  }
}

/** Saves a new client of the user with the photo they chose, and the consent given now. */
export async function createClient(
  db: Database,
  userId: string,
  form: ClientForm,
): Promise<ClientRecord> {
  const photo = await ownPhoto(db, userId, form.photoNumber)
  const now = new Date()
  const [record] = await db
    .insert(clientRecords)
    .values({ userId, ...recordValues(form), consentAt: now, createdAt: now, updatedAt: now })
    .returning()
  if (!record) throw new Error('client insert returned no row')
  return presentClient(record, photo)
}

async function ownRecord(db: Database, userId: string, id: string) {
  const [record] = await db
    .select()
    .from(clientRecords)
    .where(and(eq(clientRecords.id, id), eq(clientRecords.userId, userId)))
  if (!record) throw new AppError(404, 'clients.notFound')
  return record
}

async function photoOf(db: Database, userId: string, number: number | null) {
  if (!number) return null
  const [photo] = await db
    .select()
    .from(clientPhotos)
    .where(and(eq(clientPhotos.userId, userId), eq(clientPhotos.number, number)))
  return photo ?? null
}

/** One of the user's own clients; anyone else's is "not found". */
export async function getClient(db: Database, userId: string, id: string): Promise<ClientRecord> {
  const record = await ownRecord(db, userId, id)
  return presentClient(record, await photoOf(db, userId, record.photoNumber))
}

/** Replaces a client's details; the consent is given again with the form. */
export async function updateClient(
  db: Database,
  userId: string,
  id: string,
  form: ClientForm,
): Promise<ClientRecord> {
  await ownRecord(db, userId, id)
  const photo = await ownPhoto(db, userId, form.photoNumber)
  const now = new Date()
  const [record] = await db
    .update(clientRecords)
    .set({ ...recordValues(form), consentAt: now, updatedAt: now })
    .where(and(eq(clientRecords.id, id), eq(clientRecords.userId, userId)))
    .returning()
  if (!record) throw new AppError(404, 'clients.notFound')
  return presentClient(record, photo)
}

const fullName = sql<string>`lower(${clientRecords.firstName} || ' ' || ${clientRecords.lastName})`

function encodeCursor(name: string, id: string): string {
  return Buffer.from(JSON.stringify([name, id])).toString('base64url')
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      /^[0-9a-f-]{36}$/.test(value[1])
    ) {
      return [value[0], value[1]]
    }
  } catch {}
  throw new AppError(400, 'validation.invalid')
}

/** `%`, `_` and `\` stand for themselves in a search, not for ILIKE's wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

/**
 * The user's clients by full name, a page at a time (keyset pagination on the name index, so a
 * page costs the same at client 1 and client 1,000), optionally those whose name contains
 * `search`.
 */
export async function listClients(
  db: Database,
  userId: string,
  { search, cursor }: { search?: string | undefined; cursor?: string | undefined },
): Promise<ClientList> {
  const after = cursor ? decodeCursor(cursor) : null
  const rows = await db
    .select({
      id: clientRecords.id,
      firstName: clientRecords.firstName,
      lastName: clientRecords.lastName,
      photoNumber: clientRecords.photoNumber,
      name: fullName,
    })
    .from(clientRecords)
    .where(
      and(
        eq(clientRecords.userId, userId),
        search
          ? ilike(
              sql`${clientRecords.firstName} || ' ' || ${clientRecords.lastName}`,
              likePattern(search),
            )
          : undefined,
        after
          ? or(gt(fullName, after[0]), and(eq(fullName, after[0]), gt(clientRecords.id, after[1])))
          : undefined,
      ),
    )
    .orderBy(asc(fullName), asc(clientRecords.id))
    .limit(CLIENTS_PAGE_SIZE + 1)
  const page = rows.slice(0, CLIENTS_PAGE_SIZE)
  const last = page.at(-1)
  return {
    clients: page.map(presentSummary),
    nextCursor: rows.length > CLIENTS_PAGE_SIZE && last ? encodeCursor(last.name, last.id) : null,
  }
}

/**
 * Deletes a client with their scans, and their photo from storage unless another of the user's
 * clients still shows it (a photo may be offered again for the next client).
 */
export async function deleteClient(app: FastifyInstance, userId: string, id: string) {
  const { db } = app
  const orphanKey = await db.transaction(async () => {
    const record = await ownRecord(db, userId, id)
    await db.delete(clientRecords).where(eq(clientRecords.id, id))
    if (!record.photoNumber) return null
    const [stillUsed] = await db
      .select({ id: clientRecords.id })
      .from(clientRecords)
      .where(
        and(eq(clientRecords.userId, userId), eq(clientRecords.photoNumber, record.photoNumber)),
      )
      .limit(1)
    if (stillUsed) return null
    const [photo] = await db
      .delete(clientPhotos)
      .where(and(eq(clientPhotos.userId, userId), eq(clientPhotos.number, record.photoNumber)))
      .returning()
    return photo?.storageKey ?? null
  })
  // The file goes once the rows are gone for good: a failed removal leaves a file no row points
  // to (and says so in the log), never a row without its file.
  if (orphanKey) {
    await app.storage.delete(orphanKey).catch((error: unknown) => {
      app.log.warn({ err: error, key: orphanKey }, 'a deleted client photo stayed in storage')
    })
  }
}
