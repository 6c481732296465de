import { and, desc, eq, notInArray } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { billingPrices } from '../../../db/schema/billing'
import { type CreatePriceRequest, PLANS, type Price } from '../../../domain/billing'
import { AppError } from '../../errors'
import type { GatewayPrice, PaymentGateway } from '../../payments/gateway'
import { DEFAULT_PRICES, PRODUCT } from './catalog'
import { presentPrice } from './presenter'

/** What billing works with: our tables and the configured gateway. */
export interface BillingDeps {
  db: Database
  payments: PaymentGateway
  /**
   * Told after each sync of a member's billing from the provider, whatever asked for it (an
   * event, a page, an action): what the member is mailed about it (notices.ts). With `at`, the
   * member's time when their clock was moved there: what falls due by then is mailed too.
   */
  afterSync?: (userId: string, at?: Date) => Promise<void>
}

const isPlan = (value: unknown): value is (typeof PLANS)[number] =>
  PLANS.includes(value as (typeof PLANS)[number])

/**
 * Makes our price table say what the gateway says: every price of the product, active or not.
 * Safe to repeat and to run twice at once (each row is an upsert of the gateway's answer).
 */
export async function syncPrices({ db, payments }: BillingDeps): Promise<void> {
  const prices = (await payments.listPrices(PRODUCT.id)).filter(
    (price): price is GatewayPrice => isPlan(price.metadata?.plan) && price.currency === 'usd',
  )
  for (const price of prices) {
    const row = {
      id: price.id,
      productId: price.product,
      nickname: price.nickname,
      plan: price.metadata.plan,
      unitAmount: price.unit_amount,
      currency: price.currency,
      active: price.active,
      createdAt: new Date(price.created * 1000),
      syncedAt: new Date(),
    }
    await db
      .insert(billingPrices)
      .values(row)
      .onConflictDoUpdate({ target: billingPrices.id, set: row })
  }
  // A price the gateway no longer lists cannot be sold: keep the row (invoices name it), closed.
  const known = prices.map((price) => price.id)
  await db
    .update(billingPrices)
    .set({ active: false, syncedAt: new Date() })
    .where(known.length > 0 ? notInArray(billingPrices.id, known) : undefined)
}

/**
 * On a new installation, creates the product and its three prices in the gateway, then syncs.
 * Idempotency keys make two servers starting together create them once; an installation that
 * already has the product is left as the operator made it.
 */
export async function ensureCatalog(deps: BillingDeps): Promise<void> {
  const { payments } = deps
  if (!(await payments.retrieveProduct(PRODUCT.id))) {
    await payments.createProduct(PRODUCT, { idempotencyKey: `catalog-${PRODUCT.id}` })
    for (const price of DEFAULT_PRICES) {
      await payments.createPrice(
        { product: PRODUCT.id, currency: 'usd', ...price },
        { idempotencyKey: `catalog-${PRODUCT.id}-${price.nickname}` },
      )
    }
  }
  await syncPrices(deps)
}

/**
 * The prices on sale (spec core §2: only active prices are listed), by plan in the order
 * one payment, four payments, subscription, and the newest first within a plan.
 */
export async function listActivePrices(db: Database): Promise<Price[]> {
  const rows = await db
    .select()
    .from(billingPrices)
    .where(and(eq(billingPrices.active, true), eq(billingPrices.productId, PRODUCT.id)))
    .orderBy(desc(billingPrices.createdAt), desc(billingPrices.id))
  return rows.map(presentPrice).sort((a, b) => PLANS.indexOf(a.plan) - PLANS.indexOf(b.plan))
}

/** Every price, archived ones too, for the operator. */
export async function listAllPrices(db: Database): Promise<Price[]> {
  const rows = await db
    .select()
    .from(billingPrices)
    .orderBy(desc(billingPrices.createdAt), desc(billingPrices.id))
  return rows.map(presentPrice)
}

/** A new price on sale (operator command). Its amount can never change afterwards. */
export async function createPrice(deps: BillingDeps, input: CreatePriceRequest): Promise<Price> {
  const price = await deps.payments.createPrice({ product: PRODUCT.id, currency: 'usd', ...input })
  await syncPrices(deps)
  const [row] = await deps.db.select().from(billingPrices).where(eq(billingPrices.id, price.id))
  if (!row) throw new Error(`price ${price.id} did not arrive in the price table`)
  return presentPrice(row)
}

/**
 * Takes a price off sale (operator command). Plans already bought on it go on as they are.
 * Archiving an archived price changes nothing.
 */
export async function archivePrice(deps: BillingDeps, id: string): Promise<Price> {
  const updated = await deps.payments.updatePrice(id, { active: false })
  if (!updated) throw new AppError(404, 'billing.priceNotFound')
  await syncPrices(deps)
  const [row] = await deps.db.select().from(billingPrices).where(eq(billingPrices.id, id))
  if (!row) throw new AppError(404, 'billing.priceNotFound')
  return presentPrice(row)
}
