import { randomUUID } from 'node:crypto'
import { asc, eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import {
  auditEntries,
  operatorFactors,
  operatorRecoveryCodes,
  sessionSecondFactors,
} from '../../../db/schema/admin'
import { users } from '../../../db/schema/auth'
import {
  COMMAND_LINE_ACTOR,
  type Operator,
  type Role,
  type RoleChange,
} from '../../../domain/operators'
import { AppError } from '../../errors'

// Who may run the service from a browser: accounts with the operator role. The role is given and
// taken by the command line only (scripts/cli-commands.ts), each change written to the audit log
// in the same transaction.

/** Makes the confirmed account with `email` an operator; an operator already stays one. */
export async function addOperator(db: Database, email: string): Promise<RoleChange> {
  return setRole(db, email, 'operator')
}

/** Makes the operator with `email` a member again; a member already stays one. */
export async function removeOperator(db: Database, email: string): Promise<RoleChange> {
  return setRole(db, email, 'member')
}

async function setRole(db: Database, email: string, role: Role): Promise<RoleChange> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        emailVerified: users.emailVerified,
      })
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()))
      // Two commands at once on one account write one entry, not two.
      .for('update')
    if (!account) throw new AppError(404, 'operators.accountNotFound')
    if (role === 'operator' && !account.emailVerified) {
      throw new AppError(409, 'operators.accountNotConfirmed')
    }
    const changed = account.role !== role
    if (changed) {
      await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, account.id))
      if (role === 'member') {
        // A member again: the authenticator, its recovery codes and the sessions' passes go,
        // and a later `operators add` starts the second factor from nothing (ADR 0029).
        await tx.delete(sessionSecondFactors).where(eq(sessionSecondFactors.userId, account.id))
        await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, account.id))
        await tx.delete(operatorFactors).where(eq(operatorFactors.userId, account.id))
      }
      await tx.insert(auditEntries).values({
        id: randomUUID(),
        actor: COMMAND_LINE_ACTOR,
        action: role === 'operator' ? 'operators.add' : 'operators.remove',
        memberId: account.id,
        memberEmail: account.email,
        before: { role: account.role },
        after: { role },
      })
    }
    return { email: account.email, name: account.name, role, changed }
  })
}

/** Every operator, by e-mail, with when the command line made them one. */
export async function listOperators(db: Database): Promise<Operator[]> {
  const since = db
    .select({
      memberId: auditEntries.memberId,
      at: sql<Date>`max(${auditEntries.at})`.as('at'),
    })
    .from(auditEntries)
    .where(eq(auditEntries.action, 'operators.add'))
    .groupBy(auditEntries.memberId)
    .as('since')
  const rows = await db
    .select({ email: users.email, name: users.name, at: since.at })
    .from(users)
    .leftJoin(since, eq(since.memberId, users.id))
    .where(eq(users.role, 'operator'))
    .orderBy(asc(users.email))
  return rows.map((row) => ({
    email: row.email,
    name: row.name,
    since: row.at ? new Date(row.at).toISOString() : null,
  }))
}
