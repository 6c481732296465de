import { loadFeatureTexts } from '../../lib/i18n'

const CATALOGUES = {
  en: () => import('./locales/en.json'),
  es: () => import('./locales/es.json'),
}

/**
 * Settles once billing's texts are there in the current language (see loadFeatureTexts): the
 * pages with money (My Account, the billing pages, /home's plan banner) wait for them, and
 * /login never downloads them.
 */
export const billingTextsReady = () => loadFeatureTexts(CATALOGUES)
