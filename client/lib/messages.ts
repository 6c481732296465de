import { useTranslation } from 'react-i18next'
import { isLanguage } from '../../domain/i18n'
import { isMessageKey, messageText } from '../../domain/messages'

/**
 * Turns a shared message key (what the domain schemas put in their errors) into text in the
 * current language; anything else is shown as it is.
 */
export function useMessageText(): (message: string | undefined) => string {
  const { i18n } = useTranslation()
  const language = isLanguage(i18n.language) ? i18n.language : 'en'
  return (message) => {
    if (!message) return ''
    return isMessageKey(message) ? messageText(message, language) : message
  }
}
