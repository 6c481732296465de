import { describe, expect, it } from 'vitest'
import { normaliseSpace, readPdf } from '../tests/support/pdf-text'
import { type GuideSection, type GuideText, guidePdfRenderer } from './pdf-guide'

// The layout is read back with pdf.js, the reader Firefox uses, so these tests see what a reader
// sees. The features' own tests check their texts; these check what every guide shares.

const LAYOUT = { pairNameWidth: 90 }

const SAMPLE: GuideText = {
  title: 'Sample guide',
  subtitle: 'Every kind of block, in order',
  fileName: 'sample.pdf',
  intro: 'An introduction that comes before the notice.',
  notice: { heading: 'A note', text: 'The notice sits in a band near the top.' },
  sections: [
    {
      heading: 'Words',
      blocks: [
        { kind: 'paragraph', text: 'A paragraph of plain words.' },
        { kind: 'steps', items: ['First step.', 'Second step.'] },
        { kind: 'bullets', items: ['A bullet.', 'Another bullet.'] },
        {
          kind: 'pairs',
          items: [
            ['Name', 'its description'],
            ['Other', 'another description'],
          ],
        },
      ],
    },
  ],
  page: (page, pages) => `Page ${page} of ${pages}`,
}

// Sized so that section 3's first paragraph, with its heading, would still fit at the foot of
// page 1 and its second would not: split between blocks, the section would straddle the pages.
// (Helvetica's metrics are built into PDFKit, so the sizes do not drift.)
const paragraph = (number: number, part: string) =>
  Array.from({ length: 22 }, () => `Line ${part} of section ${number}.`).join(' ')

function tallSection(number: number): GuideSection {
  return {
    heading: `Section ${number}`,
    blocks: [
      { kind: 'paragraph', text: paragraph(number, 'one') },
      { kind: 'paragraph', text: paragraph(number, 'two') },
    ],
  }
}

describe('the guide layout', () => {
  it('prints the header, intro, notice and every kind of block in order, with metadata', async () => {
    const render = guidePdfRenderer(() => SAMPLE, LAYOUT)
    const pdf = await readPdf(await render('sample', 'en'))
    expect(pdf.pages).toBe(1)
    expect(pdf.info.Title).toBe('Sample guide')
    expect(pdf.info.Subject).toBe('Every kind of block, in order')
    expect(pdf.info.Author).toBe('Harmonize')
    expect(pdf.lines[0]).toEqual([
      'Harmonize',
      'Sample guide',
      'Every kind of block, in order',
      'An introduction that comes before the notice.',
      'A note',
      'The notice sits in a band near the top.',
      'Words',
      'A paragraph of plain words.',
      '1. First step.',
      '2. Second step.',
      '• A bullet.',
      '• Another bullet.',
      'Name its description',
      'Other another description',
      'Harmonize · Sample guide Page 1 of 1',
    ])
  })

  it('keeps a section whole on the next page and numbers every page', async () => {
    const sections = [1, 2, 3, 4].map(tallSection)
    const render = guidePdfRenderer(() => ({ ...SAMPLE, sections }), LAYOUT)
    const pdf = await readPdf(await render('long', 'en'))
    expect(pdf.pages).toBe(2)
    pdf.lines.forEach((lines, index) => {
      expect(lines.at(-1)).toBe(`Harmonize · Sample guide Page ${index + 1} of ${pdf.pages}`)
    })
    // Each section's blocks are all on the page of its heading: none was split to fill a gap.
    for (const number of [1, 2, 3, 4]) {
      const page = pdf.lines.find((lines) => lines.includes(`Section ${number}`)) ?? []
      const flow = normaliseSpace(page.join(' '))
      expect(flow).toContain(paragraph(number, 'one'))
      expect(flow).toContain(paragraph(number, 'two'))
    }
  })

  it('renders each guide and language once, and the same text to the same bytes', async () => {
    const asked: string[] = []
    const render = guidePdfRenderer((guide: 'a' | 'b', language) => {
      asked.push(`${guide}:${language}`)
      return { ...SAMPLE, title: `Guide ${guide}` }
    }, LAYOUT)
    const [first, together] = await Promise.all([render('a', 'en'), render('a', 'en')])
    expect(together).toBe(first)
    expect(await render('a', 'en')).toBe(first)
    expect(first.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect((await render('b', 'en')).equals(first)).toBe(false)
    expect((await render('a', 'es')).equals(first)).toBe(false)
    expect(asked).toEqual(['a:en', 'b:en', 'a:es'])
    // Another renderer of the same text draws it again, to the same bytes.
    const again = guidePdfRenderer(() => ({ ...SAMPLE, title: 'Guide a' }), LAYOUT)
    const redrawn = await again('a', 'en')
    expect(redrawn).not.toBe(first)
    expect(redrawn.equals(first)).toBe(true)
  })

  it('does not keep a failed rendering', async () => {
    let fail = true
    const page = (current: number, pages: number) => {
      if (fail) throw new Error('no page label')
      return `Page ${current} of ${pages}`
    }
    const render = guidePdfRenderer(() => ({ ...SAMPLE, page }), LAYOUT)
    await expect(render('sample', 'en')).rejects.toThrow('no page label')
    fail = false
    const pdf = await readPdf(await render('sample', 'en'))
    expect(pdf.flow).toContain('Page 1 of 1')
  })
})
