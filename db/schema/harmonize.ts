import { bigint, char, index, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './auth'
import { panels } from './panels'

/** One harmonizing session: which panel, when it started, when (if) it completed. */
export const harmonizeSessions = pgTable(
  'harmonize_session',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    panelId: char('panel_id', { length: 2 })
      .notNull()
      .references(() => panels.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('harmonize_session_user_idx').on(table.userId, table.startedAt)],
)

/** Optional uploaded media: videos for panels (or all panels) and the backing track. */
export const mediaFiles = pgTable('media_file', {
  key: text('key').primaryKey(),
  /** Null: usable with every panel. */
  panelId: char('panel_id', { length: 2 }).references(() => panels.id),
  kind: text('kind', { enum: ['video', 'backing'] }).notNull(),
  contentType: text('content_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
