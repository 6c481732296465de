import { randomInt } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { clientRecords, clientScans } from '../../../db/schema/clients'
import {
  AURA_PICTURES,
  CHAKRAS,
  type ClientScan,
  READING_MAX,
  READING_MIN,
} from '../../../domain/clients'
import { AppError } from '../../errors'

// Scans are generated, as the spec says (random numbers and a random picture), and PRODUCT.md
// has every scan screen say so. What the server adds: the aura pictures of a client never
// repeat until all 98 were shown, and every scan is kept with the client.

const HISTORY_LIMIT = 200

type ScanRow = typeof clientScans.$inferSelect

function presentScan(scan: ScanRow): ClientScan {
  return {
    id: scan.id,
    kind: scan.kind,
    createdAt: scan.createdAt.toISOString(),
    signature: scan.signature,
    auraPicture: scan.auraPicture,
    chakras: scan.chakras,
  }
}

async function saveScan(db: Database, values: typeof clientScans.$inferInsert) {
  const [scan] = await db.insert(clientScans).values(values).returning()
  if (!scan) throw new Error('scan insert returned no row')
  return presentScan(scan)
}

/** The user's own client, locked until the transaction ends; anyone else's is "not found". */
async function lockedClient(db: Database, userId: string, clientId: string) {
  const [record] = await db
    .select({ id: clientRecords.id, auraPicturesLeft: clientRecords.auraPicturesLeft })
    .from(clientRecords)
    .where(and(eq(clientRecords.id, clientId), eq(clientRecords.userId, userId)))
    .for('update')
  if (!record) throw new AppError(404, 'clients.notFound')
  return record
}

/**
 * An aura scan: one of the 98 pictures, drawn from those this client has not been shown in the
 * current round (a new round starts once all were shown), saved with the signature.
 */
export async function auraScan(
  db: Database,
  userId: string,
  clientId: string,
  signature: string | null,
): Promise<ClientScan> {
  return db.transaction(async () => {
    const record = await lockedClient(db, userId, clientId)
    const left = record.auraPicturesLeft.length
      ? record.auraPicturesLeft
      : Array.from({ length: AURA_PICTURES }, (_, index) => index + 1)
    const picked = randomInt(left.length)
    const auraPicture = left[picked] as number
    await db
      .update(clientRecords)
      .set({ auraPicturesLeft: left.filter((_, index) => index !== picked) })
      .where(eq(clientRecords.id, clientId))
    return saveScan(db, { clientId, kind: 'aura', signature, auraPicture })
  })
}

/** A chakra scan: a whole number from 100 to 999 for each of the seven, saved with the client. */
export async function chakraScan(
  db: Database,
  userId: string,
  clientId: string,
  signature: string | null,
): Promise<ClientScan> {
  return db.transaction(async () => {
    await lockedClient(db, userId, clientId)
    const chakras = CHAKRAS.map(() => randomInt(READING_MIN, READING_MAX + 1))
    return saveScan(db, { clientId, kind: 'chakra', signature, chakras })
  })
}

/** The client's scans, newest first (the last 200). */
export async function clientScanHistory(
  db: Database,
  userId: string,
  clientId: string,
): Promise<ClientScan[]> {
  const [owned] = await db
    .select({ id: clientRecords.id })
    .from(clientRecords)
    .where(and(eq(clientRecords.id, clientId), eq(clientRecords.userId, userId)))
  if (!owned) throw new AppError(404, 'clients.notFound')
  const rows = await db
    .select()
    .from(clientScans)
    .where(eq(clientScans.clientId, clientId))
    .orderBy(desc(clientScans.createdAt), desc(clientScans.id))
    .limit(HISTORY_LIMIT)
  return rows.map(presentScan)
}
