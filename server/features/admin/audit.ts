import { randomUUID } from 'node:crypto'
import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm'
import { z } from 'zod/mini'
import type { Database } from '../../../db/client'
import { auditEntries } from '../../../db/schema/admin'
import { AUDIT_PAGE_SIZE, type AuditEntry } from '../../../domain/operators'
import { AppError } from '../../errors'
import { cursorOf, readCursor } from './cursor'

// What a cursor may hold: a time PostgreSQL can compare (ISO, years 1970 to 9999) and an id
// as the log writes them. Anything else was not made here.
const cursorSchema = z.tuple([
  z.string().check(z.regex(/^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)),
  z.string().check(z.regex(/^[\w-]{1,64}$/)),
])

function readAuditCursor(cursor: string): { at: Date; id: string } {
  const [iso, id] = readCursor(cursor, cursorSchema)
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) throw new AppError(400, 'operators.badCursor')
  return { at, id }
}

/**
 * A page of the audit log, newest first, of one member or of everyone. Pages follow the
 * entries' time and id (the index `audit_entry_at_idx`), never an offset: a page is as fast
 * deep in the log as at its start, and entries written meanwhile do not shift it.
 */
export async function auditPage(
  db: Database,
  query: { member?: string; after?: string },
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  const conditions: SQL[] = []
  if (query.member) conditions.push(eq(auditEntries.memberId, query.member))
  if (query.after) {
    const { at, id } = readAuditCursor(query.after)
    const older = or(lt(auditEntries.at, at), and(eq(auditEntries.at, at), lt(auditEntries.id, id)))
    if (older) conditions.push(older)
  }
  const rows = await db
    .select()
    .from(auditEntries)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(AUDIT_PAGE_SIZE + 1)
  const page = rows.slice(0, AUDIT_PAGE_SIZE)
  const last = page.at(-1)
  return {
    entries: page.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor: row.actor,
      action: row.action,
      memberId: row.memberId,
      memberEmail: row.memberEmail,
      before: row.before ?? null,
      after: row.after ?? null,
      reason: row.reason,
    })),
    next: rows.length > AUDIT_PAGE_SIZE && last ? cursorOf([last.at.toISOString(), last.id]) : null,
  }
}

/** Who acts: the operator's account and e-mail, as the audit log names them. */
export interface Actor {
  id: string
  email: string
}

/**
 * Writes what an operator changed to the audit log, in the caller's transaction when there is
 * one: the entry stands or falls with the change.
 */
export async function writeAudit(
  db: Database,
  actor: Actor,
  entry: {
    action: string
    member?: { id: string; email: string }
    before?: unknown
    after?: unknown
    reason?: string
  },
): Promise<void> {
  await db.insert(auditEntries).values({
    id: randomUUID(),
    actorId: actor.id,
    actor: actor.email,
    action: entry.action,
    memberId: entry.member?.id ?? null,
    memberEmail: entry.member?.email ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason ?? null,
  })
}
