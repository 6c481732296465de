import { z } from 'zod/mini'
import { LANGUAGES } from './i18n'

export const countriesQuerySchema = z.object({
  /** Overrides Accept-Language for the names. */
  lang: z.optional(z.enum(LANGUAGES)),
})

/** ISO 3166-1 alpha-2, upper case, e.g. `ES`. */
export const countryCodeSchema = z.string().check(z.regex(/^[A-Z]{2}$/))

export const countrySchema = z.object({
  code: countryCodeSchema,
  name: z.string(),
})
export type Country = z.infer<typeof countrySchema>

export const countriesResponseSchema = z.object({ countries: z.array(countrySchema) })

export const statesParamsSchema = z.object({ country: countryCodeSchema })

export const stateSchema = z.object({
  /** ISO 3166-2 code, e.g. `ES-AN`. */
  code: z.string(),
  /** The name ISO publishes, in the country's own language; it is what addresses and invoices show. */
  name: z.string(),
})
export type State = z.infer<typeof stateSchema>

export const statesResponseSchema = z.object({ states: z.array(stateSchema) })
