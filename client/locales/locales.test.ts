import { describe, expect, it } from 'vitest'
import en from './en.json'
import es from './es.json'

function flatten(tree: object, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'object' && value !== null
        ? Object.entries(flatten(value, `${prefix}${key}.`))
        : [[`${prefix}${key}`, String(value)]],
    ),
  )
}

// Features that keep their own texts (client/features/NAME/locales), checked the same way.
const featureCatalogues = import.meta.glob<{ default: object }>('../features/*/locales/*.json', {
  eager: true,
})
const features = [
  ...new Set(Object.keys(featureCatalogues).map((file) => file.split('/')[2] ?? '')),
]
const catalogue = (feature: string, language: string) =>
  featureCatalogues[`../features/${feature}/locales/${language}.json`]?.default ?? {}

describe.each([
  { name: 'the app', en, es },
  ...features.map((feature) => ({
    name: feature,
    en: catalogue(feature, 'en'),
    es: catalogue(feature, 'es'),
  })),
])('locale catalogues of $name', ({ en, es }) => {
  const english = flatten(en)
  const spanish = flatten(es)

  it('have the same keys, so no screen falls back to English in Spanish', () => {
    expect(Object.keys(spanish).sort()).toEqual(Object.keys(english).sort())
  })

  it('have no empty texts', () => {
    for (const [key, text] of [...Object.entries(english), ...Object.entries(spanish)]) {
      expect(text.trim(), key).not.toBe('')
    }
  })

  it('use the same interpolation placeholders in both languages', () => {
    const placeholders = (text: string) => (text.match(/{{\s*\w+\s*}}/g) ?? []).sort()
    for (const [key, text] of Object.entries(english)) {
      expect(placeholders(spanish[key] ?? ''), key).toEqual(placeholders(text))
    }
  })
})

describe('feature catalogues', () => {
  it('exist for the features that keep texts, and never redefine the app’s keys', () => {
    expect(features).toContain('clients')
    const appKeys = new Set(Object.keys(en))
    for (const feature of features) {
      for (const key of Object.keys(catalogue(feature, 'en')))
        expect(appKeys.has(key), key).toBe(false)
    }
  })
})
