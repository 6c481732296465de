import { loadFeatureTexts } from '../../lib/i18n'

const CATALOGUES = {
  en: () => import('./locales/en.json'),
  es: () => import('./locales/es.json'),
}

/** Settles once the console's texts are there in the current language (see loadFeatureTexts). */
export const adminTextsReady = () => loadFeatureTexts(CATALOGUES)
