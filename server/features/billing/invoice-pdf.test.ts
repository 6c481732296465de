import { describe, expect, it } from 'vitest'
import type { InvoiceLine } from '../../../domain/billing-plans'
import { type ReadPdf, readPdf } from '../../../tests/support/pdf-text'
import { type InvoiceDocument, renderInvoicePdf, type Seller } from './invoice-pdf'

// The PDFs are read back with pdf.js, the reader Firefox uses, so these tests see the text a
// customer or an accountant would see (or copy), not PDFKit's internals.

const seller: Seller = {
  name: 'Harmonize',
  email: 'billing@harmonize.example',
  website: 'harmonize.example',
}

function line(overrides: Partial<InvoiceLine> = {}): InvoiceLine {
  return {
    description: 'SUBSCRIPTION',
    amount: 1500,
    proration: false,
    periodStart: '2026-03-01T00:00:00.000Z',
    periodEnd: '2026-04-01T00:00:00.000Z',
    ...overrides,
  }
}

function buildInvoice(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  return {
    number: 'HZ-000001',
    status: 'paid',
    createdAt: new Date('2026-03-01T23:30:00.000Z'),
    paidAt: new Date('2026-03-02T00:15:00.000Z'),
    currency: 'usd',
    subtotal: 1000,
    total: 1000,
    amountPaid: 1000,
    lines: [
      line({ description: 'Harmonize SUBSCRIPTION', amount: 1500 }),
      line({
        description: 'Unused time on FOUR PAYMENTS',
        amount: -500,
        proration: true,
        periodStart: '2026-03-01T00:00:00.000Z',
        periodEnd: '2026-03-15T00:00:00.000Z',
      }),
    ],
    customerName: 'Ada Lovelace',
    customerEmail: 'ada@example.com',
    customerAddress: {
      line1: '12 Analytical Street',
      line2: 'Flat 3',
      city: 'Berlin',
      state: 'Berlin State',
      postalCode: '10115',
      country: 'DE',
    },
    language: 'en',
    ...overrides,
  }
}

function lineWith(read: ReadPdf, fragment: string): string {
  const found = read.lines.flat().find((text) => text.includes(fragment))
  if (!found) throw new Error(`no line contains ${JSON.stringify(fragment)} in:\n${read.text}`)
  return found
}

describe('renderInvoicePdf', () => {
  it('produces a PDF titled with the invoice number and authored by the seller', async () => {
    const buffer = await renderInvoicePdf(buildInvoice(), seller)

    expect(buffer.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const read = await readPdf(buffer)
    expect(read.info.Title).toBe('Invoice HZ-000001')
    expect(read.info.Author).toBe('Harmonize')
    expect(read.pages).toBe(1)
  })

  it('prints the seller, number, issue and paid dates in UTC, and whom it bills', async () => {
    const read = await readPdf(await renderInvoicePdf(buildInvoice(), seller))

    expect(read.text).toContain('Harmonize')
    expect(read.text).toContain('billing@harmonize.example')
    expect(read.text).toContain('harmonize.example')
    expect(read.text).toContain('Invoice')
    expect(lineWith(read, 'Invoice number')).toContain('HZ-000001')
    // 23:30 UTC is already the next day in Berlin: the date must not follow the machine's zone.
    expect(lineWith(read, 'Date of issue')).toContain('March 1, 2026')
    expect(lineWith(read, 'Date paid')).toContain('March 2, 2026')
    expect(read.text).toContain('Bill to')
    for (const text of [
      'Ada Lovelace',
      'ada@example.com',
      '12 Analytical Street',
      'Flat 3',
      '10115 Berlin',
      'Berlin State',
      'Germany',
    ]) {
      expect(read.text).toContain(text)
    }
  })

  it('prints each line with its period and amount, and a credit as a negative amount', async () => {
    const read = await readPdf(await renderInvoicePdf(buildInvoice(), seller))

    const charge = lineWith(read, 'Harmonize SUBSCRIPTION')
    expect(charge).toContain('Mar 1, 2026 – Apr 1, 2026')
    expect(charge).toMatch(/US\$15\.00$/)
    const credit = lineWith(read, 'Unused time on FOUR PAYMENTS')
    expect(credit).toContain('Mar 1, 2026 – Mar 15, 2026')
    expect(credit).toMatch(/-US\$5\.00$/)
  })

  it('leaves the period out when a line covers a single day', async () => {
    const oneDay = line({
      description: 'One-off',
      periodStart: '2026-03-05T08:00:00.000Z',
      periodEnd: '2026-03-05T08:00:00.000Z',
    })
    const read = await readPdf(await renderInvoicePdf(buildInvoice({ lines: [oneDay] }), seller))

    expect(lineWith(read, 'One-off')).toBe('One-off US$15.00')
  })

  it('prints subtotal, total, amount paid and amount due', async () => {
    const invoice = buildInvoice({
      status: 'open',
      paidAt: null,
      subtotal: 123456,
      total: 123456,
      amountPaid: 456,
      lines: [line({ amount: 123456 })],
    })
    const read = await readPdf(await renderInvoicePdf(invoice, seller))

    expect(lineWith(read, 'Subtotal')).toContain('US$1,234.56')
    expect(read.lines.flat()).toContain('Total US$1,234.56')
    expect(lineWith(read, 'Amount paid')).toContain('US$4.56')
    expect(lineWith(read, 'Amount due')).toContain('US$1,230.00')
    expect(read.text).not.toContain('Date paid')
  })

  it('owes nothing on a void invoice', async () => {
    const invoice = buildInvoice({ status: 'void', paidAt: null, amountPaid: 0 })
    const read = await readPdf(await renderInvoicePdf(invoice, seller))

    expect(lineWith(read, 'Amount due')).toContain('US$0.00')
  })

  it('prints a Spanish invoice with Spanish labels, accents and country name', async () => {
    const invoice = buildInvoice({
      language: 'es',
      customerName: 'José Núñez',
      lines: [line({ description: 'Suscripción mensual ¡Gracias! ¿Dudas?', amount: 1000 })],
    })
    const buffer = await renderInvoicePdf(invoice, seller)
    const read = await readPdf(buffer)

    expect(read.info.Title).toBe('Factura HZ-000001')
    expect(read.text).toContain('Factura')
    expect(lineWith(read, 'Número de factura')).toContain('HZ-000001')
    expect(lineWith(read, 'Fecha de emisión')).toContain('1 de marzo de 2026')
    expect(lineWith(read, 'Fecha de pago')).toContain('2 de marzo de 2026')
    expect(read.text).toContain('Facturar a')
    expect(read.text).toContain('José Núñez')
    expect(read.text).toContain('Alemania')
    expect(read.text).not.toContain('Germany')
    expect(read.text).toContain('Descripción')
    expect(read.text).toContain('Importe')
    expect(lineWith(read, 'Suscripción mensual ¡Gracias! ¿Dudas?')).toMatch(/10,00\sUS\$/)
    expect(lineWith(read, 'Importe pagado')).toMatch(/10,00\sUS\$/)
    expect(lineWith(read, 'Importe pendiente')).toMatch(/0,00\sUS\$/)
    expect(read.text).toContain('Página 1 de 1')
    expect(read.text).toContain('PAGADA')
    expect(read.text).not.toContain('Invoice')
  })

  it.each([
    ['en', 'paid', 'PAID'],
    ['en', 'open', 'OPEN'],
    ['en', 'void', 'VOID'],
    ['en', 'uncollectible', 'UNCOLLECTIBLE'],
    ['es', 'paid', 'PAGADA'],
    ['es', 'open', 'PENDIENTE'],
    ['es', 'void', 'ANULADA'],
    ['es', 'uncollectible', 'INCOBRABLE'],
  ] as const)('stamps a %s %s invoice %s', async (language, status, stamp) => {
    const invoice = buildInvoice({
      language,
      status,
      paidAt: status === 'paid' ? new Date() : null,
    })
    const read = await readPdf(await renderInvoicePdf(invoice, seller))

    expect(read.lines.flat()).toContain(stamp)
  })

  it('keeps 20 lines on one page', async () => {
    const lines = Array.from({ length: 20 }, (_, index) =>
      line({ description: `Installment ${index + 1}` }),
    )
    const read = await readPdf(await renderInvoicePdf(buildInvoice({ lines }), seller))

    expect(read.pages).toBe(1)
    expect(read.text).toContain('Page 1 of 1')
  })

  it('flows 30 lines onto a second page, repeating the table header', async () => {
    const lines = Array.from({ length: 30 }, (_, index) =>
      line({ description: `Installment ${index + 1}`, amount: 100 * (index + 1) }),
    )
    const read = await readPdf(await renderInvoicePdf(buildInvoice({ lines }), seller))

    expect(read.pages).toBe(2)
    const [first = [], second = []] = read.lines
    expect(first.join('\n')).toContain('Page 1 of 2')
    expect(second.join('\n')).toContain('Page 2 of 2')
    expect(second.join('\n')).toMatch(/Description Period Amount/)
    for (let index = 1; index <= 30; index++) {
      expect(lineWith(read, `Installment ${index} `)).toContain(formatUsd(100 * index))
    }
    expect(second.join('\n')).toContain('Amount due')
  })

  it('gives the same bytes for the same invoice', async () => {
    const first = await renderInvoicePdf(buildInvoice(), seller)
    const second = await renderInvoicePdf(buildInvoice(), seller)

    expect(first.equals(second)).toBe(true)
  })

  it('prints an invoice without a postal address', async () => {
    const read = await readPdf(
      await renderInvoicePdf(buildInvoice({ customerAddress: null }), seller),
    )

    expect(lineWith(read, 'Ada Lovelace')).toBe('Ada Lovelace')
    expect(read.text).toContain('ada@example.com')
    expect(read.text).not.toContain('Germany')
  })

  it('keeps names readable when they hold letters Helvetica cannot show', async () => {
    const invoice = buildInvoice({ customerName: 'Łukasz Wójcik-Erdős 李' })
    const read = await readPdf(await renderInvoicePdf(invoice, seller))

    expect(read.text).toContain('Lukasz Wójcik-Erdos ?')
  })
})

function formatUsd(cents: number): string {
  return `US$${(cents / 100).toFixed(2)}`
}
