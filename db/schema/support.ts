import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth'

/**
 * What a member wrote to the support team from /send-mail, kept as it was sent (the mail goes to
 * the team's inbox; this is what the console shows on the member's page, beside their account).
 * Deleted with the account.
 */
export const supportMessages = pgTable(
  'support_message',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('support_message_user_idx').on(table.userId, table.createdAt)],
)
