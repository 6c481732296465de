import type { CreatePriceRequest, Price } from '../../../domain/billing'
import { archivePrice, type BillingDeps, createPrice, listAllPrices } from '../billing/public'
import { type Actor, writeAudit } from './audit'

// Prices from the console: billing's own functions, the ones the operator command's operations
// run (operator/operations.ts), each change in the audit log.

/** Every price of the product, on sale or archived, newest first. */
export function consolePrices(deps: BillingDeps): Promise<Price[]> {
  return listAllPrices(deps.db)
}

/** A new price on sale at the payment gateway; its amount can never change afterwards. */
export async function consoleCreatePrice(
  deps: BillingDeps,
  actor: Actor,
  input: CreatePriceRequest,
): Promise<Price> {
  const price = await createPrice(deps, input)
  await writeAudit(deps.db, actor, {
    action: 'prices.create',
    after: {
      id: price.id,
      nickname: price.nickname,
      plan: price.plan,
      unitAmount: price.unitAmount,
    },
  })
  return price
}

/** Takes a price off sale; plans already bought on it go on as they are. */
export async function consoleArchivePrice(
  deps: BillingDeps,
  actor: Actor,
  id: string,
): Promise<Price> {
  const was = (await listAllPrices(deps.db)).find((price) => price.id === id)
  const price = await archivePrice(deps, id)
  if (was?.active) {
    await writeAudit(deps.db, actor, {
      action: 'prices.archive',
      before: { id, nickname: price.nickname, active: true },
      after: { id, nickname: price.nickname, active: false },
    })
  }
  return price
}
