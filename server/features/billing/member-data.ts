import { asc, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import {
  billingCustomers,
  billingInvoices,
  billingPaymentIntents,
  billingPaymentMethods,
  billingSubscriptions,
} from '../../../db/schema/billing'
import type { Language } from '../../../domain/i18n'
import { invoiceDocument, invoiceFileName, sellerOf } from './invoice-mail'
import { renderInvoicePdf } from './invoice-pdf'
import { renewalRemindersOf } from './plan-sync'
import { invoicesOf } from './plans'

// What billing keeps about a member, for the download of their data (server/features/leaving):
// as JSON, the billing information, cards (never a number), plans, payments and invoices, and
// each invoice as the PDF My Account's history gives.

/** The member's billing records, ready to be written as JSON. */
export async function billingRecordsOf(app: FastifyInstance, userId: string) {
  const db = app.db
  const [customer] = await db
    .select({
      name: billingCustomers.name,
      email: billingCustomers.email,
      line1: billingCustomers.line1,
      line2: billingCustomers.line2,
      city: billingCustomers.city,
      state: billingCustomers.state,
      postalCode: billingCustomers.postalCode,
      country: billingCustomers.country,
    })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  const cards = await db
    .select({
      brand: billingPaymentMethods.brand,
      last4: billingPaymentMethods.last4,
      expMonth: billingPaymentMethods.expMonth,
      expYear: billingPaymentMethods.expYear,
      cardType: billingPaymentMethods.cardType,
      savedAt: billingPaymentMethods.createdAt,
    })
    .from(billingPaymentMethods)
    .where(eq(billingPaymentMethods.userId, userId))
    .orderBy(asc(billingPaymentMethods.createdAt))
  const plans = await db
    .select({
      plan: billingSubscriptions.plan,
      status: billingSubscriptions.status,
      startedAt: billingSubscriptions.createdAt,
      currentPeriodStart: billingSubscriptions.currentPeriodStart,
      currentPeriodEnd: billingSubscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: billingSubscriptions.cancelAtPeriodEnd,
      canceledAt: billingSubscriptions.canceledAt,
      endedAt: billingSubscriptions.endedAt,
    })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.userId, userId))
    .orderBy(asc(billingSubscriptions.createdAt))
  const payments = await db
    .select({
      amount: billingPaymentIntents.amount,
      currency: billingPaymentIntents.currency,
      status: billingPaymentIntents.status,
      madeAt: billingPaymentIntents.createdAt,
    })
    .from(billingPaymentIntents)
    .where(eq(billingPaymentIntents.userId, userId))
    .orderBy(asc(billingPaymentIntents.createdAt))
  return {
    billingInformation: customer ?? null,
    cards,
    plans,
    oneTimePayments: payments,
    invoices: await invoicesOf(db, userId),
    renewalReminders: await renewalRemindersOf(db, userId),
  }
}

/**
 * Each of the member's invoices as a PDF in `language`, oldest first, one at a time (a member
 * with years of invoices never has them all in memory at once).
 */
export async function* invoicePdfsOf(
  app: FastifyInstance,
  userId: string,
  language: Language,
): AsyncGenerator<{ fileName: string; pdf: Buffer }> {
  const rows = await app.db
    .select()
    .from(billingInvoices)
    .where(eq(billingInvoices.userId, userId))
    .orderBy(asc(billingInvoices.createdAt), asc(billingInvoices.number))
  const seller = sellerOf(app)
  for (const row of rows) {
    yield {
      fileName: invoiceFileName(row),
      pdf: await renderInvoicePdf(invoiceDocument(row, language), seller),
    }
  }
}
