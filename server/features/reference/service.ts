import type { Database } from '../../../db/client'
import { countries } from '../../../db/schema/reference'
import type { Language } from '../../../domain/i18n'
import type { Country } from '../../../domain/reference'

/** All countries, named and sorted alphabetically in the given language. */
export async function listCountries(db: Database, language: Language): Promise<Country[]> {
  const rows = await db.select().from(countries)
  const collator = new Intl.Collator(language)
  return rows
    .map((row) => ({ code: row.code, name: language === 'es' ? row.nameEs : row.nameEn }))
    .sort((a, b) => collator.compare(a.name, b.name))
}
