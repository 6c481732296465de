/** Interface languages, in the order the selector offers them. English is the fallback. */
export const LANGUAGES = ['en', 'es'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'en'

/** Each language named in itself, as the selector shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' }

/**
 * The cookie that carries a language chosen in the app, so the server can send its pages in it
 * before any JavaScript runs. Without it, the server goes by Accept-Language.
 */
export const LANGUAGE_COOKIE = 'harmonize-language'

/** The language of a page request: the choice made in the app, else Accept-Language. */
export function pageLanguage(
  cookieHeader: string | undefined,
  acceptLanguage: string | undefined,
): Language {
  const chosen = cookieHeader
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1]
  return isLanguage(chosen) ? chosen : pickLanguage(acceptLanguage)
}

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
