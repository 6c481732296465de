import { sql } from 'drizzle-orm'
import {
  bigint,
  char,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'
import { users } from './auth'

type Localized = { en: string; es: string }

/** The 16 themed panels. Seeded from db/seed/panels-content.ts; texts in both languages. */
export const panels = pgTable(
  'panel',
  {
    id: char('id', { length: 2 }).primaryKey(),
    position: integer('position').notNull(),
    solfeggioHz: integer('solfeggio_hz').notNull(),
    icon: text('icon').notNull(),
    palette: jsonb('palette').$type<[string, string, string]>().notNull(),
    name: jsonb('name').$type<Localized>().notNull(),
    description: jsonb('description').$type<Localized>().notNull(),
    info: jsonb('info').$type<Localized>().notNull(),
    ingredients: jsonb('ingredients').$type<{ en: string[]; es: string[] }>().notNull(),
  },
  (table) => [
    check(
      'panel_solfeggio_hz_check',
      sql`${table.solfeggioHz} in (174, 285, 396, 417, 528, 639, 741, 852, 963)`,
    ),
  ],
)

/** The nine affirmations that rotate during every session. */
export const affirmations = pgTable('affirmation', {
  id: text('id').primaryKey(),
  position: integer('position').notNull(),
  text: jsonb('text').$type<Localized>().notNull(),
})

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
