import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Human-check solutions already used. A solution is accepted once: the insert of its signature
 * fails on the second try, in any process. Rows past `expires_at` are useless and may be deleted.
 */
export const captchaSolutions = pgTable('captcha_solution', {
  signature: text('signature').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
})
