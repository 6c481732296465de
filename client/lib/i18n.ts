import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_COOKIE,
  LANGUAGES,
  type Language,
} from '../../domain/i18n'
import { prerenderedLanguage } from './prerendered'

const STORAGE_KEY = 'harmonize.language'
/** The build's prerendering (client/app/prerender.tsx) has no document and no saved choice. */
const inBrowser = typeof document !== 'undefined'

// Each catalogue is its own chunk: the first render waits for the chosen one only, and the
// other comes when the person switches (docs/strings.md).
const CATALOGUES: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('../locales/en.json'),
  es: () => import('../locales/es.json'),
}

/**
 * The saved choice, else the language of the page the server sent as HTML (the browser's
 * Accept-Language, when no choice reached it as a cookie), else the browser's first supported
 * language, else English.
 */
function initialLanguage(): Language {
  if (!inBrowser) return DEFAULT_LANGUAGE
  const saved = savedLanguage()
  if (saved) {
    rememberForServer(saved)
    return saved
  }
  const served = prerenderedLanguage()
  if (served) return served
  const preferred = navigator.languages?.map((tag) => tag.toLowerCase().split('-')[0])
  return preferred?.find(isLanguage) ?? DEFAULT_LANGUAGE
}

export const i18n = i18next.createInstance()

const language = initialLanguage()

void i18n.use(initReactI18next).init({
  resources: {},
  // Catalogues are added as they arrive; without this i18next would treat the empty start as
  // every language it will ever have.
  partialBundledLanguages: true,
  lng: language,
  // English stays the fallback in name; only the chosen catalogue is loaded, so a text missing
  // from Spanish would show its key. locales.test.ts keeps both catalogues complete instead.
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
})

if (inBrowser) {
  document.documentElement.lang = language
  i18n.on('languageChanged', (changed) => {
    document.documentElement.lang = changed
  })
}

function savedLanguage(): Language | undefined {
  try {
    const saved = localStorage.getItem(STORAGE_KEY)
    if (isLanguage(saved)) return saved
  } catch {
    // Storage can be unavailable (private mode, blocked cookies); fall through.
  }
  return undefined
}

/**
 * The choice goes to the server too, as a cookie: it picks the language of the page it sends
 * before any JavaScript runs (server/plugins/client.ts).
 */
function rememberForServer(chosen: Language) {
  const cookie = `${LANGUAGE_COOKIE}=${chosen}`
  // Written on every start, not only when missing, so it never lapses for someone who comes back.
  const secure = window.location.protocol === 'https:' ? '; Secure' : ''
  // biome-ignore lint/suspicious/noDocumentCookie: every browser has it (the Cookie Store API is not in all), and it is written before a reload can ask for the next page
  document.cookie = `${cookie}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`
}

const loading = new Map<Language, Promise<void>>()

/** Fetches a language's catalogue once and hands it to i18next. */
function loadCatalogue(wanted: Language): Promise<void> {
  let pending = loading.get(wanted)
  if (!pending) {
    pending = CATALOGUES[wanted]().then(
      ({ default: catalogue }) => {
        i18n.addResourceBundle(wanted, 'translation', catalogue, true, true)
      },
      (error: unknown) => {
        // Offline before the chunk was cached: a later switch may try again.
        loading.delete(wanted)
        throw error
      },
    )
    loading.set(wanted, pending)
  }
  return pending
}

/** Settles when the starting language's texts are there; render nothing before. */
export const i18nReady: Promise<void> = loadCatalogue(language)

type CatalogueLoaders = Record<Language, () => Promise<{ default: Record<string, unknown> }>>

const featureCatalogues = new Map<CatalogueLoaders, Map<Language, Promise<void>>>()

function loadFeatureCatalogue(loaders: CatalogueLoaders, wanted: Language): Promise<void> {
  let byLanguage = featureCatalogues.get(loaders)
  if (!byLanguage) {
    byLanguage = new Map()
    featureCatalogues.set(loaders, byLanguage)
  }
  let pending = byLanguage.get(wanted)
  if (!pending) {
    const languages = byLanguage
    pending = loaders[wanted]().then(
      ({ default: catalogue }) => {
        i18n.addResourceBundle(wanted, 'translation', catalogue, true, true)
      },
      (error: unknown) => {
        languages.delete(wanted)
        throw error
      },
    )
    byLanguage.set(wanted, pending)
  }
  return pending
}

/**
 * A feature's own texts (client/features/NAME/locales), a chunk per language: only its pages
 * show them, so they stay out of the catalogue every first render waits for (the sign-in page's
 * budget). Settles once the current language's texts are there; a later language switch waits
 * for the feature's texts in the new language too.
 */
export function loadFeatureTexts(loaders: CatalogueLoaders): Promise<void> {
  return loadFeatureCatalogue(loaders, currentLanguage())
}

/**
 * Switches the interface language and remembers the choice on this device. The switch happens
 * once the new catalogue has arrived, so no screen ever shows keys in between.
 */
export async function setLanguage(next: Language): Promise<void> {
  await Promise.all([
    loadCatalogue(next),
    ...[...featureCatalogues.keys()].map((loaders) => loadFeatureCatalogue(loaders, next)),
  ])
  if (inBrowser) {
    try {
      localStorage.setItem(STORAGE_KEY, next)
    } catch {
      // The choice still applies for this visit.
    }
    rememberForServer(next)
  }
  await i18n.changeLanguage(next)
}

/** Whether the person picked a language on this device (not just the browser's default). */
export function hasChosenLanguage(): boolean {
  return savedLanguage() !== undefined
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE
}
