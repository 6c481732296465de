import { eq } from 'drizzle-orm'
import { users } from '../../../db/schema/auth'
import { billingCustomers } from '../../../db/schema/billing'
import { AppError } from '../../errors'
import { syncCustomer } from './customers'
import { clockStops } from './notices'
import type { BillingDeps } from './service'

const DAY_SECONDS = 86_400

/**
 * Moves a member's sandbox clock forward by whole days, as the provider's test clocks do, and
 * waits for the renewals, installments, retries and endings that became due. Charges they make
 * still wait for the sandbox's bank. For tests and demonstrations (`cli billing advance`).
 *
 * Real time would pass the moments at which a notice falls due before a charge (a card that
 * expires first, a reminder); the hourly pass would then mail it. So the clock stops at each of
 * those moments on its way and the member's billing is looked at there, as the pass would. It
 * stops at each charge too: the moments before the charge after it are only known once the
 * plan has renewed, so they are read again after every stop, until the target.
 */
export async function advanceClock(
  deps: BillingDeps,
  input: { email: string; days: number },
): Promise<{ email: string; clock: string }> {
  const clocks = deps.payments.testClocks
  if (!clocks) throw new AppError(404, 'billing.sandboxOnly')
  const [row] = await deps.db
    .select({ customerId: billingCustomers.customerId, userId: users.id })
    .from(billingCustomers)
    .innerJoin(users, eq(users.id, billingCustomers.userId))
    .where(eq(users.email, input.email.trim().toLowerCase()))
  if (!row) throw new AppError(404, 'billing.customerNotFound')
  let clock = await clocks.nowOf(row.customerId)
  const target = clock + input.days * DAY_SECONDS
  while (clock < target) {
    const stops = (await clockStops(deps.db, row.userId))
      .map((moment) => Math.ceil(moment.getTime() / 1000))
      .filter((stop) => stop > clock && stop < target)
    const next = Math.min(target, ...stops)
    clock = await clocks.advanceClock(row.customerId, next - clock)
    // The CLI has no event handlers; the server's run them already, and a second sync is harmless.
    await syncCustomer(deps, row.customerId, { at: new Date(clock * 1000) })
  }
  return { email: input.email, clock: new Date(clock * 1000).toISOString() }
}
