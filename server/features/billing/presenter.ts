import type { billingPrices } from '../../../db/schema/billing'
import { type Price, priceLabel } from '../../../domain/billing'

/** A price row as the price list and the operator see it. */
export function presentPrice(row: typeof billingPrices.$inferSelect): Price {
  return {
    id: row.id,
    nickname: row.nickname,
    label: priceLabel(row.nickname),
    plan: row.plan,
    unitAmount: row.unitAmount,
    currency: row.currency,
    active: row.active,
  }
}
