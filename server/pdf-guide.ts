import type { Language } from '../domain/i18n'
import {
  BOLD,
  BOTTOM_MARGIN,
  BRAND,
  CONTENT_WIDTH,
  collectPdf,
  HAIRLINE,
  INK,
  MARGIN,
  MUTED,
  type PdfDoc,
  pageBottom,
  REGULAR,
  RIGHT,
  rule,
  type TextStyle,
} from './pdf'

// The layout every guide PDF shares (the scan guides of features/clients, the How-To guides of
// features/info): a header, an intro, a tinted notice band, sections of paragraphs, steps,
// bullets and two-column tables, and numbered footers, in the house style of pdf.ts. It lives
// beside pdf.ts, not in a feature, because features may not import each other's internals;
// each feature keeps its own texts. PDFKit's built-in Helvetica is used: its WinAnsi encoding
// covers English and Spanish, so there is no font to ship.

/** One piece of a section, kept together on one page. */
export type GuideBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'steps'; items: string[] }
  | { kind: 'bullets'; items: string[] }
  /** Two columns: a name in bold and a short description. */
  | { kind: 'pairs'; items: [string, string][] }

export interface GuideSection {
  heading: string
  blocks: GuideBlock[]
}

/** Everything printed in one guide, in one language. */
export interface GuideText {
  title: string
  subtitle: string
  /** The name the browser offers when the guide is saved (ASCII: it goes in a header). */
  fileName: string
  intro: string
  /** The boxed note near the top, e.g. that the scan readings are generated at random. */
  notice: { heading: string; text: string }
  sections: GuideSection[]
  page: (page: number, pages: number) => string
}

/** What a family of guides sets for itself. */
export interface GuideLayout {
  /** The name column of `pairs` tables, in points: wide enough for the family's longest name. */
  pairNameWidth: number
}

const BRAND_NAME = 'Harmonize'
// The guides' edition: their creation date, so the same text always gives the same bytes.
const EDITION = new Date('2026-03-01T00:00:00.000Z')

const NOTICE_FILL = '#eef3fa'

const BODY_SIZE = 10.5
const LINE_GAP = 2.5
// Step numbers and bullets hang in this indent, the text wraps beside them.
const INDENT = 20
const ITEM_GAP = 5
const BLOCK_GAP = 8
const SECTION_GAP = 16
const PAIR_GAP = 5
const NOTICE_PADDING = 12

const BODY: TextStyle = { size: BODY_SIZE, lineGap: LINE_GAP }

/**
 * A renderer for one family of guides: `render(guide, language)` gives the guide as an A4 PDF,
 * drawn on first use and then served from memory. The same guide and language always give the
 * same bytes.
 */
export function guidePdfRenderer<Guide extends string>(
  textOf: (guide: Guide, language: Language) => GuideText,
  layout: GuideLayout,
): (guide: Guide, language: Language) => Promise<Buffer> {
  // Rendered once per guide and language: the text never changes while the process runs. The
  // promise is kept, so requests that arrive together share one rendering.
  const rendered = new Map<string, Promise<Buffer>>()
  return (guide, language) => {
    const key = `${guide}:${language}`
    let pdf = rendered.get(key)
    if (!pdf) {
      pdf = drawGuide(textOf(guide, language), language, layout)
      // A failed rendering is not kept: the next request tries again.
      pdf.catch(() => rendered.delete(key))
      rendered.set(key, pdf)
    }
    return pdf
  }
}

async function drawGuide(texts: GuideText, language: Language, layout: GuideLayout) {
  // Loaded on the first guide asked for: it costs about 6 MB and 0.1 s at start-up otherwise.
  const { default: PDFDocument } = await import('pdfkit')
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    // Page numbers need the page count, known only once everything is laid out.
    bufferPages: true,
    lang: language,
    displayTitle: true,
    info: {
      Title: texts.title,
      Subject: texts.subtitle,
      Author: BRAND_NAME,
      Creator: BRAND_NAME,
      CreationDate: EDITION,
    },
  })
  const done = collectPdf(doc)

  let y = drawHeader(doc, texts)
  y += put(doc, texts.intro, MARGIN, y, BODY) + SECTION_GAP - 4
  y = drawNotice(doc, texts.notice, y) + SECTION_GAP
  for (const section of texts.sections) y = drawSection(doc, section, y, layout)
  drawFooters(doc, texts)

  doc.end()
  return done
}

/** The brand, the title and the subtitle over a rule; returns the y below it. */
function drawHeader(doc: PdfDoc, texts: GuideText): number {
  let y = MARGIN
  y += put(doc, BRAND_NAME, MARGIN, y, { font: BOLD, size: 11, color: BRAND }) + 6
  y += put(doc, texts.title, MARGIN, y, { font: BOLD, size: 24, color: BRAND }) + 4
  y += put(doc, texts.subtitle, MARGIN, y, { size: 11.5, color: MUTED }) + 10
  rule(doc, y, BRAND, 1.25)
  return y + 16
}

/** The boxed note near the top; returns its bottom. */
function drawNotice(doc: PdfDoc, note: GuideText['notice'], top: number): number {
  const width = CONTENT_WIDTH - 2 * NOTICE_PADDING
  const headingStyle: TextStyle = { font: BOLD, size: 11, color: BRAND, width }
  const textStyle: TextStyle = { ...BODY, width }
  const height =
    NOTICE_PADDING +
    measure(doc, note.heading, headingStyle) +
    4 +
    measure(doc, note.text, textStyle) +
    // The measured text ends with a line gap: take it off so the padding looks even.
    NOTICE_PADDING -
    LINE_GAP
  // A tinted band with a brand-coloured edge: it stands out without alarming.
  doc.save().rect(MARGIN, top, CONTENT_WIDTH, height).fill(NOTICE_FILL).restore()
  doc.save().rect(MARGIN, top, 3, height).fill(BRAND).restore()
  const x = MARGIN + NOTICE_PADDING
  let y = top + NOTICE_PADDING
  y += put(doc, note.heading, x, y, headingStyle) + 4
  put(doc, note.text, x, y, textStyle)
  return top + height
}

/**
 * A heading and its blocks. A section that fits on a page is kept on one; a longer one breaks
 * between blocks only, with the heading kept with the first. Returns the y below the section.
 */
function drawSection(doc: PdfDoc, section: GuideSection, top: number, layout: GuideLayout) {
  const headingStyle: TextStyle = { font: BOLD, size: 13, color: BRAND }
  const headingHeight = measure(doc, section.heading, headingStyle) + 6
  const heights = section.blocks.map((block) => drawBlock(doc, block, 0, false, layout))
  const sectionHeight =
    headingHeight + heights.reduce((sum, height) => sum + height + BLOCK_GAP, -BLOCK_GAP)
  const pageHeight = pageBottom(doc) - MARGIN
  let y = top
  if (sectionHeight <= pageHeight && y + sectionHeight > pageBottom(doc)) {
    doc.addPage()
    y = MARGIN
  }
  section.blocks.forEach((block, index) => {
    const needed = (index === 0 ? headingHeight : 0) + (heights[index] ?? 0)
    if (y + needed > pageBottom(doc)) {
      doc.addPage()
      y = MARGIN
    }
    if (index === 0) y += put(doc, section.heading, MARGIN, y, headingStyle) + 6
    y += drawBlock(doc, block, y, true, layout) + BLOCK_GAP
  })
  return y - BLOCK_GAP + SECTION_GAP
}

/** Draws a block at `top` (or only measures it, when `draw` is false); returns its height. */
function drawBlock(
  doc: PdfDoc,
  block: GuideBlock,
  top: number,
  draw: boolean,
  layout: GuideLayout,
): number {
  const write = (text: string, x: number, y: number, style: TextStyle) =>
    draw ? put(doc, text, x, y, style) : measure(doc, text, style)
  const itemStyle: TextStyle = { ...BODY, width: CONTENT_WIDTH - INDENT }
  let y = top
  switch (block.kind) {
    case 'paragraph':
      return write(block.text, MARGIN, y, BODY)
    case 'steps':
    case 'bullets':
      block.items.forEach((item, index) => {
        if (index > 0) y += ITEM_GAP
        const marker = block.kind === 'steps' ? `${index + 1}.` : '•'
        const markerStyle: TextStyle = { ...BODY, font: BOLD, color: BRAND, width: INDENT }
        if (draw) put(doc, marker, MARGIN, y, markerStyle)
        y += write(item, MARGIN + INDENT, y, itemStyle)
      })
      return y - top
    case 'pairs': {
      const nameStyle: TextStyle = { ...BODY, font: BOLD, width: layout.pairNameWidth }
      const x = MARGIN + INDENT + layout.pairNameWidth
      const descriptionStyle: TextStyle = { ...BODY, width: RIGHT - x }
      block.items.forEach(([name, description], index) => {
        if (index > 0) {
          // A hairline between rows, halfway across the gap (the line gap sits below the text).
          if (draw) rule(doc, y + (PAIR_GAP - LINE_GAP) / 2, HAIRLINE, 0.5, MARGIN + INDENT)
          y += PAIR_GAP
        }
        y += Math.max(
          write(name, MARGIN + INDENT, y, nameStyle),
          write(description, x, y, descriptionStyle),
        )
      })
      return y - top
    }
  }
}

function drawFooters(doc: PdfDoc, texts: GuideText) {
  const range = doc.bufferedPageRange()
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index)
    // Writing inside the bottom margin would make PDFKit start a new page: lift it meanwhile.
    const margin = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    const y = doc.page.height - 40
    rule(doc, y - 8, HAIRLINE, 0.5)
    const style: TextStyle = { size: 8, color: MUTED }
    put(doc, `${BRAND_NAME} · ${texts.title}`, MARGIN, y, { ...style, width: 300 })
    const pageLabel = texts.page(index - range.start + 1, range.count)
    put(doc, pageLabel, RIGHT - 150, y, { ...style, width: 150, align: 'right' })
    doc.page.margins.bottom = margin
  }
}

function textOptions(style: TextStyle) {
  return {
    width: style.width ?? CONTENT_WIDTH,
    align: style.align ?? 'left',
    lineGap: style.lineGap ?? 0,
  }
}

/** The height text would take, without drawing it. */
function measure(doc: PdfDoc, text: string, style: TextStyle): number {
  doc.font(style.font ?? REGULAR).fontSize(style.size ?? 10)
  return doc.heightOfString(text, textOptions(style))
}

/** Writes text at an absolute position and returns the height it took. */
function put(doc: PdfDoc, text: string, x: number, y: number, style: TextStyle = {}): number {
  const options = textOptions(style)
  const height = measure(doc, text, style)
  doc.fillColor(style.color ?? INK)
  doc.text(text, x, y, options)
  return height
}
