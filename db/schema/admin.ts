import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * What operators changed, and when, on whom, from what to what: written in the same transaction
 * as the change, and never changed or deleted (a trigger refuses it, migration 0014). The actor
 * and the member are kept by id and e-mail as they were, without a reference: an entry outlives
 * the accounts it names.
 */
export const auditEntries = pgTable(
  'audit_entry',
  {
    id: text('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The operator's account; null for the command line, run by whoever holds the server. */
    actorId: text('actor_id'),
    /** The operator's e-mail then, or `command line`. */
    actor: text('actor').notNull(),
    /** What was done, e.g. `operators.add`. */
    action: text('action').notNull(),
    memberId: text('member_id'),
    memberEmail: text('member_email'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
  },
  (table) => [
    index('audit_entry_at_idx').on(table.at),
    index('audit_entry_member_idx').on(table.memberId, table.at),
  ],
)
