import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LANGUAGES, type Language } from '../../../domain/i18n'
import { normaliseSpace, readPdf } from '../../../tests/support/pdf-text'
import { GUIDES, type Guide, guideFileName, guideText, renderGuidePdf, UI } from './guides'

// The guides are read back with pdf.js, the reader Firefox uses, so these tests see the text a
// practitioner would see (or copy), not PDFKit's internals.

const read = (guide: Guide, language: Language) =>
  renderGuidePdf(guide, language).then((pdf) => readPdf(pdf))

/** Every text the guide holds: headings, paragraphs, steps, bullets and table cells. */
function allTexts(guide: Guide, language: Language): string[] {
  const text = guideText(guide, language)
  const texts = [text.title, text.subtitle, text.intro, text.notice.heading, text.notice.text]
  for (const section of text.sections) {
    texts.push(section.heading)
    for (const block of section.blocks) {
      if (block.kind === 'paragraph') texts.push(block.text)
      else if (block.kind === 'pairs') texts.push(...block.items.flat())
      else texts.push(...block.items)
    }
  }
  return texts.map(normaliseSpace)
}

/** Fails unless `parts` occur in `text` in this order. */
function expectInOrder(text: string, parts: string[], from = 0) {
  let at = from
  for (const part of parts) {
    const found = text.indexOf(part, at)
    expect(found, `${JSON.stringify(part)} after position ${at}`).toBeGreaterThanOrEqual(0)
    at = found + part.length
  }
}

const CASES = GUIDES.flatMap((guide) => LANGUAGES.map((language) => ({ guide, language })))

const CHAKRA_NAMES: Record<Language, string[]> = {
  en: ['Crown', 'Brow', 'Throat', 'Heart', 'Solar', 'Sacral', 'Root'],
  es: ['Corona', 'Entrecejo', 'Garganta', 'Corazón', 'Plexo solar', 'Sacro', 'Raíz'],
}

describe('the scan guides', () => {
  it.each(CASES)(
    '$guide in $language: one or two titled pages with every text in full',
    async ({ guide, language }) => {
      const pdf = await read(guide, language)
      const { title } = guideText(guide, language)
      expect(pdf.pages).toBeGreaterThanOrEqual(1)
      expect(pdf.pages).toBeLessThanOrEqual(2)
      expect(pdf.info.Title).toBe(title)
      expect(pdf.info.Author).toBe('Harmonize')
      expect(pdf.lines[0]?.[1]).toBe(title)
      // Nothing lost to the font's encoding or to a page break: each text reads back whole.
      for (const text of allTexts(guide, language)) expect(pdf.flow).toContain(text)
    },
  )

  it.each(CASES)(
    '$guide in $language: says plainly that the readings are generated',
    async ({ guide, language }) => {
      const { flow } = await read(guide, language)
      if (language === 'en') {
        expect(flow).toContain('About the readings')
        expect(flow).toContain('generated at random, as the app says on every scan screen')
        expect(flow).toContain(
          'Nothing in Harmonize diagnoses, treats, cures or prevents any illness or condition.',
        )
      } else {
        expect(flow).toContain('Sobre las lecturas')
        expect(flow).toContain('se generan al azar, como dice la app en cada pantalla de escaneo')
        expect(flow).toContain(
          'Nada en Harmonize diagnostica, trata, cura ni previene ninguna enfermedad o afección.',
        )
      }
      // The spec's help text calls high numbers a "probability of disturbance"; we never do.
      expect(flow).not.toMatch(/disturb|perturbaci|\bheal(s|ing)?\b|\bsana/i)
    },
  )

  it.each(CASES)(
    '$guide in $language: ends with consent and privacy',
    async ({ guide, language }) => {
      const { flow } = await read(guide, language)
      if (language === 'en') {
        expectInOrder(flow, [
          'Your client’s consent and privacy',
          'kept for you, the practitioner, alone',
          'You can export a client’s record, and delete it at any time.',
        ])
      } else {
        expectInOrder(flow, [
          'El consentimiento y la privacidad de tu cliente',
          'se guardan solo para ti, el profesional',
          'Puedes exportar la ficha de un cliente y borrarla cuando quieras.',
        ])
      }
    },
  )

  it('the aura guide walks through the panels, the trays and the 98 pictures', async () => {
    const english = (await read('aura', 'en')).flow
    expectInOrder(english, [
      'Aura scan guide',
      'You see 16 panels, each with a number from 100 to 999.',
      'Numbers of 650 and above are highlighted',
      'Drag a panel to the ‘Balance Rx’ tray to work with one item',
      'or to the ‘Multi Layer Rx’ tray to layer several',
      'move the panel with its buttons instead',
      'Choose a time for the session.',
      'Press ‘START’. A harmonizing session plays',
      'The aura screen',
      'Press ‘Scan’. For 6 seconds the app shows ‘EnergyScan in progress’',
      'One of 98 aura pictures appears.',
      'every one of the 98 pictures before any picture is shown to them again',
      'Press ‘Done’ to return to the home screen.',
      'Your energetic signature (optional)',
    ])

    const spanish = (await read('aura', 'es')).flow
    expectInOrder(spanish, [
      'Guía del escaneo de aura',
      'Ves 16 paneles, cada uno con un número del 100 al 999.',
      'Los números de 650 o más aparecen resaltados',
      'Arrastra un panel a la bandeja ‘Balance Rx’ para trabajar con un solo elemento',
      'o a la bandeja ‘Multi Layer Rx’ para combinar varios',
      'mueve el panel con sus botones',
      'Elige un tiempo para la sesión.',
      'Pulsa ‘EMPEZAR’. Suena una sesión de armonización',
      'La pantalla del aura',
      'Pulsa ‘Escanear’. Durante 6 segundos la app muestra',
      'Aparece una de las 98 imágenes de aura.',
      'Un cliente ve las 98 imágenes antes de que se le repita ninguna',
      'Pulsa ‘Listo’ para volver a la pantalla de inicio.',
      'Tu firma energética (opcional)',
    ])
  })

  it('the chakra guide lists the seven chakras in order and the three highest', async () => {
    const english = (await read('chakra', 'en')).flow
    expectInOrder(english, [
      'Chakra scan guide',
      `each with its icon: ${CHAKRA_NAMES.en.join(', ')}.`,
      'Press ‘Scan’. The scan takes 6 seconds',
      'Each chakra receives a whole number from 100 to 999, generated at random.',
      'The three highest numbers are highlighted.',
      'Press ‘Done’ to return to the home screen.',
      'The seven chakras',
      ...CHAKRA_NAMES.en,
      'Your energetic signature (optional)',
    ])

    const spanish = (await read('chakra', 'es')).flow
    expectInOrder(spanish, [
      'Guía del escaneo de chakras',
      `cada uno con su icono: ${CHAKRA_NAMES.es.join(', ')}.`,
      'Pulsa ‘Escanear’. El escaneo dura 6 segundos',
      'Cada chakra recibe un número entero del 100 al 999, generado al azar.',
      'Los tres números más altos aparecen resaltados.',
      'Pulsa ‘Listo’ para volver a la pantalla de inicio.',
      'Los siete chakras',
      ...CHAKRA_NAMES.es,
      'Tu firma energética (opcional)',
    ])
  })

  it('prints the chakra table one chakra a line, in the order of the screen', async () => {
    for (const language of LANGUAGES) {
      const { lines } = await read('chakra', language)
      const table = guideText('chakra', language)
        .sections.flatMap((section) => section.blocks)
        .find((block) => block.kind === 'pairs')
      const rows = (table?.kind === 'pairs' ? table.items : []).map(([name, place]) =>
        normaliseSpace(`${name} ${place}`),
      )
      expect(rows.map((row) => row.split(' ')[0])).toEqual(
        CHAKRA_NAMES[language].map((name) => name.split(' ')[0]),
      )
      expect(lines.flat().filter((line) => rows.includes(line))).toEqual(rows)
    }
  })

  it.each(GUIDES)('the Spanish %s guide is all Spanish', async (guide) => {
    const english = await read(guide, 'en')
    const spanish = await read(guide, 'es')
    expect(spanish.flow).toContain(`Página 1 de ${spanish.pages}`)
    expect(english.flow).toContain(`Page 1 of ${english.pages}`)
    expect(spanish.flow).not.toMatch(/\b(the|and|of|Press|Page|guide|generated|client)\b/)
    expect(spanish.flow).not.toMatch(/\b(Crown|Brow|Throat|Heart|Sacral|Root)\b/)
    for (const word of ['Página', 'Pulsa', 'Antes de empezar', 'al azar', 'cliente']) {
      expect(english.flow).not.toContain(word)
    }
  })

  it('names every button as the screens do, in each language', () => {
    for (const language of LANGUAGES) {
      const screenTexts = new Set<string>()
      const collect = (value: unknown) => {
        if (typeof value === 'string') screenTexts.add(value.replace(/\.\.\.$/, '…'))
        else if (value && typeof value === 'object') Object.values(value).forEach(collect)
      }
      for (const catalogue of ['client/locales', 'client/features/clients/locales']) {
        collect(JSON.parse(readFileSync(`${catalogue}/${language}.json`, 'utf8')))
      }
      const labels = Object.values(UI[language]).map((label) =>
        label.replace(/^‘|’$/g, '').replaceAll('\u00a0', ' '),
      )
      expect(labels.filter((label) => !screenTexts.has(label))).toEqual([])
    }
  })

  it('names the files in the reader’s language', () => {
    expect(guideFileName('aura', 'en')).toBe('harmonize-aura-scan-guide.pdf')
    expect(guideFileName('chakra', 'en')).toBe('harmonize-chakra-scan-guide.pdf')
    expect(guideFileName('aura', 'es')).toBe('harmonize-guia-escaneo-aura.pdf')
    expect(guideFileName('chakra', 'es')).toBe('harmonize-guia-escaneo-chakras.pdf')
  })

  it('renders each guide once per language and then serves the same bytes', async () => {
    const [first, together] = await Promise.all([
      renderGuidePdf('chakra', 'es'),
      renderGuidePdf('chakra', 'es'),
    ])
    expect(together).toBe(first)
    expect(await renderGuidePdf('chakra', 'es')).toBe(first)
    expect(first.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const english = await renderGuidePdf('chakra', 'en')
    expect(english.equals(first)).toBe(false)
  })
})
