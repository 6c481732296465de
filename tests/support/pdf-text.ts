import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

// PDFs are read back with pdf.js, the reader Firefox uses, so tests see the text a person would
// see (or copy), not PDFKit's internals.

const require = createRequire(import.meta.url)
const standardFontDataUrl = `${pathToFileURL(join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')).href}/`

export interface ReadPdf {
  pages: number
  /** Each page's text, one string per printed line (items on the same baseline, left to right). */
  lines: string[][]
  /** All lines, one per line of text. */
  text: string
  /** All lines joined by spaces: wrapped paragraphs read as written. */
  flow: string
  info: Record<string, unknown>
}

/** One space for any run of white space (no-break spaces included), trimmed. */
export function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** The text of a PDF, line by line, as a reader shows it. */
export async function readPdf(buffer: Buffer): Promise<ReadPdf> {
  const loading = getDocument({
    data: new Uint8Array(buffer),
    standardFontDataUrl,
    verbosity: 0,
  })
  const pdf = await loading.promise
  const lines: string[][] = []
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number)
    const content = await page.getTextContent()
    const rows = new Map<number, { x: number; str: string }[]>()
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue
      const y = Math.round(item.transform[5])
      const row = rows.get(y) ?? []
      row.push({ x: item.transform[4], str: item.str })
      rows.set(y, row)
    }
    lines.push(
      [...rows.entries()]
        .sort(([a], [b]) => b - a)
        .map(([, row]) =>
          normaliseSpace(
            row
              .sort((a, b) => a.x - b.x)
              .map((item) => item.str)
              .join(' '),
          ),
        ),
    )
  }
  const { info } = await pdf.getMetadata()
  await loading.destroy()
  return {
    pages: pdf.numPages,
    lines,
    text: lines.flat().join('\n'),
    flow: lines.flat().join(' '),
    info: info as Record<string, unknown>,
  }
}
