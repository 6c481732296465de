import Languages from 'lucide-react/icons/languages'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../domain/i18n'
import { useFirstPageShown } from '../../lib/after-first-page'
import { currentLanguage, setLanguage } from '../../lib/i18n'
import { useNotifications } from '../../lib/notifications'
import { useSession } from '../../lib/session'

/**
 * A native select: keyboard, screen readers and phone pickers work out of the box, and it costs
 * no script (a popup-menu library was a fifth of the first-render budget).
 */
export function LanguageSelector() {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const { user } = useSession()
  // The choice shows at once while its catalogue arrives; the texts switch when it is there.
  const [choosing, setChoosing] = useState<Language | null>(null)

  const handleChange = (value: string) => {
    if (!isLanguage(value)) return
    setChoosing(value)
    // The account's endpoints load only when a member switches: every page's header has this.
    if (user) {
      void import('../../features/account/public')
        .then(({ saveAccountLanguage }) => saveAccountLanguage(value))
        .catch(() => {})
    }
    setLanguage(value)
      .catch(() => notify('error', t('common.networkError')))
      .finally(() => setChoosing(null))
  }

  const ready = useFirstPageShown()

  return (
    <label className="relative flex items-center gap-1.5 rounded-full px-2 py-1.5 sm:px-3 text-sm font-medium focus-within:bg-white/15 hover:bg-white/15">
      <Languages aria-hidden className="hidden size-5 sm:block" />
      <span className="sr-only">{t('header.chooseLanguage')}</span>
      <select
        // Picked before the page's code has run, a language would show with nothing switched.
        disabled={!ready}
        value={choosing ?? currentLanguage()}
        aria-busy={choosing ? true : undefined}
        onChange={(event) => handleChange(event.target.value)}
        data-testid="language-select"
        className="cursor-pointer appearance-none bg-transparent pr-1 font-medium text-white outline-none [&>option]:text-slate-900"
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  )
}
