import { sql } from 'drizzle-orm'
import {
  boolean,
  char,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { SUBSCRIPTION_STATUSES } from '../../domain/access'
import { CARD_BRANDS, CURRENCIES, PLANS } from '../../domain/billing'
import type { InvoiceAddress, InvoiceLine } from '../../domain/billing-plans'
import { users } from './auth'

// Two kinds of tables. `billing_*` are ours: the rest of the app reads only these, whichever
// gateway is configured, and they are written only by syncing from the gateway. `sandbox_*`
// are the sandbox gateway's own store, standing in for the card provider's servers.

/** A price of the one product, mirrored from the gateway (Stripe's Price). */
export const billingPrices = pgTable(
  'billing_price',
  {
    /** The gateway's id (`price_…`). */
    id: text('id').primaryKey(),
    productId: text('product_id').notNull(),
    nickname: text('nickname').notNull(),
    plan: text('plan', { enum: PLANS }).notNull(),
    unitAmount: integer('unit_amount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    active: boolean('active').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('billing_price_active_idx').on(table.active, table.createdAt)],
)

/** The user's customer at the gateway, with the billing information and the default card. */
export const billingCustomers = pgTable('billing_customer', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The gateway's id (`cus_…`). */
  customerId: text('customer_id').notNull().unique(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  line1: text('line1'),
  line2: text('line2'),
  city: text('city'),
  state: text('state'),
  postalCode: text('postal_code'),
  country: char('country', { length: 2 }),
  defaultPaymentMethodId: text('default_payment_method_id'),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
})

/** A saved card: brand, last four digits and expiry, never the number. */
export const billingPaymentMethods = pgTable(
  'billing_payment_method',
  {
    /** The gateway's id (`pm_…`). */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    brand: text('brand', { enum: CARD_BRANDS }).notNull(),
    last4: char('last4', { length: 4 }).notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    /** What the person chose in the card-type select; no rule depends on it (spec core §2). */
    cardType: text('card_type', { enum: ['debit', 'credit'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('billing_payment_method_user_idx').on(table.userId, table.createdAt)],
)

/** A one-time payment (the ONE PAYMENT plan), mirrored from the gateway's payment intent. */
export const billingPaymentIntents = pgTable(
  'billing_payment_intent',
  {
    /** The gateway's id (`pi_…`). */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    priceId: text('price_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    /** The provider's status: `processing`, `succeeded`, `requires_payment_method`… */
    status: text('status').notNull(),
    /** The provider's code for the last failure (`card_declined`, `insufficient_funds`…). */
    failureCode: text('failure_code'),
    receiptEmail: text('receipt_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('billing_payment_intent_user_idx').on(table.userId, table.createdAt)],
)

/** A monthly plan (SUBSCRIPTION or FOUR PAYMENTS), mirrored from the gateway's subscription. */
export const billingSubscriptions = pgTable(
  'billing_subscription',
  {
    /** The gateway's id (`sub_…`). */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    priceId: text('price_id').notNull(),
    plan: text('plan', { enum: PLANS }).notNull(),
    /** Ours, from the gateway's status (`domain/access.ts`): `paused`, `pending` and `paid` too. */
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    /** The gateway's own word, kept for support. */
    gatewayStatus: text('gateway_status').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull(),
    cancelAt: timestamp('cancel_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    paused: boolean('paused').notNull(),
    latestInvoiceId: text('latest_invoice_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('billing_subscription_user_idx').on(table.userId, table.createdAt)],
)

/**
 * An invoice, mirrored from the gateway, with the billing information as it was when it was
 * made. `emailedAt` is ours: when its PDF was queued to the billing e-mail (once).
 */
export const billingInvoices = pgTable(
  'billing_invoice',
  {
    /** The gateway's id (`in_…`). */
    id: text('id').primaryKey(),
    /** The gateway's number: sequential, without gaps. */
    number: text('number').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id'),
    /** What it charges for (its first line): an upgraded plan's installments are told apart. */
    priceId: text('price_id'),
    /** `open`, `paid`, `void` or `uncollectible`. */
    status: text('status').notNull(),
    billingReason: text('billing_reason').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    subtotal: integer('subtotal').notNull(),
    total: integer('total').notNull(),
    amountDue: integer('amount_due').notNull(),
    amountPaid: integer('amount_paid').notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull(),
    customerAddress: jsonb('customer_address').$type<InvoiceAddress | null>(),
    receiptEmail: text('receipt_email'),
    attemptCount: integer('attempt_count').notNull(),
    /** Its latest charge's status: `processing` while the bank answers, `requires_payment_method` when refused. */
    lastChargeStatus: text('last_charge_status'),
    /** Why the bank refused its latest charge (the provider's decline or error code), if it did. */
    lastChargeFailure: text('last_charge_failure'),
    /**
     * While its latest charge waits for the member's check at the bank (3-D Secure,
     * `requires_action`): that charge's client secret, for the member's page to run the check.
     */
    checkSecret: text('check_secret'),
    nextPaymentAttempt: timestamp('next_payment_attempt', { withTimezone: true }),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    /** Stripe's own PDF of it (Stripe mode), which the mail and the history link to; null in the sandbox, whose PDFs the app renders. */
    pdfUrl: text('pdf_url'),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('billing_invoice_user_idx').on(table.userId, table.createdAt)],
)

/**
 * Money given back on a paid invoice (the console's Refund), mirrored from the gateway. Written
 * from the gateway's answer to the refund, and again by each sync of the member, which reads
 * the refunds of every payment that has one here (the provider lists refunds by payment only).
 */
export const billingRefunds = pgTable(
  'billing_refund',
  {
    /** The gateway's id (`re_…`). */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invoiceId: text('invoice_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    /** Cents. */
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    /** The provider's: `pending`, `succeeded`, `failed`, `canceled` or `requires_action`. */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /**
     * When whoever asked for it was told it was made (the console's audit entry), in the same
     * transaction: once per refund, whether this row was first written by the request or by a
     * sync that saw the refund before the request could record it.
     */
    toldAt: timestamp('told_at', { withTimezone: true }),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('billing_refund_invoice_idx').on(table.invoiceId),
    index('billing_refund_user_idx').on(table.userId, table.createdAt),
  ],
)

/**
 * Each event the provider reported (its webhook), recorded once by its id: a repeated delivery
 * finds its row and changes nothing. The sync it asks for runs in a job; `processed_at` says
 * when that job finished.
 */
export const billingEvents = pgTable(
  'billing_event',
  {
    /** The provider's id (`evt_…`). */
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The customer the event is about; null for events about the catalog (prices, product). */
    customerId: text('customer_id'),
    /**
     * The payment a charge's event is about: a refund made in the provider's Dashboard is found
     * by it, as it carries none of our metadata.
     */
    paymentIntentId: text('payment_intent_id'),
    /** When the provider made the event. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (table) => [index('billing_event_customer_idx').on(table.customerId, table.receivedAt)],
)

/**
 * Who typed a card into the card field: a card that is not saved yet belongs to no customer at
 * the gateway, so this says whose it is until it is. Only its maker may save or pay with it.
 */
export const billingCardTokens = pgTable('billing_card_token', {
  /** The gateway's id (`pm_…`). */
  paymentMethodId: text('payment_method_id').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * One money action at a time per member (server/features/billing/member-lock.ts): a lease,
 * taken by one statement and released by its holder. `expiresAt` bounds how long a process
 * that died while holding it keeps the member waiting.
 */
export const billingMemberLocks = pgTable('billing_member_lock', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Who holds it: a fresh id per taking, so only its taker can release it. */
  holder: uuid('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
})

/**
 * The sandbox gateway's objects, shaped as the card provider's API returns them (a customer, a
 * payment method, a payment intent, a subscription, an invoice…). JSON, because the sandbox
 * answers in the provider's shapes and never queries them by anything but id, type and owner.
 */
export const sandboxObjects = pgTable(
  'sandbox_object',
  {
    id: text('id').primaryKey(),
    /** The provider's object name: `product`, `price`, `customer`, `payment_method`… */
    type: text('type').notNull(),
    /** The customer it belongs to, when it belongs to one. */
    customer: text('customer'),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sandbox_object_type_idx').on(table.type, table.createdAt),
    index('sandbox_object_customer_idx').on(table.customer, table.type),
    check('sandbox_object_id_prefix', sql`${table.id} ~ '^[a-z]+_[A-Za-z0-9]+$'`),
  ],
)

/** The sandbox's idempotency keys: a repeated create returns the object the first one made. */
export const sandboxIdempotencyKeys = pgTable('sandbox_idempotency_key', {
  key: text('key').primaryKey(),
  objectId: text('object_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** The sandbox's counters, such as invoice numbers: taken in the transaction that uses them. */
export const sandboxSequences = pgTable('sandbox_sequence', {
  name: text('name').primaryKey(),
  value: integer('value').notNull(),
})

/**
 * The billing mails a member was sent that are not invoices (a renewal refused, a plan that
 * ends, the last of four payments): one row per notice, so each goes once however many syncs
 * see the same state. `key` names what it is about (an invoice and its try, a plan and its end).
 */
export const billingNotices = pgTable(
  'billing_notice',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind, table.key] })],
)

/**
 * What a member chose about billing mail: a reminder a few days before each monthly payment,
 * off unless they turn it on in My Account. No row means the defaults.
 */
export const billingPreferences = pgTable('billing_preference', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  renewalReminders: boolean('renewal_reminders').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
