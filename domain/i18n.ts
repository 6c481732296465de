/** Interface languages, in the order the selector offers them. English is the fallback. */
export const LANGUAGES = ['en', 'es'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'en'

/** Each language named in itself, as the selector shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' }

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/**
 * Picks the best supported language from an Accept-Language header (or a plain tag such as
 * `es-MX`), honouring q-values; falls back to English.
 */
export function pickLanguage(header: string | null | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const weight = q ? Number.parseFloat(q.slice(2)) : 1
      return {
        base: tag.toLowerCase().split('-')[0],
        weight: Number.isNaN(weight) ? 0 : weight,
        index,
      }
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  return ranked.map((entry) => entry.base).find(isLanguage) ?? DEFAULT_LANGUAGE
}
