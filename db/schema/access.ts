import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './auth'

/** Access codes of our own: invitations at /signup/{code}, or redeemed in My Account. */
export const accessCodes = pgTable(
  'access_code',
  {
    code: text('code').primaryKey(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when a user redeems it; a code serves one user. */
    redeemedBy: text('redeemed_by').references(() => users.id, { onDelete: 'set null' }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    index('access_code_redeemed_by_idx').on(table.redeemedBy),
    // The console's list: newest first, a page after another (keyset).
    index('access_code_created_idx').on(table.createdAt, table.code),
  ],
)

/**
 * Access an operator gave a member from the console, with why, until when (or for good), and
 * who ended it early. It opens the panels whatever the member's plan says. Ended, the row stays:
 * it is the member's history, and the audit log names it.
 */
export const complimentaryAccess = pgTable(
  'complimentary_access',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    /** The operator's e-mail then. */
    grantedBy: text('granted_by').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    /** The end the operator set; null: until ended by hand. */
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** When an operator ended it before then. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: text('ended_by'),
    endReason: text('end_reason'),
  },
  (table) => [index('complimentary_access_user_idx').on(table.userId, table.grantedAt)],
)
