import { and, eq, isNull, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { users } from '../../../db/schema/auth'
import { billingInvoices } from '../../../db/schema/billing'
import { formatAmount } from '../../../domain/billing'
import { isLanguage, type Language } from '../../../domain/i18n'
import { PRODUCT, paragraph, type RenderedEmail, renderLetter } from '../../mail/layout'
import type { Queue } from '../../plugins/jobs'
import { type InvoiceDocument, renderInvoicePdf, type Seller } from './invoice-pdf'

// Each paid invoice goes once, as a PDF, to the billing e-mail and to the 'Cc Invoice to
// Payment' address, through the job queue.

type InvoiceRow = typeof billingInvoices.$inferSelect

export const sellerOf = (app: FastifyInstance): Seller => ({
  name: 'Harmonize',
  email: app.config.SUPPORT_EMAIL,
  website: app.config.publicUrl,
})

export function invoiceDocument(row: InvoiceRow, language: Language): InvoiceDocument {
  return {
    number: row.number,
    status: row.status as InvoiceDocument['status'],
    createdAt: row.createdAt,
    paidAt: row.paidAt,
    currency: row.currency,
    subtotal: row.subtotal,
    total: row.total,
    amountPaid: row.amountPaid,
    lines: row.lines,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    customerAddress: row.customerAddress,
    language,
  }
}

/** The invoice's language: its member's. */
export async function languageOf(app: FastifyInstance, userId: string): Promise<Language> {
  const [user] = await app.db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.id, userId))
  return user && isLanguage(user.language) ? user.language : 'en'
}

export const invoiceFileName = (row: Pick<InvoiceRow, 'number'>) => `invoice-${row.number}.pdf`

/**
 * The invoice of a payment, to the billing e-mail and the copy address: with the PDF attached,
 * or, when the provider keeps the invoice's PDF (Stripe mode), with a link to it.
 */
export function invoiceEmail(input: {
  language: Language
  name?: string | null
  number: string
  amount: string
  pdfUrl?: string | null
}): RenderedEmail {
  const { language, name, number, amount, pdfUrl } = input
  const lines =
    language === 'es'
      ? {
          subject: `Tu factura ${number} de ${PRODUCT}`,
          thanks: pdfUrl
            ? `Gracias por tu pago de ${amount}. Tu factura ${number} está lista.`
            : `Gracias por tu pago de ${amount}. Adjuntamos tu factura ${number} en PDF.`,
          link: `Descargar la factura ${number} (PDF)`,
          history: 'También la encontrarás en Mi cuenta, en el historial de facturación.',
        }
      : {
          subject: `Your ${PRODUCT} invoice ${number}`,
          thanks: pdfUrl
            ? `Thank you for your payment of ${amount}. Your invoice ${number} is ready.`
            : `Thank you for your payment of ${amount}. Your invoice ${number} is attached as a PDF.`,
          link: `Download invoice ${number} (PDF)`,
          history: 'You can also find it in My Account, under the billing history.',
        }
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: [
      paragraph(lines.thanks),
      ...(pdfUrl ? [{ kind: 'link' as const, text: lines.link, href: pdfUrl }] : []),
      paragraph(lines.history),
    ],
  })
}

/** The queue that mails paid invoices. */
export type InvoiceMailQueue = Queue<{ invoiceId: string }>

export async function defineInvoiceMail(app: FastifyInstance): Promise<InvoiceMailQueue> {
  const queue = await app.jobs.define<{ invoiceId: string }>(
    'billing.invoice-mail',
    {
      retryLimit: 8,
      retryDelaySeconds: 30,
      expireInSeconds: 120,
      describe: (job) => `invoice ${job.invoiceId} by mail`,
    },
    async ({ invoiceId }) => {
      const [row] = await app.db
        .select()
        .from(billingInvoices)
        .where(eq(billingInvoices.id, invoiceId))
      if (!row) return
      const language = await languageOf(app, row.userId)
      const letter = invoiceEmail({
        language,
        name: row.customerName,
        number: row.number,
        amount: `${formatAmount(row.total)} ${row.currency.toUpperCase()}`,
        // Stripe's own addresses of a PDF expire; ours sends the member to a fresh one.
        pdfUrl: row.pdfUrl ? `${app.config.publicUrl}/api/billing/invoices/${row.id}/pdf` : null,
      })
      // Stripe's invoice has its own PDF, linked from the letter; ours goes attached.
      const attachments = row.pdfUrl
        ? []
        : [
            {
              filename: invoiceFileName(row),
              contentType: 'application/pdf',
              content: (
                await renderInvoicePdf(invoiceDocument(row, language), sellerOf(app))
              ).toString('base64'),
            },
          ]
      const recipients = [row.customerEmail, row.receiptEmail].filter(
        (address, index, all): address is string =>
          Boolean(address) && all.indexOf(address) === index,
      )
      // One transaction: both messages are queued, or neither and the job runs again.
      await app.db.transaction(async () => {
        for (const to of recipients) await app.mailer.send({ to, ...letter, attachments })
      })
    },
  )
  return queue
}

/**
 * Claims the paid invoices not mailed yet (all of them, or one member's) and queues their mail
 * in the same transaction, so each goes out once even when two syncs see it paid at once.
 */
export async function queueInvoiceMail(
  app: FastifyInstance,
  queue: InvoiceMailQueue,
  userId?: string,
): Promise<void> {
  await app.db.transaction(async (tx) => {
    const claimed = await tx
      .update(billingInvoices)
      .set({ emailedAt: sql`now()` })
      .where(
        and(
          eq(billingInvoices.status, 'paid'),
          isNull(billingInvoices.emailedAt),
          userId ? eq(billingInvoices.userId, userId) : undefined,
        ),
      )
      .returning({ id: billingInvoices.id })
    for (const { id } of claimed) await queue.send({ invoiceId: id })
  })
}
