import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { auditEntries } from '../../../db/schema/admin'
import { users } from '../../../db/schema/auth'
import { buildUser } from '../../../tests/support/factories'
import { setUpTestApp } from '../../../tests/support/test-app'
import { addOperator, listOperators } from './operators'

const testApp = setUpTestApp()

/** The database's own refusal, under the driver's wrapping of it. */
const refusedBecause = (reason: RegExp) => (error: unknown) => {
  const messages: string[] = []
  for (let at: unknown = error; at instanceof Error; at = at.cause) messages.push(at.message)
  return messages.some((message) => reason.test(message))
}
const unchangeable = refusedBecause(/audit entries are never changed or deleted/)

describe('operators and the audit log', () => {
  it('keeps every entry as it was written: the database refuses to change or delete one', async () => {
    const { app } = testApp
    const { user } = await buildUser(app)
    await addOperator(app.db, user.email)
    const written = await app.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.memberId, user.id))
    expect(written).toHaveLength(1)

    await expect(
      app.db
        .update(auditEntries)
        .set({ reason: 'rewritten' })
        .where(eq(auditEntries.memberId, user.id)),
    ).rejects.toSatisfy(unchangeable)
    await expect(
      app.db.delete(auditEntries).where(eq(auditEntries.memberId, user.id)),
    ).rejects.toSatisfy(unchangeable)
    await expect(app.db.execute(sql`truncate table audit_entry`)).rejects.toSatisfy(unchangeable)
    expect(
      await app.db.select().from(auditEntries).where(eq(auditEntries.memberId, user.id)),
    ).toEqual(written)
  })

  it('outlive the accounts they name', async () => {
    const { app } = testApp
    const { user } = await buildUser(app)
    await addOperator(app.db, user.email)
    await app.db.delete(users).where(eq(users.id, user.id))
    const [entry] = await app.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.memberId, user.id))
    expect(entry).toMatchObject({ action: 'operators.add', memberEmail: user.email })
    expect((await listOperators(app.db)).map((operator) => operator.email)).not.toContain(
      user.email,
    )
  })

  it('are members until the command line says otherwise: a role no web form can set', async () => {
    const { app } = testApp
    const { user } = await buildUser(app)
    const [row] = await app.db.select({ role: users.role }).from(users).where(eq(users.id, user.id))
    expect(row?.role).toBe('member')
    await expect(
      app.db.update(users).set({ role: 'owner' }).where(eq(users.id, user.id)),
    ).rejects.toSatisfy(refusedBecause(/user_role_check/))
  })
})
