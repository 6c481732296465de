import { sql } from 'drizzle-orm'
import { char, check, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core'

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
