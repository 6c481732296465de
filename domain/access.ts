import { z } from 'zod/mini'

/**
 * Who may harmonize, decided in one place (spec core §4 plus PRODUCT.md): the server enforces
 * it, and the client shows the same function's answer.
 */

export const CODE_STATUSES = ['ACTIVE', 'INACTIVE'] as const
export type CodeStatus = (typeof CODE_STATUSES)[number]

/**
 * Every status a subscription or four-payment plan can be in: the card provider's own
 * (Stripe's names) plus the two the spec adds, `pending` (a payment flow under way) and `paid`
 * (a four-payment plan paid in full, PRODUCT.md).
 */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
  'pending',
  'paid',
] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

export interface PaymentIntentFact {
  id: string
  status: string
}

export interface AccessFacts {
  /** Complimentary access an operator gave, not ended and not past its end: open whatever else. */
  complimentary?: boolean
  /** The access codes held by the user: ACTIVE when any of them still gives access. */
  code?: { status: CodeStatus } | null
  /** Status of the user's current subscription or four-payment plan, if any. */
  subscriptionStatus?: SubscriptionStatus | null
  /** One-time payments, newest first. */
  paymentIntents: readonly PaymentIntentFact[]
}

/**
 * Subscription statuses that open the panels. `paid` is ours: a four-payment plan paid in full
 * must not lock its buyer out (PRODUCT.md). `past_due` too, unlike spec core §4: while the card
 * is tried again by itself the member keeps access, and loses it when the tries are used up and
 * the plan is `unpaid` (docs/decisions/0034-money-screens-tell-the-truth.md).
 */
export const ACCESS_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = [
  'active',
  'trialing',
  'pending',
  'paid',
  'past_due',
]

/**
 * Access: complimentary access; an active code; else a subscription in an open status; else a
 * succeeded payment. (The console counts the same rule in SQL: server/features/access/sources.ts.)
 */
export function hasAccess(facts: AccessFacts): boolean {
  if (facts.complimentary) return true
  // An inactive code does not close the door: the other ways in are still checked.
  if (facts.code?.status === 'ACTIVE') return true
  if (facts.subscriptionStatus)
    return ACCESS_SUBSCRIPTION_STATUSES.includes(facts.subscriptionStatus)
  return facts.paymentIntents.some((intent) => intent.status === 'succeeded')
}

export const DISPLAYED_SUBSCRIPTION_STATUSES = ['active', 'canceled', 'unpaid'] as const
export type DisplayedSubscriptionStatus = (typeof DISPLAYED_SUBSCRIPTION_STATUSES)[number]

/** How a subscription status is shown: active or trialing as active, canceled, else unpaid. */
export function displayedSubscriptionStatus(
  status: SubscriptionStatus | null | undefined,
): DisplayedSubscriptionStatus {
  if (status === 'active' || status === 'trialing') return 'active'
  if (status === 'canceled') return 'canceled'
  return 'unpaid'
}

/** The payment story My Account tells, as the API sends it. */
export const paymentFlowSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('code'), status: z.enum(CODE_STATUSES) }),
  z.object({ kind: z.literal('subscription'), status: z.enum(DISPLAYED_SUBSCRIPTION_STATUSES) }),
  z.object({ kind: z.literal('payment'), status: z.enum(['paid', 'unpaid']) }),
  z.object({ kind: z.literal('default') }),
])
export type PaymentFlow = z.infer<typeof paymentFlowSchema>

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

/**
 * Where the member stands, in one word every screen tells the same way: paid for good
 * (`lifetime`), on a running plan, on a plan whose renewal is being retried (still open), a
 * payment with the bank, an access code or complimentary access; or, without access, a paused
 * plan, a plan whose retries are used up (`unpaid`), a first payment refused, a plan that
 * ended, or nothing bought yet.
 */
export const STANDINGS = [
  'lifetime',
  'plan',
  'retrying',
  'pending',
  'code',
  'complimentary',
  'paused',
  'unpaid',
  'failed',
  'ended',
  'none',
] as const
export type Standing = (typeof STANDINGS)[number]

/**
 * The member's standing from the access facts. Paid for good comes first: it outlasts a code
 * or a grant. A lifetime payment with the bank is `pending`.
 */
export function standingOf(facts: AccessFacts): Standing {
  const status = facts.subscriptionStatus
  const paidForGood =
    status === 'paid' ||
    (!status && facts.paymentIntents.some((intent) => intent.status === 'succeeded'))
  if (paidForGood) return 'lifetime'
  if (status === 'active' || status === 'trialing') return 'plan'
  if (status === 'past_due') return 'retrying'
  if (status === 'pending' || (!status && facts.paymentIntents.some(isProcessing))) return 'pending'
  if (facts.code?.status === 'ACTIVE') return 'code'
  if (facts.complimentary) return 'complimentary'
  if (status === 'paused') return 'paused'
  if (status === 'unpaid') return 'unpaid'
  if (status === 'incomplete') return 'failed'
  if (status === 'canceled' || status === 'incomplete_expired') return 'ended'
  return 'none'
}

const isProcessing = (intent: PaymentIntentFact) => intent.status === 'processing'

/** Payment status: the first payment that did not succeed names it; all succeeded is `paid`. */
export function paymentStatus(intents: readonly PaymentIntentFact[]): string {
  return intents.find((intent) => intent.status !== 'succeeded')?.status ?? 'paid'
}
