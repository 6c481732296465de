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
  (table) => [index('access_code_redeemed_by_idx').on(table.redeemedBy)],
)
