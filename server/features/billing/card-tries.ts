import { and, eq, gt, isNotNull, or } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { billingPaymentIntents } from '../../../db/schema/billing'
import { AppError } from '../../errors'
import type { MessageKey } from '../../i18n'
import { clientKey, type RateLimiter } from '../../plugins/rate-limit'
import type { BillingDeps } from './service'

// What card testers get from us. Each check or charge of a card counts against the member and
// against the address it comes from (one address signing in to several accounts gets no more
// tries), and past the first few refusals in an hour every refusal reads 'Your card was
// declined.', whatever the bank's reason, so trying cards here tells which are good no more
// than that.

const HOUR_MS = 60 * 60_000

/** A member may have this many cards checked or charged in an hour… */
export const CARD_TRIES_PER_MEMBER = { limit: 20, windowMs: HOUR_MS }

/** …and one address this many, whichever accounts it signs in to. */
export const CARD_TRIES_PER_ADDRESS = { limit: 30, windowMs: HOUR_MS }

/**
 * This many refusals in an hour, of the member or of the address, say the bank's reason
 * (expired, security code, funds…); every later one only that the card was declined.
 */
export const REFUSALS_WITH_REASON = 3

/** The bank's answers that refuse a card (customers.ts `refusalMessage`). */
const REFUSALS: readonly MessageKey[] = [
  'billing.cardDeclined',
  'billing.insufficientFunds',
  'billing.expiredCard',
  'billing.incorrectCvc',
  'billing.testCardsOnly',
  // A card whose bank asks to check it exists: past the first few, that is a reason too.
  'billing.authenticationRequired',
  'billing.authenticationFailed',
  'billing.paymentAuthenticationFailed',
]

/** Who is trying a card: the member and the address the request comes from. */
export interface CardCaller {
  userId: string
  /** The address as per-address limits count it (an IPv6 client by its /64). */
  address: string
}

export const cardCaller = (request: FastifyRequest, userId: string): CardCaller => ({
  userId,
  address: clientKey(request.ip),
})

const refusalKeys = (caller: CardCaller) => [
  `card-refusals:${caller.userId}`,
  `card-refusals:ip:${caller.address}`,
]

/** Counts one check or charge of a card; 429 past either limit. */
export async function consumeCardTry(limiter: RateLimiter, caller: CardCaller): Promise<void> {
  await limiter.consume(`card:${caller.userId}`, CARD_TRIES_PER_MEMBER)
  await limiter.consume(`card:ip:${caller.address}`, CARD_TRIES_PER_ADDRESS)
}

/** Whether the caller is past the refusals that say their reason. */
export async function refusalsPastReasons(
  limiter: RateLimiter,
  caller: CardCaller,
): Promise<boolean> {
  const counts = await Promise.all(refusalKeys(caller).map((key) => limiter.peek(key)))
  return counts.some(({ count }) => count > REFUSALS_WITH_REASON)
}

async function countRefusal(limiter: RateLimiter, caller: CardCaller): Promise<void> {
  await Promise.all(refusalKeys(caller).map((key) => limiter.hit(key, HOUR_MS)))
}

const isRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && error.statusCode === 402 && REFUSALS.includes(error.messageKey)

/** A refusal past the ones that say their reason reads as the generic decline. */
async function answered(limiter: RateLimiter, caller: CardCaller, error: AppError) {
  return (await refusalsPastReasons(limiter, caller))
    ? new AppError(402, 'billing.cardDeclined')
    : error
}

/**
 * Runs a check of a card (the card field, saving a card); a refusal is counted, and past the
 * first few it reads only 'Your card was declined.'.
 */
export function answeringRefusals<T>(
  limiter: RateLimiter,
  caller: CardCaller,
  work: () => Promise<T>,
): Promise<T> {
  return answering(limiter, caller, () => countRefusal(limiter, caller), work)
}

/**
 * Counts the member's one-time payments the bank refused in the last hour that were not counted
 * yet: at once (Pay now answers the refusal) or a moment later (the pay screen's polling reads
 * it), each once, against the caller who learns of it.
 */
export async function countPaymentRefusals(
  { db }: BillingDeps,
  limiter: RateLimiter,
  caller: CardCaller,
): Promise<void> {
  const refused = await db
    .select({ id: billingPaymentIntents.id })
    .from(billingPaymentIntents)
    .where(
      and(
        eq(billingPaymentIntents.userId, caller.userId),
        // A payment refused at the bank's check is cancelled afterwards; its refusal stays.
        or(
          eq(billingPaymentIntents.status, 'requires_payment_method'),
          and(
            eq(billingPaymentIntents.status, 'canceled'),
            isNotNull(billingPaymentIntents.failureCode),
          ),
        ),
        gt(billingPaymentIntents.createdAt, new Date(Date.now() - HOUR_MS)),
      ),
    )
  for (const { id } of refused) {
    // Kept for a day, longer than the hour a refusal counts in, so it is counted once.
    const { count } = await limiter.hit(`card-refusal-seen:${id}`, 24 * HOUR_MS)
    if (count === 1) await countRefusal(limiter, caller)
  }
}

/**
 * Runs Pay now; a refusal is counted with the member's other refused payments, and past the
 * first few it reads only 'Your card was declined.'.
 */
export function answeringPaymentRefusals<T>(
  deps: BillingDeps,
  limiter: RateLimiter,
  caller: CardCaller,
  work: () => Promise<T>,
): Promise<T> {
  return answering(limiter, caller, () => countPaymentRefusals(deps, limiter, caller), work)
}

/** Runs `work`; a refusal is counted by `count`, then answered with or without its reason. */
async function answering<T>(
  limiter: RateLimiter,
  caller: CardCaller,
  count: () => Promise<void>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!isRefusal(error)) throw error
    await count()
    throw await answered(limiter, caller, error)
  }
}
