import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../domain/i18n'
import en from '../locales/en.json'
import es from '../locales/es.json'

const STORAGE_KEY = 'harmonize.language'

/** The saved choice, else the browser's first supported language, else English. */
function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(STORAGE_KEY)
    if (isLanguage(saved)) return saved
  } catch {
    // Storage can be unavailable (private mode, blocked cookies); fall through.
  }
  const preferred = navigator.languages?.map((tag) => tag.toLowerCase().split('-')[0])
  return preferred?.find(isLanguage) ?? DEFAULT_LANGUAGE
}

export const i18n = i18next.createInstance()

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, es: { translation: es } },
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
})

document.documentElement.lang = i18n.language

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language
})

/** Switches the interface language and remembers the choice on this device. */
export function setLanguage(language: Language) {
  try {
    localStorage.setItem(STORAGE_KEY, language)
  } catch {
    // The choice still applies for this visit.
  }
  void i18n.changeLanguage(language)
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE
}
