import { and, eq, isNull, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { users } from '../../../db/schema/auth'
import { billingInvoices } from '../../../db/schema/billing'
import { formatMoney } from '../../../domain/format'
import { isLanguage, type Language } from '../../../domain/i18n'
import { AppError } from '../../errors'
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

declare module 'fastify' {
  interface FastifyInstance {
    /** Mails a paid invoice: the billing routes after a payment, the console's Re-send. */
    invoiceMail: InvoiceMailQueue
  }
}

/** The invoice mail's queue, for every feature that sends an invoice. */
export const invoiceMailPlugin = fp(
  async (app) => {
    app.decorate('invoiceMail', await defineInvoiceMail(app))
  },
  { name: 'invoice-mail', dependencies: ['db', 'jobs', 'mail'] },
)

export async function defineInvoiceMail(app: FastifyInstance): Promise<InvoiceMailQueue> {
  const queue = await app.jobs.define<{ invoiceId: string }>(
    'billing.invoice-mail',
    {
      retryLimit: 8,
      retryDelaySeconds: 30,
      expireInSeconds: 120,
      describe: (job) => job.invoiceId,
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
        amount: formatMoney(row.total, language, row.currency),
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
      const recipients = recipientsOf(row)
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

/** Where an invoice's mail goes: the billing e-mail it was made for, and the copy address. */
export const recipientsOf = (row: Pick<InvoiceRow, 'customerEmail' | 'receiptEmail'>) =>
  [row.customerEmail, row.receiptEmail].filter(
    (address, index, all): address is string => Boolean(address) && all.indexOf(address) === index,
  )

/**
 * Mails one of the member's paid invoices again, as its first mail went. `sent` runs in the same
 * transaction as the queuing (the console's audit entry): both happen, or neither.
 */
export async function resendInvoice(
  app: FastifyInstance,
  userId: string,
  invoiceId: string,
  sent: (invoice: { number: string; to: string[] }) => Promise<void>,
): Promise<{ to: string[] }> {
  return app.db.transaction(async () => {
    const [row] = await app.db
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.userId, userId)))
    if (!row) throw new AppError(404, 'billing.invoiceNotFound')
    if (row.status !== 'paid') throw new AppError(409, 'billing.resendNotPaid')
    const to = recipientsOf(row)
    await app.invoiceMail.send({ invoiceId })
    await sent({ number: row.number, to })
    return { to }
  })
}
