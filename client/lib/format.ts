import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Currency } from '../../domain/billing'
import {
  formatDateTime,
  formatDay,
  formatFileSize,
  formatMoney,
  formatNumber,
  formatShortDay,
  formatTime,
} from '../../domain/format'
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../domain/i18n'

export interface Formats {
  language: Language
  money: (cents: number | null | undefined, currency?: Currency) => string
  day: (value: string | Date) => string
  shortDay: (value: string | Date) => string
  dateTime: (value: string | Date, timeZone?: string) => string
  time: (value: string | Date) => string
  number: (value: number, options?: Intl.NumberFormatOptions) => string
  fileSize: (bytes: number) => string
}

/** domain/format.ts in the language the page is shown in; a new language re-renders with it. */
export function useFormat(): Formats {
  const { i18n } = useTranslation()
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE
  return useMemo(
    () => ({
      language,
      money: (cents, currency) => formatMoney(cents, language, currency),
      day: (value) => formatDay(value, language),
      shortDay: (value) => formatShortDay(value, language),
      dateTime: (value, timeZone) => formatDateTime(value, language, timeZone),
      time: (value) => formatTime(value, language),
      number: (value, options) => formatNumber(value, language, options),
      fileSize: (bytes) => formatFileSize(bytes, language),
    }),
    [language],
  )
}
