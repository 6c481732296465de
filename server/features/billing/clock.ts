import { eq } from 'drizzle-orm'
import { users } from '../../../db/schema/auth'
import { billingCustomers } from '../../../db/schema/billing'
import { AppError } from '../../errors'
import { syncCustomer } from './customers'
import type { BillingDeps } from './service'

const DAY_SECONDS = 86_400

/**
 * Moves a member's sandbox clock forward by whole days, as the provider's test clocks do, and
 * waits for the renewals, installments, retries and endings that became due. Charges they make
 * still wait for the sandbox's bank. For tests and demonstrations (`cli billing advance`).
 */
export async function advanceClock(
  deps: BillingDeps,
  input: { email: string; days: number },
): Promise<{ email: string; clock: string }> {
  const clocks = deps.payments.testClocks
  if (!clocks) throw new AppError(404, 'billing.sandboxOnly')
  const [row] = await deps.db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .innerJoin(users, eq(users.id, billingCustomers.userId))
    .where(eq(users.email, input.email.trim().toLowerCase()))
  if (!row) throw new AppError(404, 'billing.customerNotFound')
  const clock = await clocks.advanceClock(row.customerId, input.days * DAY_SECONDS)
  // The CLI has no event handlers; the server's run them already, and a second sync is harmless.
  await syncCustomer(deps, row.customerId)
  return { email: input.email, clock: new Date(clock * 1000).toISOString() }
}
