import { z } from 'zod/mini'
import { LANGUAGES } from './i18n'

export const countriesQuerySchema = z.object({
  /** Overrides Accept-Language for the names. */
  lang: z.optional(z.enum(LANGUAGES)),
})

export const countrySchema = z.object({
  /** ISO 3166-1 alpha-2 code, e.g. `ES`. */
  code: z.string().check(z.length(2)),
  name: z.string(),
})
export type Country = z.infer<typeof countrySchema>

export const countriesResponseSchema = z.object({ countries: z.array(countrySchema) })
