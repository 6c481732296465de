import type { InvoiceAddress, InvoiceLine } from '../../../domain/billing-plans'
import { formatDay, formatMoney, formatShortDay } from '../../../domain/format'
import type { Language } from '../../../domain/i18n'
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
} from '../../pdf'

// The invoice as a PDF (spec core §3 "Invoice"; dates and amounts as the invoice's language
// writes them, domain/format.ts, where spec core §9 has yyyy-mm-dd and `$15.00 USD`). Drawn with PDFKit's built-in Helvetica so
// there is no font file to ship; its WinAnsi encoding covers English and Spanish.

/** Everything printed on an invoice, already resolved from the billing tables. */
export interface InvoiceDocument {
  /** The reference, e.g. `HZ-000001`. */
  number: string
  status: 'open' | 'paid' | 'void' | 'uncollectible'
  createdAt: Date
  paidAt: Date | null
  currency: 'usd'
  /** Cents. */
  subtotal: number
  /** Cents. */
  total: number
  /** Cents. */
  amountPaid: number
  /** Amounts in cents; a negative amount is a credit. */
  lines: InvoiceLine[]
  customerName: string
  customerEmail: string
  /** `country` is an ISO 3166-1 alpha-2 code; the PDF prints its name in `language`. */
  customerAddress: InvoiceAddress | null
  language: Language
}

/** Who issues the invoice, printed in its header. */
export interface Seller {
  name: string
  email: string
  website: string
}

type InvoiceStatus = InvoiceDocument['status']

interface InvoiceTexts {
  title: string
  number: string
  issued: string
  paid: string
  billTo: string
  description: string
  period: string
  amount: string
  subtotal: string
  total: string
  amountPaid: string
  amountDue: string
  page: (page: number, pages: number) => string
  status: Record<InvoiceStatus, string>
}

// Record<Language, …> makes a missing language (or a missing text in one) a type error.
const TEXTS: Record<Language, InvoiceTexts> = {
  en: {
    title: 'Invoice',
    number: 'Invoice number',
    issued: 'Date of issue',
    paid: 'Date paid',
    billTo: 'Bill to',
    description: 'Description',
    period: 'Period',
    amount: 'Amount',
    subtotal: 'Subtotal',
    total: 'Total',
    amountPaid: 'Amount paid',
    amountDue: 'Amount due',
    page: (page, pages) => `Page ${page} of ${pages}`,
    status: { paid: 'PAID', open: 'OPEN', void: 'VOID', uncollectible: 'UNCOLLECTIBLE' },
  },
  es: {
    title: 'Factura',
    number: 'Número de factura',
    issued: 'Fecha de emisión',
    paid: 'Fecha de pago',
    billTo: 'Facturar a',
    description: 'Descripción',
    period: 'Periodo',
    amount: 'Importe',
    subtotal: 'Subtotal',
    total: 'Total',
    amountPaid: 'Importe pagado',
    amountDue: 'Importe pendiente',
    page: (page, pages) => `Página ${page} de ${pages}`,
    status: { paid: 'PAGADA', open: 'PENDIENTE', void: 'ANULADA', uncollectible: 'INCOBRABLE' },
  },
}

const STATUS_COLOURS: Record<InvoiceStatus, string> = {
  paid: '#1f7a4d',
  open: '#b26a00',
  void: MUTED,
  uncollectible: '#b42318',
}

// The lines table: description, period, amount (right-aligned so the decimal points line up).
const DESCRIPTION_X = MARGIN
const DESCRIPTION_WIDTH = 250
const PERIOD_X = DESCRIPTION_X + DESCRIPTION_WIDTH + 12
const PERIOD_WIDTH = 125
const AMOUNT_X = PERIOD_X + PERIOD_WIDTH + 8
const AMOUNT_WIDTH = RIGHT - AMOUNT_X
const ROW_PADDING = 4

// The label/value blocks on the right (invoice details, totals).
const SIDE_X = 320
const SIDE_LABEL_WIDTH = 120
const SIDE_VALUE_X = SIDE_X + SIDE_LABEL_WIDTH
const SIDE_VALUE_WIDTH = RIGHT - SIDE_VALUE_X

const SELLER_SIZE = 16
const TITLE_SIZE = 26
// Helvetica's ascender, in ems (its font metrics say 718/1000).
const HELVETICA_ASCENT = 0.718

/**
 * Renders an invoice as an A4 PDF in the invoice's language; long invoices flow onto more
 * pages, each with the table header repeated and a page number. The same input gives the same
 * bytes: the document's creation date is the invoice's, and nothing else varies.
 */
export async function renderInvoicePdf(invoice: InvoiceDocument, seller: Seller): Promise<Buffer> {
  const texts = TEXTS[invoice.language]
  // Loaded on the first invoice asked for: it costs about 6 MB and 0.1 s at start-up otherwise.
  const { default: PDFDocument } = await import('pdfkit')
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
    // Page numbers need the page count, known only once everything is laid out.
    bufferPages: true,
    lang: invoice.language,
    displayTitle: true,
    info: {
      Title: `${texts.title} ${invoice.number}`,
      Author: seller.name,
      Creator: seller.name,
      CreationDate: invoice.createdAt,
    },
  })
  const done = collectPdf(doc)

  let y = drawHeader(doc, invoice, seller, texts)
  y = drawBillTo(doc, invoice, texts, y)
  y = drawLines(doc, invoice, texts, y)
  drawTotals(doc, invoice, texts, y)
  drawFooters(doc, seller, texts)

  doc.end()
  return done
}

/** Seller on the left, title and invoice details on the right; returns the y below both. */
function drawHeader(doc: PdfDoc, invoice: InvoiceDocument, seller: Seller, texts: InvoiceTexts) {
  const sellerWidth = SIDE_X - MARGIN - 20
  let left = MARGIN
  left += put(doc, seller.name, MARGIN, left, {
    font: BOLD,
    size: SELLER_SIZE,
    color: BRAND,
    width: sellerWidth,
  })
  left += 4
  left += put(doc, seller.email, MARGIN, left, { size: 9, color: MUTED, width: sellerWidth })
  left += 2
  left += put(doc, seller.website, MARGIN, left, { size: 9, color: MUTED, width: sellerWidth })

  // Start the title higher by the difference in ascent so both headings share a baseline.
  let right = MARGIN - (TITLE_SIZE - SELLER_SIZE) * HELVETICA_ASCENT
  right += put(doc, texts.title, SIDE_X, right, {
    font: BOLD,
    size: TITLE_SIZE,
    color: BRAND,
    width: RIGHT - SIDE_X,
    align: 'right',
  })
  right += 8
  const details: [string, string][] = [
    [texts.number, invoice.number],
    [texts.issued, day(invoice.createdAt, invoice.language)],
  ]
  if (invoice.paidAt) details.push([texts.paid, day(invoice.paidAt, invoice.language)])
  for (const [label, value] of details) {
    right += sideRow(doc, label, value, right, { size: 9.5 }) + 3
  }

  const bottom = Math.max(left, right) + 12
  rule(doc, bottom, BRAND, 1.25)
  return bottom + 16
}

/** The customer on the left and the status stamp facing it; returns the y below both. */
function drawBillTo(doc: PdfDoc, invoice: InvoiceDocument, texts: InvoiceTexts, top: number) {
  const width = SIDE_X - MARGIN - 20
  let y = top
  y += put(doc, texts.billTo, MARGIN, y, { font: BOLD, size: 9, color: BRAND, width }) + 4
  y += put(doc, invoice.customerName, MARGIN, y, { font: BOLD, size: 10.5, width }) + 2
  y += put(doc, invoice.customerEmail, MARGIN, y, { size: 9.5, width }) + 4
  for (const line of addressLines(invoice)) {
    y += put(doc, line, MARGIN, y, { size: 9.5, width }) + 1
  }

  const stampBottom = drawStamp(doc, invoice.status, texts, top)
  return Math.max(y, stampBottom) + 20
}

function addressLines(invoice: InvoiceDocument): string[] {
  const address = invoice.customerAddress
  if (!address) return []
  const cityLine = [address.postalCode, address.city].filter(Boolean).join(' ')
  return [
    address.line1,
    address.line2,
    cityLine,
    address.state,
    countryName(address.country, invoice.language),
  ].filter((line): line is string => Boolean(line?.trim()))
}

/** The country in the reader's language; an unknown code is printed as it is. */
function countryName(code: string, language: Language): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region', fallback: 'code' }).of(code) ?? code
  } catch {
    // A malformed code (not two letters) makes DisplayNames throw.
    return code
  }
}

/** An outlined status label, right-aligned; returns its bottom. */
function drawStamp(doc: PdfDoc, status: InvoiceStatus, texts: InvoiceTexts, top: number) {
  const label = texts.status[status]
  const colour = STATUS_COLOURS[status]
  const size = 13
  // No letter spacing: text extractors read spaced capitals as separate letters, and the
  // stamp must stay searchable and copyable.
  doc.font(BOLD).fontSize(size)
  const width = doc.widthOfString(label) + 28
  const height = size + 16
  const x = RIGHT - width
  doc.save().lineWidth(1.75).strokeColor(colour).roundedRect(x, top, width, height, 4).stroke()
  doc.restore()
  put(doc, label, x, top + 9, { font: BOLD, size, color: colour, width, align: 'center' })
  return top + height
}

/** The lines table, continued on new pages as needed; returns the y below the last row. */
function drawLines(doc: PdfDoc, invoice: InvoiceDocument, texts: InvoiceTexts, top: number) {
  let y = drawTableHeader(doc, texts, top)
  const amountStyle: TextStyle = { size: 9.5, width: AMOUNT_WIDTH, align: 'right' }
  for (const line of invoice.lines) {
    const description = winAnsi(line.description)
    const period = periodText(line, invoice.language)
    doc.font(REGULAR).fontSize(9.5)
    const height =
      Math.max(
        doc.heightOfString(description, { width: DESCRIPTION_WIDTH }),
        period ? doc.fontSize(9).heightOfString(period, { width: PERIOD_WIDTH }) : 0,
      ) +
      2 * ROW_PADDING
    if (y + height > pageBottom(doc)) {
      doc.addPage()
      y = drawTableHeader(doc, texts, MARGIN)
    }
    const textY = y + ROW_PADDING
    put(doc, description, DESCRIPTION_X, textY, { size: 9.5, width: DESCRIPTION_WIDTH })
    if (period) {
      put(doc, period, PERIOD_X, textY + 0.5, { size: 9, color: MUTED, width: PERIOD_WIDTH })
    }
    put(doc, money(line.amount, invoice), AMOUNT_X, textY, amountStyle)
    y += height
    rule(doc, y, HAIRLINE, 0.5)
  }
  return y
}

function drawTableHeader(doc: PdfDoc, texts: InvoiceTexts, top: number): number {
  const style: TextStyle = { font: BOLD, size: 9, color: BRAND }
  put(doc, texts.description, DESCRIPTION_X, top, { ...style, width: DESCRIPTION_WIDTH })
  put(doc, texts.period, PERIOD_X, top, { ...style, width: PERIOD_WIDTH })
  put(doc, texts.amount, AMOUNT_X, top, { ...style, width: AMOUNT_WIDTH, align: 'right' })
  const bottom = top + 15
  rule(doc, bottom, BRAND, 0.75)
  return bottom
}

function periodText(line: InvoiceLine, language: Language): string | null {
  const start = day(line.periodStart, language, formatShortDay)
  const end = day(line.periodEnd, language, formatShortDay)
  return start === end ? null : `${start} – ${end}`
}

/** Subtotal, total, amount paid and amount due, kept together on one page. */
function drawTotals(doc: PdfDoc, invoice: InvoiceDocument, texts: InvoiceTexts, top: number) {
  const blockHeight = 4 * 18 + 12
  let y = top + 12
  if (y + blockHeight > pageBottom(doc)) {
    doc.addPage()
    y = MARGIN
  }
  y += sideRow(doc, texts.subtotal, money(invoice.subtotal, invoice), y, { size: 9.5 }) + 5
  sideRule(doc, y, HAIRLINE, 0.5)
  y += 5
  y += sideRow(doc, texts.total, money(invoice.total, invoice), y, {
    font: BOLD,
    size: 10,
    color: INK,
  })
  y += 5
  y += sideRow(doc, texts.amountPaid, money(invoice.amountPaid, invoice), y, { size: 9.5 }) + 5
  sideRule(doc, y, BRAND, 1)
  y += 6
  sideRow(doc, texts.amountDue, money(amountDue(invoice), invoice), y, {
    font: BOLD,
    size: 11,
    color: BRAND,
  })
}

/**
 * What the customer still owes. A void invoice is cancelled, so nothing; a credit larger than
 * the charges goes to the customer's balance rather than showing a negative amount due.
 */
function amountDue(invoice: InvoiceDocument): number {
  if (invoice.status === 'void') return 0
  return Math.max(0, invoice.total - invoice.amountPaid)
}

function drawFooters(doc: PdfDoc, seller: Seller, texts: InvoiceTexts) {
  const range = doc.bufferedPageRange()
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index)
    // Writing inside the bottom margin would make PDFKit start a new page: lift it meanwhile.
    const margin = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    const y = doc.page.height - 40
    doc
      .save()
      .moveTo(MARGIN, y - 8)
      .lineTo(RIGHT, y - 8)
      .lineWidth(0.5)
      .strokeColor(HAIRLINE)
      .stroke()
      .restore()
    const style: TextStyle = { size: 8, color: MUTED }
    put(doc, `${seller.name} · ${seller.website}`, MARGIN, y, { ...style, width: 300 })
    const pageLabel = texts.page(index - range.start + 1, range.count)
    put(doc, pageLabel, RIGHT - 150, y, { ...style, width: 150, align: 'right' })
    doc.page.margins.bottom = margin
  }
}

/** A label on the left of the right-hand column and its value right-aligned; returns its height. */
function sideRow(doc: PdfDoc, label: string, value: string, y: number, style: TextStyle): number {
  const labelHeight = put(doc, label, SIDE_X, y, {
    ...style,
    color: style.color ?? MUTED,
    width: SIDE_LABEL_WIDTH,
  })
  const valueHeight = put(doc, value, SIDE_VALUE_X, y, {
    ...style,
    width: SIDE_VALUE_WIDTH,
    align: 'right',
  })
  return Math.max(labelHeight, valueHeight)
}

function sideRule(doc: PdfDoc, y: number, colour: string, width: number) {
  doc.save().moveTo(SIDE_X, y).lineTo(RIGHT, y).lineWidth(width).strokeColor(colour).stroke()
  doc.restore()
}

/** Writes text at an absolute position and returns the height it took. */
function put(doc: PdfDoc, text: string, x: number, y: number, style: TextStyle = {}): number {
  const safe = winAnsi(text)
  const width = style.width ?? CONTENT_WIDTH
  const options = { width, align: style.align ?? 'left' }
  doc
    .font(style.font ?? REGULAR)
    .fontSize(style.size ?? 10)
    .fillColor(style.color ?? INK)
  const height = doc.heightOfString(safe, options)
  doc.text(safe, x, y, options)
  return height
}

function money(cents: number, invoice: InvoiceDocument): string {
  return formatMoney(cents, invoice.language, invoice.currency)
}

/** The UTC day in the invoice's language; a string that is not a date is printed as it is. */
function day(value: Date | string, language: Language, as = formatDay): string {
  const date = typeof value === 'string' ? new Date(value) : value
  return Number.isNaN(date.getTime()) ? String(value) : as(date, language)
}

// The characters Windows-1252 puts in 0x80–0x9F; with Latin-1 (0x20–0x7E, 0xA0–0xFF) they are
// all Helvetica can show.
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')

// Letters with a stroke rather than an accent have no decomposition to fall back on.
const STROKED: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i' }

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0
  return (
    (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char)
  )
}

/**
 * Customer names and addresses may hold letters Helvetica's encoding lacks (ł, ő, 李); PDFKit
 * would write those as garbage. Keep the base letter when the character has one (ő → o) and
 * show '?' otherwise, so the rest of the line stays readable.
 */
function winAnsi(text: string): string {
  let result = ''
  for (const char of text.replace(/[\t\n\r]+/g, ' ')) {
    if (isWinAnsi(char)) {
      result += char
      continue
    }
    const stroked = STROKED[char]
    if (stroked) {
      result += stroked
      continue
    }
    const base = char.normalize('NFD').replace(/\p{M}/gu, '')
    result += base.length > 0 && [...base].every(isWinAnsi) ? base : '?'
  }
  return result
}
