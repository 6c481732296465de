import { createRequire } from 'node:module'
import countryNames from 'i18n-iso-countries'
import { iso31662 } from 'iso-3166'
import type { Language } from '../../../domain/i18n'
import type { Country, State } from '../../../domain/reference'

// Country names come from i18n-iso-countries (CLDR-based, kept up to date upstream) and the
// first-level subdivisions from iso-3166 (the ISO 3166-2 list), so nothing is hand-typed and
// nothing sits in the database to drift from them. service.ts loads this module on first use.
const require = createRequire(import.meta.url)
countryNames.registerLocale(require('i18n-iso-countries/langs/en.json'))
countryNames.registerLocale(require('i18n-iso-countries/langs/es.json'))

const sortedCountries = new Map<Language, Country[]>()

/** All countries, named and sorted alphabetically in the given language. */
export function listCountries(language: Language): Country[] {
  let list = sortedCountries.get(language)
  if (!list) {
    const collator = new Intl.Collator(language)
    list = Object.entries(countryNames.getNames(language))
      .map(([code, name]) => ({ code, name }))
      .sort((a, b) => collator.compare(a.name, b.name))
    sortedCountries.set(language, list)
  }
  return list
}

export const isCountry = (code: string): boolean => countryNames.isValid(code)

// Only the first level (a region whose parent is the country itself): a billing address names
// a state or province, not a district inside it.
const statesByCountry = new Map<string, State[]>()
{
  const collator = new Intl.Collator('en')
  for (const { code, name, parent } of iso31662) {
    if (parent.length !== 2) continue
    const states = statesByCountry.get(parent) ?? []
    states.push({ code, name })
    statesByCountry.set(parent, states)
  }
  for (const states of statesByCountry.values()) {
    states.sort((a, b) => collator.compare(a.name, b.name))
  }
}

/** The country's states, provinces or regions; empty where ISO 3166-2 lists none. */
export const listStates = (country: string): State[] => statesByCountry.get(country) ?? []

/**
 * Whether `state` may go in an address in `country`: one of its listed names, or anything
 * (including nothing) where no list exists.
 */
export function isStateOf(country: string, state: string): boolean {
  const states = statesByCountry.get(country)
  return !states || states.some((listed) => listed.name === state)
}
