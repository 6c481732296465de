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

describe('locale catalogues', () => {
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
