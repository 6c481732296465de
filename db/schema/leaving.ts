import { sql } from 'drizzle-orm'
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { CURRENCIES } from '../../domain/billing'
import type { InvoiceAddress, InvoiceLine } from '../../domain/billing-plans'
import { EXPORT_STATUSES } from '../../domain/leaving'
import { users } from './auth'

/**
 * A member's download of their data (server/features/leaving): prepared by a job, kept as a ZIP
 * in storage under `exports/{userId}/{id}.zip` until `expires_at`, then deleted with its row.
 * Gone with the account.
 */
export const dataExports = pgTable(
  'data_export',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: EXPORT_STATUSES }).notNull().default('preparing'),
    /** How many of the export's steps are done (domain/leaving.ts EXPORT_STEPS). */
    step: integer('step').notNull().default(0),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    /** When the file is deleted: EXPORT_KEEP_DAYS after it was ready. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (table) => [
    index('data_export_user_idx').on(table.userId, table.createdAt),
    index('data_export_expires_idx').on(table.expiresAt),
    // One export in the making per member, however many asks arrive at once.
    uniqueIndex('data_export_preparing_idx')
      .on(table.userId)
      .where(sql`${table.status} = 'preparing'`),
  ],
)

/**
 * An invoice of a deleted account, kept because the law requires invoices to be kept (docs/
 * decisions/0036): what the invoice said (number, dates, amounts, lines, the billing name and
 * address printed on it), and nothing that ties it to an account: no user, no e-mail, no
 * customer at the provider. Deleted after `keep_until`.
 */
export const keptInvoices = pgTable(
  'kept_invoice',
  {
    /** The provider's id of the invoice (`in_…`), to match the provider's own records. */
    id: text('id').primaryKey(),
    number: text('number').notNull(),
    status: text('status').notNull(),
    billingReason: text('billing_reason').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    subtotal: integer('subtotal').notNull(),
    total: integer('total').notNull(),
    amountPaid: integer('amount_paid').notNull(),
    /** Cents given back on it (refunds that succeeded). */
    amountRefunded: integer('amount_refunded').notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    customerName: text('customer_name').notNull(),
    customerAddress: jsonb('customer_address').$type<InvoiceAddress | null>(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When the invoice was issued. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When its account was deleted. */
    keptAt: timestamp('kept_at', { withTimezone: true }).notNull().defaultNow(),
    /** The end of the keeping period (KEPT_INVOICE_YEARS), after which it is deleted. */
    keepUntil: timestamp('keep_until', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('kept_invoice_keep_until_idx').on(table.keepUntil),
    index('kept_invoice_number_idx').on(table.number),
  ],
)
