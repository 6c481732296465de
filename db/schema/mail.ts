import { index, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * The local outbox: with no SMTP_URL, every message is kept here (and logged) and listed at
 * /dev/mailbox, so the product runs end to end on one machine.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** What was attached (name, type, size); the files themselves are not kept. */
    attachments: jsonb('attachments')
      .$type<{ filename: string; contentType: string; bytes: number }[]>()
      .notNull()
      .default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('mail_outbox_to_idx').on(table.to)],
)
