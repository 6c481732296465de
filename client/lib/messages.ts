import { useTranslation } from 'react-i18next'
import { isLanguage } from '../../domain/i18n'
import { resolveMessage } from '../../domain/messages'

/**
 * Turns a shared message (what the domain schemas put in their errors: a key, or a key with the
 * number its text names) into text in the current language; anything else is already text from
 * the server, in this language, and is shown as it is.
 */
export function useMessageText(): (message: string | undefined) => string {
  const { i18n } = useTranslation()
  const language = isLanguage(i18n.language) ? i18n.language : 'en'
  return (message) => {
    if (!message) return ''
    return resolveMessage(message, language) ?? message
  }
}
