import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Language } from '../../../domain/i18n'
import { invoiceDocument, invoiceFileName, sellerOf } from './invoice-mail'
import { renderInvoicePdf } from './invoice-pdf'
import { ownInvoice } from './plans'

/**
 * Answers with one of `userId`'s invoices as a PDF in `language` (404 when it is not theirs):
 * for the member's invoice history, and for the console reading a member's.
 */
export async function sendInvoicePdf(
  app: FastifyInstance,
  reply: FastifyReply,
  userId: string,
  invoiceId: string,
  language: Language,
) {
  const row = await ownInvoice(app.db, userId, invoiceId)
  // In Stripe mode the invoice is Stripe's, and so is its PDF: the reader is sent there, to the
  // address Stripe gives now (the ones it gave before expire after some weeks).
  if (row.pdfUrl) {
    const current = await app.payments.retrieveInvoice(row.id)
    return reply
      .header('cache-control', 'private, no-store')
      .redirect(current?.invoice_pdf ?? row.pdfUrl)
  }
  const pdf = await renderInvoicePdf(invoiceDocument(row, language), sellerOf(app))
  // The bytes go as they are; the routes' response schemas describe only the error bodies.
  return reply
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `inline; filename="${invoiceFileName(row)}"`)
    .type('application/pdf')
    .send(pdf as never)
}
