import { useTranslation } from 'react-i18next'
import { consoleMessageText, isConsoleMessageKey } from '../../../domain/console-messages'
import { isLanguage } from '../../../domain/i18n'
import { useMessageText } from '../../lib/messages'

/** Like useMessageText, with the console's own rules' texts too (domain/console-messages.ts). */
export function useConsoleMessageText(): (message: string | undefined) => string {
  const { i18n } = useTranslation()
  const shared = useMessageText()
  const language = isLanguage(i18n.language) ? i18n.language : 'en'
  return (message) =>
    message && isConsoleMessageKey(message)
      ? consoleMessageText(message, language)
      : shared(message)
}
