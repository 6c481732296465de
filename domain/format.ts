import type { Currency } from './billing'
import type { Language } from './i18n'

// Dates, amounts and numbers as each language writes them, for every screen, mail and PDF
// (issue 29; docs/decisions/0033-dates-and-amounts-as-each-language-writes-them.md). One
// place, so a mail, the PDF and the screen never disagree about the same invoice.

/**
 * The locale each interface language formats with. Money in English uses world English, which
 * writes US dollars as `US$` (the app is sold outside the US too, where `$` alone is a peso or
 * another dollar); dates in English read as in the US, `December 23, 2026`.
 */
const MONEY_LOCALES: Record<Language, string> = { en: 'en-001', es: 'es' }
const DATE_LOCALES: Record<Language, string> = { en: 'en-US', es: 'es' }

/** A missing price amount is charged, and so shown, as 100 cents (spec core §3). */
export const FALLBACK_CENTS = 100

// Building a formatter loads the locale's data; each one is built once and kept.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`
  let format = formatters.get(key) as Intl.NumberFormat | undefined
  if (!format) {
    format = new Intl.NumberFormat(locale, options)
    formatters.set(key, format)
  }
  return format
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options)
    formatters.set(key, format)
  }
  return format
}

/** An amount in cents: `US$15.00` in English, `15,00 US$` in Spanish. */
export function formatMoney(
  cents: number | null | undefined,
  language: Language,
  currency: Currency = 'usd',
): string {
  const amount = Math.round(cents ?? FALLBACK_CENTS) / 100
  return numberFormat(MONEY_LOCALES[language], {
    style: 'currency',
    currency: currency.toUpperCase(),
  }).format(amount)
}

const asDate = (value: string | Date) => (typeof value === 'string' ? new Date(value) : value)

/**
 * A calendar day in a sentence or a document: `December 23, 2026`, `23 de diciembre de 2026`.
 * Billing days are UTC days, as the provider counts them and as the invoice PDF and the mails
 * say, so a member in any time zone reads the same day everywhere.
 */
export function formatDay(value: string | Date, language: Language): string {
  return dateFormat(DATE_LOCALES[language], { dateStyle: 'long', timeZone: 'UTC' }).format(
    asDate(value),
  )
}

/** A month of a year, such as a card's expiry: `November 2026`, `noviembre de 2026`. */
export function formatMonth(year: number, month: number, language: Language): string {
  return dateFormat(DATE_LOCALES[language], {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, 1)))
}

/** A day in a table or a list, shorter: `Dec 23, 2026`, `23 dic 2026` (UTC, as `formatDay`). */
export function formatShortDay(value: string | Date, language: Language): string {
  return dateFormat(DATE_LOCALES[language], { dateStyle: 'medium', timeZone: 'UTC' }).format(
    asDate(value),
  )
}

/**
 * A moment with its time, in the viewer's own time zone unless one is given:
 * `Nov 26, 2026, 1:44 PM`, `26 nov 2026, 13:44`.
 */
export function formatDateTime(
  value: string | Date,
  language: Language,
  timeZone?: string,
): string {
  return dateFormat(DATE_LOCALES[language], {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(asDate(value))
}

/** A plain number: `1,234.5`, `1234,5` (Spanish groups from five digits). */
export function formatNumber(
  value: number,
  language: Language,
  options: Intl.NumberFormatOptions = {},
): string {
  return numberFormat(DATE_LOCALES[language], options).format(value)
}

/** A time of day alone, in the viewer's zone: `1:44 PM`, `13:44`. */
export function formatTime(value: string | Date, language: Language): string {
  return dateFormat(DATE_LOCALES[language], { timeStyle: 'short' }).format(asDate(value))
}

/** A file's size as people read it: `136 byte`, `820 kB`, `12.4 MB`, `1,5 GB` (decimal units). */
export function formatFileSize(bytes: number, language: Language): string {
  const [value, unit] =
    bytes >= 1e9
      ? [bytes / 1e9, 'gigabyte']
      : bytes >= 1e6
        ? [bytes / 1e6, 'megabyte']
        : bytes >= 1e3
          ? [bytes / 1e3, 'kilobyte']
          : [bytes, 'byte']
  return numberFormat(DATE_LOCALES[language], {
    style: 'unit',
    unit,
    maximumFractionDigits: 1,
  }).format(value)
}
