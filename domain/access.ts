/**
 * Who may harmonize, decided in one place (spec core §4 plus PRODUCT.md): the server enforces
 * it, and the client shows the same function's answer.
 */

export type CodeStatus = 'ACTIVE' | 'INACTIVE'

export interface PaymentIntentFact {
  id: string
  status: string
}

export interface AccessFacts {
  /** The access code held by the user, if any. */
  code?: { status: CodeStatus } | null
  /** Status of the user's current subscription or four-payment plan, if any. */
  subscriptionStatus?: string | null
  /** One-time payments, newest first. */
  paymentIntents: readonly PaymentIntentFact[]
}

/**
 * Subscription statuses that open the panels. `paid` is ours: a four-payment plan paid in full
 * must not lock its buyer out (PRODUCT.md).
 */
export const ACCESS_SUBSCRIPTION_STATUSES: readonly string[] = [
  'active',
  'trialing',
  'pending',
  'paid',
]

/** Access: an active code; else a subscription in an open status; else a succeeded payment. */
export function hasAccess(facts: AccessFacts): boolean {
  // An inactive code does not close the door: the other ways in are still checked.
  if (facts.code?.status === 'ACTIVE') return true
  if (facts.subscriptionStatus)
    return ACCESS_SUBSCRIPTION_STATUSES.includes(facts.subscriptionStatus)
  return facts.paymentIntents.some((intent) => intent.status === 'succeeded')
}

export type DisplayedSubscriptionStatus = 'active' | 'canceled' | 'unpaid'

/** How a subscription status is shown: active or trialing as active, canceled, else unpaid. */
export function displayedSubscriptionStatus(
  status: string | null | undefined,
): DisplayedSubscriptionStatus {
  if (status === 'active' || status === 'trialing') return 'active'
  if (status === 'canceled') return 'canceled'
  return 'unpaid'
}

export type PaymentFlow =
  | { kind: 'code'; status: CodeStatus }
  | { kind: 'subscription'; status: DisplayedSubscriptionStatus }
  | { kind: 'payment'; status: 'paid' | 'unpaid' }
  | { kind: 'default' }

/**
 * Which payment story My Account tells: the code's if there is a code, else the subscription's,
 * else the one-time payments' (paid when any succeeded), else none yet.
 */
export function displayedPaymentFlow(facts: AccessFacts): PaymentFlow {
  if (facts.code) return { kind: 'code', status: facts.code.status }
  if (facts.subscriptionStatus) {
    return { kind: 'subscription', status: displayedSubscriptionStatus(facts.subscriptionStatus) }
  }
  if (facts.paymentIntents.length > 0) {
    const paid = facts.paymentIntents.some((intent) => intent.status === 'succeeded')
    return { kind: 'payment', status: paid ? 'paid' : 'unpaid' }
  }
  return { kind: 'default' }
}

/** Payment status: the first payment that did not succeed names it; all succeeded is `paid`. */
export function paymentStatus(intents: readonly PaymentIntentFact[]): string {
  return intents.find((intent) => intent.status !== 'succeeded')?.status ?? 'paid'
}
