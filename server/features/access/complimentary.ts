import { randomUUID } from 'node:crypto'
import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { qualified } from '../../../db/qualified'
import { complimentaryAccess } from '../../../db/schema/access'
import type { Complimentary } from '../../../domain/members'
import { AppError } from '../../errors'

// Complimentary access: given and ended by an operator from the console, never by the member.
// The console calls these inside its own transaction, beside the audit entry, and tells access
// once it has committed (accessChanged).

/**
 * The grants still giving access: not ended, with no end or an end still to come. The access
 * rule in SQL (sources.ts) reads the same condition.
 */
export const complimentaryInForce: SQL = sql`${qualified(complimentaryAccess.endedAt)} is null
  and (${qualified(complimentaryAccess.endsAt)} is null
    or ${qualified(complimentaryAccess.endsAt)} > now())`

const present = (row: typeof complimentaryAccess.$inferSelect): Complimentary => ({
  reason: row.reason,
  grantedBy: row.grantedBy,
  grantedAt: row.grantedAt.toISOString(),
  endsAt: row.endsAt?.toISOString() ?? null,
})

/** The member's complimentary access in force, if any. */
export async function currentComplimentary(
  db: Database,
  userId: string,
): Promise<Complimentary | null> {
  const [row] = await db
    .select()
    .from(complimentaryAccess)
    .where(and(eq(complimentaryAccess.userId, userId), complimentaryInForce))
    .orderBy(desc(complimentaryAccess.grantedAt))
    .limit(1)
  return row ? present(row) : null
}

/** Gives complimentary access until `endsAt` (or until ended); refused while one is in force. */
export async function grantComplimentary(
  db: Database,
  grant: { userId: string; reason: string; endsAt: Date | null; by: string },
): Promise<Complimentary> {
  if (await currentComplimentary(db, grant.userId)) {
    throw new AppError(409, 'members.complimentaryActive')
  }
  const [row] = await db
    .insert(complimentaryAccess)
    .values({
      id: randomUUID(),
      userId: grant.userId,
      reason: grant.reason,
      grantedBy: grant.by,
      endsAt: grant.endsAt,
    })
    .returning()
  if (!row) throw new Error('complimentary access was not written')
  return present(row)
}

/** Ends the complimentary access in force now; what it was, for the audit log. */
export async function endComplimentary(
  db: Database,
  end: { userId: string; reason: string; by: string },
): Promise<Complimentary> {
  const [row] = await db
    .update(complimentaryAccess)
    .set({ endedAt: new Date(), endedBy: end.by, endReason: end.reason })
    .where(and(eq(complimentaryAccess.userId, end.userId), complimentaryInForce))
    .returning()
  if (!row) throw new AppError(409, 'members.complimentaryNone')
  return present(row)
}
