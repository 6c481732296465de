import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'
import { CURRENCIES, PLANS } from '../../domain/billing'

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
