import { char, pgTable, text } from 'drizzle-orm/pg-core'

/** ISO 3166-1 countries, used by billing addresses. Seeded, never edited by users. */
export const countries = pgTable('countries', {
  code: char('code', { length: 2 }).primaryKey(),
  nameEn: text('name_en').notNull(),
  nameEs: text('name_es').notNull(),
})
