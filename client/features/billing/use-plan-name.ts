import { useTranslation } from 'react-i18next'
import { planName } from '../../../domain/billing'
import { DEFAULT_LANGUAGE, isLanguage } from '../../../domain/i18n'

/** A plan's label in the interface language, following a switch of language at once. */
export function usePlanName(): (label: string) => string {
  const { i18n } = useTranslation()
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE
  return (label) => planName(label, language)
}
