import type { Language } from '../../../domain/i18n'

// Birth dates are typed and shown as month/day/year in English and day/month/year in Spanish
// (issue 11), and sent as YYYY-MM-DD.

const pad = (value: number, size = 2) => String(value).padStart(size, '0')

/** YYYY-MM-DD shown in the language's order, e.g. 04/23/1985 or 23/04/1985. */
export function formatBirthDate(iso: string, language: Language): string {
  const [year, month, day] = iso.split('-')
  return language === 'en' ? `${month}/${day}/${year}` : `${day}/${month}/${year}`
}

/**
 * What the person typed, read in the language's order (any of / . - between the parts, one or
 * two digits for day and month) as YYYY-MM-DD; null when it is not a date written that way.
 * Whether the day exists and is not in the future is the shared schema's rule.
 */
export function parseBirthDate(text: string, language: Language): string | null {
  const match = /^\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})\s*$/.exec(text)
  if (!match) return null
  const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const [month, day] = language === 'en' ? [first, second] : [second, first]
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`
}
