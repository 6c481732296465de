import { loadFeatureTexts } from '../../lib/i18n'

const CATALOGUES = {
  en: () => import('./locales/en.json'),
  es: () => import('./locales/es.json'),
}

/** Settles once this feature's texts are there in the current language (see loadFeatureTexts). */
export const leavingTextsReady = () => loadFeatureTexts(CATALOGUES)
