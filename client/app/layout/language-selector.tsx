import { Languages } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../../domain/i18n'
import { currentLanguage, setLanguage } from '../../lib/i18n'

/**
 * A native select: keyboard, screen readers and phone pickers work out of the box, and it costs
 * no script (a popup-menu library was a fifth of the first-render budget).
 */
export function LanguageSelector() {
  const { t } = useTranslation()
  return (
    <label className="relative flex items-center gap-1.5 rounded-full px-2 py-1.5 sm:px-3 text-sm font-medium focus-within:bg-white/15 hover:bg-white/15">
      <Languages aria-hidden className="hidden size-5 sm:block" />
      <span className="sr-only">{t('header.chooseLanguage')}</span>
      <select
        value={currentLanguage()}
        onChange={(event) => {
          if (isLanguage(event.target.value)) setLanguage(event.target.value)
        }}
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
