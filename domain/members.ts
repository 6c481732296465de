import { z } from 'zod/mini'
import { SUBSCRIPTION_STATUSES } from './access'
import { CURRENCIES, PLANS } from './billing'

// The console's view of members (issue 27): the list, one member's page, and what an operator
// may change on them. Plain patterns, as in domain/operators.ts.

/**
 * What gives a member access, in the order the access rule asks (domain/access.ts hasAccess):
 * complimentary access from an operator, an access code, a running plan (SUBSCRIPTION or FOUR
 * PAYMENTS), a ONE PAYMENT.
 */
export const ACCESS_SOURCES = [
  'complimentary',
  'code',
  'subscription',
  'four_payments',
  'one_payment',
] as const
export type AccessSource = (typeof ACCESS_SOURCES)[number]

export const MEMBER_PAGE_SIZE = 50

/** How many of a member's support messages their page shows. */
export const MEMBER_SUPPORT_MESSAGES = 20

/** The list's filters: words of an e-mail or a name, where access comes from, the plan's status. */
export const memberSearchQuerySchema = z.object({
  q: z.optional(z.string().check(z.trim(), z.maxLength(100, { error: 'members.queryTooLong' }))),
  /** An access source, or `none` for members without access. */
  access: z.optional(z.enum([...ACCESS_SOURCES, 'none'])),
  status: z.optional(z.enum(SUBSCRIPTION_STATUSES)),
  /** The `next` of the page before. */
  after: z.optional(z.string().check(z.regex(/^[\w-]{1,200}$/))),
})
export type MemberSearchQuery = z.infer<typeof memberSearchQuerySchema>

export const memberRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  /** ISO date and time of the sign-up. */
  createdAt: z.string(),
  access: z.nullable(z.enum(ACCESS_SOURCES)),
  /** The current plan's status, if the member has had a plan. */
  planStatus: z.nullable(z.enum(SUBSCRIPTION_STATUSES)),
  blocked: z.boolean(),
})
export type MemberRow = z.infer<typeof memberRowSchema>

export const memberPageSchema = z.object({
  members: z.array(memberRowSchema),
  next: z.nullable(z.string()),
})

/** A member's id in a path. */
export const memberParamsSchema = z.object({ id: z.string().check(z.regex(/^[\w-]{1,64}$/)) })

/** Complimentary access in force: why, who gave it, since and until when (null: until ended). */
export const complimentarySchema = z.object({
  reason: z.string(),
  grantedBy: z.string(),
  grantedAt: z.string(),
  endsAt: z.nullable(z.string()),
})
export type Complimentary = z.infer<typeof complimentarySchema>

const money = { amount: z.number(), currency: z.enum(CURRENCIES) }

export const memberDetailSchema = z.object({
  account: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    language: z.string(),
    role: z.string(),
    emailVerified: z.boolean(),
    createdAt: z.string(),
    /** Sessions signed in now, on any device. */
    sessions: z.number(),
    /** Since when, and why, an operator blocked the account; null when it is not blocked. */
    blocked: z.nullable(z.object({ at: z.string(), reason: z.string() })),
  }),
  access: z.object({
    hasAccess: z.boolean(),
    source: z.nullable(z.enum(ACCESS_SOURCES)),
    complimentary: z.nullable(complimentarySchema),
  }),
  plan: z.nullable(
    z.object({
      plan: z.enum(PLANS),
      status: z.enum(SUBSCRIPTION_STATUSES),
      currentPeriodEnd: z.string(),
      cancelAtPeriodEnd: z.boolean(),
    }),
  ),
  /** Brand and last four digits only. */
  cards: z.array(z.object({ brand: z.string(), last4: z.string() })),
  invoices: z.array(
    z.object({
      id: z.string(),
      number: z.string(),
      status: z.string(),
      ...money,
      /** Cents the member paid on it, and how many of them were given back. */
      amountPaid: z.int(),
      refunded: z.int(),
      /** Where its mail goes: the billing e-mail it was made for, and the copy address. */
      sendsTo: z.array(z.string()),
      createdAt: z.string(),
    }),
  ),
  payments: z.array(
    z.object({ id: z.string(), status: z.string(), ...money, createdAt: z.string() }),
  ),
  /** What the member wrote to the support team, newest first (the last 20). */
  supportMessages: z.array(
    z.object({ id: z.string(), subject: z.string(), body: z.string(), createdAt: z.string() }),
  ),
  sessionsPlayed: z.number(),
  /** How many client records the member keeps (the records are theirs, not shown). */
  clients: z.number(),
})
export type MemberDetail = z.infer<typeof memberDetailSchema>

const reason = z
  .string({ error: 'members.reasonRequired' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'members.reasonRequired' }),
    z.maxLength(500, { error: 'members.reasonTooLong' }),
    z.regex(/^[^\p{Cc}]*$/u, { error: 'members.reasonOneLine' }),
  )

/** "Grant complimentary access": why, and its last day (today or later, UTC), or for good. */
export const grantComplimentarySchema = z.object({
  reason,
  /** The last day (YYYY-MM-DD) the member may play: access ends as the next begins, UTC. */
  endsOn: z.optional(
    z.nullable(
      z
        .string({ error: 'members.endsOnFormat' })
        .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'members.endsOnFormat' })),
    ),
  ),
})
export type GrantComplimentary = z.infer<typeof grantComplimentarySchema>

/** Ending complimentary access before its time: why. */
export const endComplimentarySchema = z.object({ reason })

/** Sign-ups per day over the overview's chart, oldest first. */
export const SIGN_UP_DAYS = 90

/** The console's overview: how the business stands now. Amounts in cents of `currency`. */
export const overviewSchema = z.object({
  members: z.number(),
  /** Members with access, by what gives it. */
  withAccess: z.object({
    complimentary: z.number(),
    code: z.number(),
    subscription: z.number(),
    four_payments: z.number(),
    one_payment: z.number(),
  }),
  currency: z.enum(CURRENCIES),
  /** The monthly price of every SUBSCRIPTION and FOUR PAYMENTS plan being paid. */
  monthlyRecurring: z.number(),
  /** Paid invoices and one-time payments of the last 30 days. */
  revenueLast30Days: z.number(),
  /** Members whose plan's renewal was refused and is being retried. */
  failedPayments: z.number(),
  /** Messages (mail, codes, invoices) that gave up after their retries, kept for a week. */
  mailGaveUp: z.number(),
  signUps: z.array(z.object({ day: z.string(), count: z.number() })),
})
export type Overview = z.infer<typeof overviewSchema>

/** An action on a member's account that the audit log keeps with why. */
export const memberActionSchema = z.object({ reason })

/** Ending a member's plan from the console: now, or at the end of the period it is in. */
export const cancelPlanSchema = z.object({ reason, when: z.enum(['now', 'period-end']) })
export type CancelPlan = z.infer<typeof cancelPlanSchema>

/** The most one refund may give back, in cents ($100,000): the largest amount a price may have. */
export const REFUND_MAX_CENTS = 10_000_000

/**
 * Refunding a paid invoice from the console: how many cents go back to the card, why, and the
 * request's own key. The page makes a key per refund it means, so the same request sent twice
 * (a double click, a retry after a time-out) gives back once.
 */
export const refundSchema = z.object({
  invoiceId: z.string().check(z.regex(/^in_[A-Za-z0-9_]{1,250}$/)),
  amount: z
    .int({ error: 'members.refundAmount' })
    .check(
      z.minimum(1, { error: 'members.refundAmount' }),
      z.maximum(REFUND_MAX_CENTS, { error: 'members.refundAmount' }),
    ),
  reason,
  requestKey: z.string().check(z.regex(/^[A-Za-z0-9-]{16,100}$/)),
})
export type RefundRequest = z.infer<typeof refundSchema>

export const refundResponseSchema = z.object({
  refund: z.object({ id: z.string(), amount: z.int(), status: z.string() }),
  /** Cents given back on the invoice, this refund included. */
  refunded: z.int(),
})
