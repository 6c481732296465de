import type { FastifyInstance } from 'fastify'
import { advanceClock, billingDepsOf } from '../../server/features/billing/public'

/**
 * Moves a member's sandbox billing clock on by `days`, as `billing advance` does through the
 * running server: renewals and installments that fall due on the way are charged. For component
 * tests, whose server runs in the test's own process.
 */
export const advanceBillingClock = (app: FastifyInstance, email: string, days: number) =>
  advanceClock(billingDepsOf(app), { email, days })
