import { once } from 'node:events'
import { PassThrough } from 'node:stream'
import { and, asc, desc, eq, inArray, lte, ne, or, type SQL } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import { accessCodes, complimentaryAccess } from '../../../db/schema/access'
import { users } from '../../../db/schema/auth'
import { clientPhotos, clientRecords, clientScans } from '../../../db/schema/clients'
import { harmonizeSessions } from '../../../db/schema/harmonize'
import { dataExports } from '../../../db/schema/leaving'
import { panels } from '../../../db/schema/panels'
import { supportMessages } from '../../../db/schema/support'
import { isLanguage, type Language } from '../../../domain/i18n'
import {
  type DataExport,
  dataExportPath,
  EXPORT_KEEP_DAYS,
  EXPORT_STEPS,
  type ExportStep,
} from '../../../domain/leaving'
import { AppError } from '../../errors'
import type { Rule } from '../../plugins/rate-limit'
import { billingRecordsOf, invoicePdfsOf } from '../billing/public'
import { exportReadyEmail } from './mail'

// The download of a member's data: asked for on My Account, prepared by a job into one ZIP in
// storage, mailed when ready, downloadable by its owner only, deleted after EXPORT_KEEP_DAYS.

const DAY_MS = 24 * 60 * 60_000

/** Each export mails its member; a day allows a few, for a member who lost a file. */
export const EXPORTS_PER_USER: Rule = { limit: 3, windowMs: DAY_MS }

/**
 * An export still preparing after this long has failed (its job used up its retries, or the
 * process died): the page says so and a new one may be asked for.
 */
const PREPARING_AT_MOST_MS = 60 * 60_000

/** What the export job is given: the export's id. */
export interface ExportJob {
  exportId: string
}

type ExportRow = typeof dataExports.$inferSelect

export const exportKey = (userId: string, exportId: string) => `exports/${userId}/${exportId}.zip`

function present(row: ExportRow, now = Date.now()): DataExport {
  const stale = row.status === 'preparing' && now - row.createdAt.getTime() > PREPARING_AT_MOST_MS
  const ready = row.status === 'ready'
  return {
    id: row.id,
    status: stale ? 'failed' : row.status,
    step: row.step,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    size: ready ? row.size : null,
    downloadUrl: ready ? dataExportPath(row.id) : null,
  }
}

/** The member's newest export that can still be shown (not expired), or null. */
export async function exportState(
  app: FastifyInstance,
  userId: string,
): Promise<DataExport | null> {
  const [row] = await app.db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.createdAt))
    .limit(1)
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return null
  return present(row)
}

/**
 * Starts preparing the member's data, or answers the export already being prepared (a second
 * click starts nothing). Counted, as each export ends in a mail.
 */
export async function startExport(
  app: FastifyInstance,
  queue: { send(job: ExportJob): Promise<void> },
  userId: string,
): Promise<DataExport> {
  // One that gave up (still preparing past the hour) no longer holds the member's one place.
  await app.db
    .update(dataExports)
    .set({ status: 'failed' })
    .where(
      and(
        eq(dataExports.userId, userId),
        eq(dataExports.status, 'preparing'),
        lte(dataExports.createdAt, new Date(Date.now() - PREPARING_AT_MOST_MS)),
      ),
    )
  const current = await exportState(app, userId)
  if (current?.status === 'preparing') return current
  await app.rateLimiter.consume(`data-export:${userId}`, EXPORTS_PER_USER)
  const made = await app.db.transaction(async (tx) => {
    const [row] = await tx.insert(dataExports).values({ userId }).onConflictDoNothing().returning()
    // Queued by this transaction: the row and its job are kept together or not at all.
    if (row) await queue.send({ exportId: row.id })
    return row
  })
  if (made) return present(made)
  // Another ask of the same moment made it: that one is the member's export.
  const preparing = await exportState(app, userId)
  if (!preparing) throw new Error('the export being prepared was not found')
  return preparing
}

/** A ZIP written as a stream: each file is compressed and passed on as it is added. */
function zipWriter() {
  const stream = new PassThrough()
  let bytes = 0
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      stream.destroy(error)
      return
    }
    bytes += chunk.length
    stream.write(chunk)
    if (final) stream.end()
  })
  return {
    stream,
    size: () => bytes,
    /**
     * Adds a file. Pictures and PDFs are compressed already and are stored as they are. Waits
     * while the store is behind, so a large export is never held whole in memory; `stored` ends
     * the wait when the store gave up.
     */
    async add(name: string, data: Uint8Array, stored: Promise<unknown>, compress = true) {
      const file = compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name)
      zip.add(file)
      file.push(data, true)
      if (stream.writableNeedDrain) await Promise.race([once(stream, 'drain'), stored])
    },
    end: () => zip.end(),
  }
}

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`)

/** The extension of a stored picture, from its type. */
const extensionOf = (contentType: string) =>
  contentType === 'image/webp' ? 'webp' : contentType === 'image/png' ? 'png' : 'jpg'

/**
 * The export job: writes the ZIP step by step, recording each step for the page, then marks it
 * ready, mails its member, and deletes their older exports. An export whose account was
 * deleted meanwhile leaves nothing behind.
 */
export async function prepareExport(app: FastifyInstance, exportId: string) {
  const db = app.db
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId))
  if (row?.status !== 'preparing') return
  const [user] = await db.select().from(users).where(eq(users.id, row.userId))
  if (!user) return
  const userId = user.id
  const language: Language = isLanguage(user.language) ? user.language : 'en'
  const key = exportKey(userId, exportId)
  const done = (step: ExportStep) =>
    db
      .update(dataExports)
      .set({ step: EXPORT_STEPS.indexOf(step) + 1 })
      .where(eq(dataExports.id, exportId))
  await db.update(dataExports).set({ step: 0 }).where(eq(dataExports.id, exportId))

  const zip = zipWriter()
  const stored = app.storage.put(key, zip.stream, 'application/zip')
  // Failing before the end, the stream is destroyed so the store keeps nothing of it.
  stored.catch(() => {})
  try {
    await zip.add('account.json', json(await accountRecordsOf(app, user)), stored)
    if (user.avatarKey) {
      const avatar = await app.storage.get(user.avatarKey)
      if (avatar) {
        const name = `profile-picture.${extensionOf(avatar.contentType)}`
        await zip.add(name, avatar.data, stored, false)
      }
    }
    await done('account')
    await zip.add('sessions.json', json(await sessionsOf(app, userId, language)), stored)
    await done('sessions')
    const { clients, photos } = await clientsOf(app, userId)
    await zip.add('clients.json', json(clients), stored)
    for (const photo of photos) {
      const picture = await app.storage.get(photo.storageKey)
      if (picture) await zip.add(photo.file, picture.data, stored, false)
    }
    await done('clients')
    await zip.add('billing.json', json(await billingRecordsOf(app, userId)), stored)
    for await (const invoice of invoicePdfsOf(app, userId, language)) {
      await zip.add(`invoices/${invoice.fileName}`, invoice.pdf, stored, false)
    }
    await done('invoices')
    zip.end()
    await stored
  } catch (error) {
    zip.stream.destroy(error instanceof Error ? error : new Error(String(error)))
    await stored.catch(() => {})
    throw error
  }

  const readyAt = new Date()
  const expiresAt = new Date(readyAt.getTime() + EXPORT_KEEP_DAYS * DAY_MS)
  const ready = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(dataExports)
      .set({
        status: 'ready',
        step: EXPORT_STEPS.length,
        storageKey: key,
        size: zip.size(),
        readyAt,
        expiresAt,
      })
      .where(eq(dataExports.id, exportId))
      .returning({ id: dataExports.id })
    if (!updated) return false
    await app.mailer.send({
      to: user.email,
      ...exportReadyEmail({
        language,
        name: user.name,
        link: `${app.config.publicUrl}/my-account#my-data`,
        expiresAt,
      }),
    })
    return true
  })
  // The account was deleted while the file was written: its file goes too.
  if (!ready) {
    await app.storage.delete(key)
    return
  }
  await forgetExports(app, and(eq(dataExports.userId, userId), ne(dataExports.id, exportId)))
}

async function accountRecordsOf(app: FastifyInstance, user: typeof users.$inferSelect) {
  const complimentary = await app.db
    .select({
      reason: complimentaryAccess.reason,
      grantedAt: complimentaryAccess.grantedAt,
      endsAt: complimentaryAccess.endsAt,
      endedAt: complimentaryAccess.endedAt,
    })
    .from(complimentaryAccess)
    .where(eq(complimentaryAccess.userId, user.id))
  const codes = await app.db
    .select({ code: accessCodes.code, redeemedAt: accessCodes.redeemedAt })
    .from(accessCodes)
    .where(eq(accessCodes.redeemedBy, user.id))
  const messages = await app.db
    .select({
      subject: supportMessages.subject,
      body: supportMessages.body,
      sentAt: supportMessages.createdAt,
    })
    .from(supportMessages)
    .where(eq(supportMessages.userId, user.id))
    .orderBy(asc(supportMessages.createdAt))
  return {
    format: 'harmonize-account/1',
    exportedAt: new Date().toISOString(),
    account: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailConfirmed: user.emailVerified,
      language: user.language,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
      signupCode: user.signupCode,
      profilePicture: Boolean(user.avatarKey),
    },
    accessCodes: codes,
    complimentaryAccess: complimentary,
    supportMessages: messages,
  }
}

async function sessionsOf(app: FastifyInstance, userId: string, language: Language) {
  const rows = await app.db
    .select({
      panelId: harmonizeSessions.panelId,
      panel: panels.name,
      startedAt: harmonizeSessions.startedAt,
      completedAt: harmonizeSessions.completedAt,
    })
    .from(harmonizeSessions)
    .innerJoin(panels, eq(panels.id, harmonizeSessions.panelId))
    .where(eq(harmonizeSessions.userId, userId))
    .orderBy(asc(harmonizeSessions.startedAt))
  return rows.map((row) => ({ ...row, panel: row.panel[language] }))
}

/** The member's clients with their scans, and every stored photo with its file in the ZIP. */
async function clientsOf(app: FastifyInstance, userId: string) {
  const records = await app.db
    .select()
    .from(clientRecords)
    .where(eq(clientRecords.userId, userId))
    .orderBy(asc(clientRecords.createdAt))
  const scans =
    records.length === 0
      ? []
      : await app.db
          .select()
          .from(clientScans)
          .where(
            inArray(
              clientScans.clientId,
              records.map((record) => record.id),
            ),
          )
          .orderBy(asc(clientScans.createdAt), asc(clientScans.id))
  const stored = await app.db
    .select()
    .from(clientPhotos)
    .where(eq(clientPhotos.userId, userId))
    .orderBy(asc(clientPhotos.number))
  const photos = stored.map((photo) => ({
    number: photo.number,
    storageKey: photo.storageKey,
    file: `photos/${photo.number}.jpg`,
    takenAt: photo.createdAt,
  }))
  const fileOf = (number: number | null) =>
    photos.find((photo) => photo.number === number)?.file ?? null
  const clients = records.map((record) => ({
    id: record.id,
    firstName: record.firstName,
    lastName: record.lastName,
    email: record.email,
    phone: record.phone,
    birthDate: record.birthDate,
    affirmation: record.affirmation,
    consentAt: record.consentAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    photo: fileOf(record.photoNumber),
    scans: scans
      .filter((scan) => scan.clientId === record.id)
      .map((scan) => ({
        kind: scan.kind,
        at: scan.createdAt,
        signature: scan.signature,
        auraPicture: scan.auraPicture,
        chakras: scan.chakras,
      })),
  }))
  return {
    clients: {
      clients,
      photos: photos.map(({ number, file, takenAt }) => ({ number, file, takenAt })),
    },
    photos,
  }
}

/** The ZIP of one of the member's own exports that is ready; anyone else's is "not found". */
export async function openExportFile(app: FastifyInstance, userId: string, exportId: string) {
  const [row] = await app.db
    .select()
    .from(dataExports)
    .where(
      and(
        eq(dataExports.id, exportId),
        eq(dataExports.userId, userId),
        eq(dataExports.status, 'ready'),
      ),
    )
  const live = row?.storageKey && row.expiresAt && row.expiresAt.getTime() > Date.now()
  const file = live && row.storageKey ? await app.storage.open(row.storageKey) : null
  if (!row || !file) throw new AppError(404, 'leaving.exportNotFound')
  return { file, readyAt: row.readyAt ?? row.createdAt }
}

/** Deletes the exports `which` selects, their files first. */
async function forgetExports(app: FastifyInstance, which: SQL | undefined) {
  const rows = await app.db
    .select({ id: dataExports.id, storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(which)
  for (const row of rows) {
    if (row.storageKey) await app.storage.delete(row.storageKey)
    await app.db.delete(dataExports).where(eq(dataExports.id, row.id))
  }
  return rows.length
}

/** Deletes every export past its keeping time, file and row; answers how many. */
export const forgetExpiredExports = (app: FastifyInstance, now = new Date()) =>
  forgetExports(
    app,
    or(
      lte(dataExports.expiresAt, now),
      // One that never became ready (it failed) is shown as failed for a day, then dropped.
      and(
        ne(dataExports.status, 'ready'),
        lte(dataExports.createdAt, new Date(now.getTime() - DAY_MS)),
      ),
    ),
  )
