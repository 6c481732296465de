import { loadFeatureTexts } from '../../lib/i18n'

// The information pages' long texts: a chunk per language that only these pages wait for, so
// they never weigh on the first render of /login.
const CATALOGUES = {
  en: () => import('./locales/en.json'),
  es: () => import('./locales/es.json'),
}

/** Settles once the information pages' texts are there in the current language. */
export const infoTextsReady = () => loadFeatureTexts(CATALOGUES)
