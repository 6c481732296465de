import type { Language } from '../../../domain/i18n'
import type { Country, State } from '../../../domain/reference'

// The lists hold about 2 MB of names once loaded, and only billing addresses need them: they are
// read on the first request that does, not at start-up.
const lists = () => import('./lists')

/** All countries, named and sorted alphabetically in the given language. */
export async function listCountries(language: Language): Promise<Country[]> {
  return (await lists()).listCountries(language)
}

export async function isCountry(code: string): Promise<boolean> {
  return (await lists()).isCountry(code)
}

/** The country's states, provinces or regions; empty where ISO 3166-2 lists none. */
export async function listStates(country: string): Promise<State[]> {
  return (await lists()).listStates(country)
}

/**
 * Whether `state` may go in an address in `country`: one of its listed names, or anything
 * (including nothing) where no list exists.
 */
export async function isStateOf(country: string, state: string): Promise<boolean> {
  return (await lists()).isStateOf(country, state)
}
