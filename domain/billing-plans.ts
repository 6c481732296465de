import { z } from 'zod/mini'
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './access'
import { CURRENCIES, PLANS, REFUSAL_REASONS } from './billing'
import { textSchema } from './text'

// Monthly plans (SUBSCRIPTION, FOUR PAYMENTS) and invoices, as both sides see them, and the
// rules for which account action is offered when (spec core §2, "Account summary actions").

/** FOUR PAYMENTS charges this many times, a month apart, then ends by itself as `paid`. */
export const FOUR_PAYMENTS_INSTALLMENTS = 4

/** The statuses in which a plan is still running (it may renew, or be paid in installments). */
export const RUNNING_STATUSES: readonly SubscriptionStatus[] = [
  'pending',
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'paused',
]

export const subscriptionSchema = z.object({
  id: z.string(),
  plan: z.enum(PLANS),
  /** The price's nickname as the list shows it (`FOUR PAYMENTS`). */
  label: z.string(),
  unitAmount: z.int(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  /** When FOUR PAYMENTS ends by itself. */
  cancelAt: z.nullable(z.string()),
  endedAt: z.nullable(z.string()),
  paused: z.boolean(),
  /** FOUR PAYMENTS only: how many of the four are paid. */
  installments: z.nullable(z.object({ paid: z.int(), total: z.int() })),
})
export type Subscription = z.infer<typeof subscriptionSchema>

export const INVOICE_STATUSES = ['open', 'paid', 'void', 'uncollectible'] as const

/** One line of an invoice: what was charged, or credited when negative. */
export const invoiceLineSchema = z.object({
  description: z.string(),
  amount: z.int(),
  proration: z.boolean(),
  periodStart: z.string(),
  periodEnd: z.string(),
})
export type InvoiceLine = z.infer<typeof invoiceLineSchema>

export const invoiceAddressSchema = z.object({
  line1: z.string(),
  line2: z.nullable(z.string()),
  city: z.nullable(z.string()),
  state: z.nullable(z.string()),
  postalCode: z.string(),
  country: z.string(),
})
export type InvoiceAddress = z.infer<typeof invoiceAddressSchema>

/** A row of the invoices table (spec core §3 and §9). */
export const invoiceSchema = z.object({
  id: z.string(),
  /** The reference: sequential per installation. */
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  total: z.int(),
  currency: z.enum(CURRENCIES),
  createdAt: z.string(),
  paidAt: z.nullable(z.string()),
  /** Cents given back on it (refunds done or on their way to the card); 0 for most. */
  refunded: z.int(),
  /** Where the PDF is. */
  pdfUrl: z.string(),
  /** What it charged for: the plan's label (`FOUR PAYMENTS`), or null when that is unknown. */
  product: z.nullable(z.string()),
  /** FOUR PAYMENTS: which of the four it is. */
  installment: z.nullable(z.object({ number: z.int(), total: z.int() })),
})
export type Invoice = z.infer<typeof invoiceSchema>

export const invoicesResponseSchema = z.object({ invoices: z.array(invoiceSchema) })

/** The account actions (spec core §2), decided on the server by `planActions`. */
export const planActionsSchema = z.object({
  startNow: z.boolean(),
  cancelRenewal: z.boolean(),
  reactivate: z.boolean(),
  payInvoice: z.boolean(),
  pause: z.boolean(),
  resume: z.boolean(),
  upgrade: z.boolean(),
})
export type PlanActions = z.infer<typeof planActionsSchema>

export const planStateSchema = z.object({
  /** The current plan: the running one, else the newest (spec core §4). */
  subscription: z.nullable(subscriptionSchema),
  /** The unpaid, non-void invoice 'Pay Actual Invoice' pays, if there is one. */
  openInvoice: z.nullable(invoiceSchema),
  /** True when the last charge of the open invoice failed: the banner shows. */
  paymentFailed: z.boolean(),
  /** Why the bank refused that charge. */
  refusal: z.nullable(z.enum(REFUSAL_REASONS)),
  /**
   * Paid for good: a ONE PAYMENT paid, or FOUR PAYMENTS whose last payment is made. Nothing is
   * charged any more and access stays.
   */
  lifetime: z.boolean(),
  /** True while a charge of the open invoice is with the bank: the screen asks again. */
  charging: z.boolean(),
  /**
   * While the open invoice's charge waits for the member to confirm it at their bank (3-D
   * Secure): the charge's client secret, with which the page runs that check.
   */
  bankCheck: z.nullable(z.string()),
  /** When the open invoice will be charged again by itself, if it will. */
  nextPaymentAttempt: z.nullable(z.string()),
  hasDefaultCard: z.boolean(),
  /** The member asked to be mailed a few days before each monthly payment (off by default). */
  renewalReminders: z.boolean(),
  /**
   * A reminder would be mailed before the plan's next payment: the plan runs (not paused, late
   * or ending) and charges again. Worked out by the same rule the server mails by, so the box
   * is offered exactly when it would do something.
   */
  remindable: z.boolean(),
  actions: planActionsSchema,
})
export type PlanState = z.infer<typeof planStateSchema>

/** Turns the reminder before each monthly payment on or off. */
export const renewalRemindersRequestSchema = z.object({ on: z.boolean() })
export type RenewalRemindersRequest = z.infer<typeof renewalRemindersRequestSchema>

export interface PlanFacts {
  subscription: Pick<Subscription, 'plan' | 'status' | 'cancelAtPeriodEnd' | 'paused'> | null
  hasOpenInvoice: boolean
  /** A charge of the open invoice is with the bank: it cannot be paid again meanwhile. */
  charging: boolean
  hasDefaultCard: boolean
  /**
   * A one-time payment (ONE PAYMENT, also bought as an upgrade) succeeded or is still with the
   * bank: nothing else is bought beside it, and nothing monthly starts or is paid.
   */
  lifetimePayment: boolean
}

/**
 * Which account actions are offered (spec core §2, with Pause, Resume and Upgrade from the
 * issue). The server also refuses an action this does not offer.
 */
export function planActions({
  subscription,
  hasOpenInvoice,
  charging,
  hasDefaultCard,
  lifetimePayment,
}: PlanFacts): PlanActions {
  const status = subscription?.status
  const isSubscription = subscription?.plan === 'subscription'
  const live = status === 'active' || status === 'trialing'
  return {
    startNow: !subscription && hasDefaultCard && !lifetimePayment,
    cancelRenewal:
      isSubscription && live && !subscription.cancelAtPeriodEnd && !subscription.paused,
    // A lifetime ONE PAYMENT has nothing left to start again.
    reactivate:
      hasDefaultCard &&
      ((!lifetimePayment && (status === 'canceled' || status === 'incomplete_expired')) ||
        (isSubscription && live && subscription.cancelAtPeriodEnd === true)),
    // Paid, the open invoice of a plan that never started would start it beside the lifetime
    // payment.
    payInvoice: hasOpenInvoice && hasDefaultCard && !charging && !lifetimePayment,
    pause: isSubscription && live && !subscription.paused && !subscription.cancelAtPeriodEnd,
    // Not while the resumption's own charge is open: it is that charge that resumes the plan.
    resume: isSubscription && status === 'paused' && !hasOpenInvoice,
    // Not while an invoice is open: its outcome would land on the new plan. Never to a member
    // who paid for good (or whose ONE PAYMENT is with the bank): it would be bought twice.
    upgrade: isSubscription && live && !subscription.paused && !hasOpenInvoice && !lifetimePayment,
  }
}

/** Start a plan with the default card: Start Now, /my-account/subscribe-payment, Reactivate. */
export const startPlanRequestSchema = z.object({
  priceId: textSchema().check(
    z.regex(/^price_[A-Za-z0-9]{1,100}$/, { error: 'billing.choosePrice' }),
  ),
  attemptId: textSchema().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)),
})
export type StartPlanRequest = z.infer<typeof startPlanRequestSchema>

/**
 * Reactivate: a cancelled renewal goes on as it was (no price needed); a plan that ended starts
 * again on the chosen price.
 */
export const reactivatePlanRequestSchema = z.object({
  priceId: z.optional(startPlanRequestSchema.shape.priceId),
  attemptId: startPlanRequestSchema.shape.attemptId,
})
export type ReactivatePlanRequest = z.infer<typeof reactivatePlanRequestSchema>

/** What an upgrade would charge now: the new price less the unused part of this month. */
export const upgradePreviewSchema = z.object({
  amount: z.int(),
  /** Negative: the unused part of the current month. */
  credit: z.int(),
  total: z.int(),
})
export type UpgradePreview = z.infer<typeof upgradePreviewSchema>

export const upgradePreviewQuerySchema = z.object({ priceId: startPlanRequestSchema.shape.priceId })

export const invoiceParamsSchema = z.object({
  id: textSchema().check(z.regex(/^in_[A-Za-z0-9]{1,100}$/)),
})

/** The pending plan is asked about again this often, like a pending payment. */
export { PAYMENT_POLL_MS as PLAN_POLL_MS } from './billing'
