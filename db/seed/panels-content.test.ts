import * as icons from 'lucide-react'
import { describe, expect, it } from 'vitest'
import { AFFIRMATIONS, type LocalizedText, PANELS } from './panels-content'

const FREQUENCIES = [174, 285, 396, 417, 528, 639, 741, 852, 963]
const LANGS = ['en', 'es'] as const

// Words that would turn a relaxation ritual into a health claim (PRODUCT.md, principle 3).
const FORBIDDEN = {
  en: [
    'cure',
    'cures',
    'heal',
    'heals',
    'healing',
    'treat',
    'treats',
    'treatment',
    'prevent',
    'prevents',
    'diagnose',
    'disease',
    'detox',
    'immune',
    'medicine',
    'medical',
    'therapy',
    'therapeutic',
  ],
  es: [
    'curar',
    'cura',
    'sanar',
    'sana',
    'sanación',
    'tratar',
    'tratamiento',
    'prevenir',
    'previene',
    'diagnosticar',
    'enfermedad',
    'desintoxicar',
    'inmune',
    'medicina',
    'médico',
    'médica',
    'terapia',
    'terapéutico',
  ],
}

/** Every text of one language: names, descriptions, infos, ingredients and affirmations. */
function allTexts(lang: 'en' | 'es'): string[] {
  const fromPanels = PANELS.flatMap((p) => [
    p.name[lang],
    p.description[lang],
    p.info[lang],
    ...p.ingredients[lang],
  ])
  return [...fromPanels, ...AFFIRMATIONS.map((a) => a.text[lang])]
}

/** Whole-word, case-insensitive, accent-aware (\b does not know that é is a letter). */
function containsWord(text: string, word: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'iu').test(text)
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16))
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0)
}

describe('PANELS', () => {
  it('has 16 panels with ids 01 to 16 in order', () => {
    expect(PANELS.map((p) => p.id)).toEqual(
      Array.from({ length: 16 }, (_, i) => String(i + 1).padStart(2, '0')),
    )
  })

  it('includes Digestion', () => {
    expect(PANELS.some((p) => p.name.en === 'Digestion' && p.name.es === 'Digestión')).toBe(true)
  })

  it('has distinct names in both languages', () => {
    for (const lang of LANGS) {
      const names = PANELS.map((p) => p.name[lang].toLowerCase())
      expect(new Set(names).size, lang).toBe(names.length)
    }
  })

  it('uses only Solfeggio frequencies, and all nine of them', () => {
    for (const p of PANELS) expect(FREQUENCIES, p.id).toContain(p.solfeggioHz)
    expect([...new Set(PANELS.map((p) => p.solfeggioHz))].sort((a, b) => a - b)).toEqual(
      FREQUENCIES,
    )
  })

  it('has three valid hex colors per panel, deep to light, none white, distinct per panel', () => {
    for (const p of PANELS) {
      expect(p.palette, p.id).toHaveLength(3)
      for (const color of p.palette) expect(color, p.id).toMatch(/^#[0-9a-f]{6}$/)
      const [deep, mid, light] = p.palette
      expect(light, p.id).not.toBe('#ffffff')
      expect(luminance(deep), p.id).toBeLessThan(luminance(mid))
      expect(luminance(mid), p.id).toBeLessThan(luminance(light))
    }
    const palettes = PANELS.map((p) => p.palette.join(','))
    expect(new Set(palettes).size).toBe(PANELS.length)
    const colors = PANELS.flatMap((p) => p.palette)
    expect(new Set(colors).size).toBe(colors.length)
  })

  it('has 8 to 15 ingredients, the same count in both languages', () => {
    for (const p of PANELS) {
      expect(p.ingredients.en.length, p.id).toBeGreaterThanOrEqual(8)
      expect(p.ingredients.en.length, p.id).toBeLessThanOrEqual(15)
      expect(p.ingredients.es.length, p.id).toBe(p.ingredients.en.length)
    }
  })

  it('repeats no ingredient within or across panels, in either language', () => {
    for (const lang of LANGS) {
      const all = PANELS.flatMap((p) => p.ingredients[lang].map((i) => i.toLowerCase()))
      const repeated = all.filter((item, index) => all.indexOf(item) !== index)
      expect(repeated, lang).toEqual([])
    }
  })

  it('keeps ingredients short (1 to 4 words in English)', () => {
    for (const p of PANELS) {
      for (const item of p.ingredients.en) {
        expect(item.split(/\s+/).length, `${p.id} ${item}`).toBeLessThanOrEqual(4)
      }
    }
  })

  it('keeps every description to one sentence of at most 120 characters', () => {
    for (const p of PANELS) {
      for (const lang of LANGS) {
        expect(p.description[lang].length, `${p.id} ${lang}`).toBeLessThanOrEqual(120)
        expect(p.description[lang].match(/[.!?](\s|$)/g), `${p.id} ${lang}`).toHaveLength(1)
      }
    }
  })

  it('writes the info as 3 to 5 sentences', () => {
    for (const p of PANELS) {
      for (const lang of LANGS) {
        const sentences = p.info[lang].match(/[.!?](\s|$)/g) ?? []
        expect(sentences.length, `${p.id} ${lang}`).toBeGreaterThanOrEqual(3)
        expect(sentences.length, `${p.id} ${lang}`).toBeLessThanOrEqual(5)
      }
    }
  })

  it('uses icon names that lucide-react exports', () => {
    const exported = icons as unknown as Record<string, unknown>
    for (const p of PANELS) {
      expect(p.icon, p.id).toMatch(/^[A-Z][A-Za-z0-9]*$/)
      expect(exported[p.icon], `${p.id} ${p.icon}`).toBeDefined()
    }
  })
})

describe('AFFIRMATIONS', () => {
  it('has nine affirmations with ids a1 to a9 in order', () => {
    expect(AFFIRMATIONS.map((a) => a.id)).toEqual(Array.from({ length: 9 }, (_, i) => `a${i + 1}`))
  })

  it('keeps each affirmation to at most 100 characters', () => {
    for (const a of AFFIRMATIONS) {
      for (const lang of LANGS)
        expect(a.text[lang].length, `${a.id} ${lang}`).toBeLessThanOrEqual(100)
    }
  })
})

describe('texts', () => {
  it('are non-empty and trimmed in both languages', () => {
    const localized: LocalizedText[] = [
      ...PANELS.flatMap((p) => [p.name, p.description, p.info]),
      ...AFFIRMATIONS.map((a) => a.text),
    ]
    for (const text of localized) {
      for (const lang of LANGS) {
        expect(text[lang].trim(), JSON.stringify(text)).not.toBe('')
        expect(text[lang], JSON.stringify(text)).toBe(text[lang].trim())
      }
    }
    for (const lang of LANGS) {
      for (const item of PANELS.flatMap((p) => p.ingredients[lang])) {
        expect(item.trim(), lang).not.toBe('')
        expect(item, lang).toBe(item.trim())
      }
    }
  })

  it('contain no em dash', () => {
    for (const lang of LANGS) {
      expect(
        allTexts(lang).filter((t) => t.includes('—')),
        lang,
      ).toEqual([])
    }
  })

  it('contain no forbidden claim word, in either language', () => {
    for (const lang of LANGS) {
      const words = [...FORBIDDEN.en, ...FORBIDDEN.es]
      const hits = allTexts(lang).flatMap((text) =>
        words.filter((word) => containsWord(text, word)).map((word) => `${word}: ${text}`),
      )
      expect(hits, lang).toEqual([])
    }
  })

  it('the claim-word guard matches whole words only, regardless of case and accents', () => {
    expect(containsWord('Water that Heals.', 'heals')).toBe(true)
    expect(containsWord('Una Sanación profunda', 'sanación')).toBe(true)
    expect(containsWord('MÉDICO', 'médico')).toBe(true)
    expect(containsWord('I care for my health', 'heal')).toBe(false)
    expect(containsWord('Alimentación', 'cura')).toBe(false)
    expect(containsWord('procurar', 'curar')).toBe(false)
  })
})
