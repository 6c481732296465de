import { describe, expect, it } from 'vitest'
import { pageLanguage, pickLanguage } from './i18n'

describe('pickLanguage', () => {
  it('answers in English when the browser says nothing', () => {
    expect(pickLanguage(undefined)).toBe('en')
    expect(pickLanguage(null)).toBe('en')
    expect(pickLanguage('')).toBe('en')
  })

  it('picks a supported language named directly', () => {
    expect(pickLanguage('es')).toBe('es')
    expect(pickLanguage('en')).toBe('en')
  })

  it('maps regional tags to their language', () => {
    expect(pickLanguage('es-MX')).toBe('es')
    expect(pickLanguage('ES-es')).toBe('es')
    expect(pickLanguage('en-GB')).toBe('en')
  })

  it('honours q-values over the order of the header', () => {
    expect(pickLanguage('en;q=0.5, es;q=0.9')).toBe('es')
    expect(pickLanguage('es-MX;q=0.4, en-US;q=0.8')).toBe('en')
    expect(pickLanguage('fr-FR, fr;q=0.9, es;q=0.8, en;q=0.7')).toBe('es')
  })

  it('keeps the header order between equal q-values', () => {
    expect(pickLanguage('es, en')).toBe('es')
    expect(pickLanguage('en, es')).toBe('en')
  })

  it('ignores languages the user refused with q=0', () => {
    expect(pickLanguage('es;q=0, en;q=0.1')).toBe('en')
  })

  it('falls back to English for unsupported languages', () => {
    expect(pickLanguage('fr')).toBe('en')
    expect(pickLanguage('de-DE, ja;q=0.8')).toBe('en')
    expect(pickLanguage('*')).toBe('en')
  })
})

describe('pageLanguage', () => {
  it('takes the language chosen in the app over the browser’s', () => {
    expect(pageLanguage('a=1; harmonize-language=es', 'en-US,en;q=0.9')).toBe('es')
    expect(pageLanguage('harmonize-language=en', 'es')).toBe('en')
  })

  it('goes by Accept-Language without a choice, or with one it does not know', () => {
    expect(pageLanguage(undefined, 'es-MX')).toBe('es')
    expect(pageLanguage('harmonize-language=fr', 'es')).toBe('es')
    expect(pageLanguage('other-harmonize-language=es', undefined)).toBe('en')
  })
})
