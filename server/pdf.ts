import type PDFKit from 'pdfkit'

// The house style and plumbing every PDF we make shares (invoices, scan guides): pdfkit is
// loaded by each renderer on first use, so this module imports its types only.

export type PdfDoc = InstanceType<typeof PDFKit>

export const BRAND = '#1e4f8f'
export const INK = '#1f2933'
export const MUTED = '#616e7c'
export const HAIRLINE = '#d9e2ec'

export const REGULAR = 'Helvetica'
export const BOLD = 'Helvetica-Bold'

// A4 in points. The bottom margin leaves room for the footer, which is drawn inside it.
export const PAGE_WIDTH = 595.28
export const MARGIN = 50
export const BOTTOM_MARGIN = 58
export const RIGHT = PAGE_WIDTH - MARGIN
export const CONTENT_WIDTH = RIGHT - MARGIN

export interface TextStyle {
  font?: string
  size?: number
  color?: string
  width?: number
  align?: 'left' | 'right' | 'center'
  lineGap?: number
}

/** The document's bytes once it has ended. */
export function collectPdf(doc: PdfDoc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
}

/** A horizontal line from `left` to the right margin. */
export function rule(doc: PdfDoc, y: number, colour: string, width: number, left = MARGIN) {
  doc.save().moveTo(left, y).lineTo(RIGHT, y).lineWidth(width).strokeColor(colour).stroke()
  doc.restore()
}

/** Where the current page's text must end. */
export function pageBottom(doc: PdfDoc): number {
  return doc.page.height - doc.page.margins.bottom
}
