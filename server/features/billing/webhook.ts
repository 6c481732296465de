import { and, eq, isNull, lte, sql } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { billingCustomers, billingEvents } from '../../../db/schema/billing'
import { apiErrorSchema } from '../../../domain/api'
import { AppError } from '../../errors'
import { GatewayError, type GatewayEvent } from '../../payments/gateway'
import { clientKey } from '../../plugins/rate-limit'
import { syncCustomer } from './customers'
import { type InvoiceMailQueue, queueInvoiceMail } from './invoice-mail'
import { billingDepsOf } from './notices'
import { scheduleResyncPass } from './resync'
import { type BillingDeps, syncPrices } from './service'

// The provider's webhook: each event is checked, recorded once by its id and answered at once;
// a job then syncs what it is about from the provider. Events may come late, twice or out of
// order: the sync re-reads the customer, so the tables end the same whatever the order.

/** A webhook body is one event: Stripe's are a few kilobytes, this leaves room. */
const WEBHOOK_BODY_LIMIT = 512 * 1024

/** Deliveries with a bad signature an address may send in an hour (Stripe's never fail). */
const BAD_SIGNATURES = { limit: 30, windowMs: 60 * 60_000 }

const receivedSchema = z.object({ received: z.literal(true) })

/** What one sync job is about: a customer, or the catalog (events about prices and the product). */
type SyncTarget = { customer: string } | { catalog: true }

const targetOf = (event: { customer: string | null }): SyncTarget =>
  event.customer ? { customer: event.customer } : { catalog: true }

/**
 * Syncs what recorded events are about, then marks every event about it received before the
 * sync began as processed: one sync answers any number of events, and the jobs of the events it
 * answered find nothing left to do, so a burst of events costs a sync or two, not one each.
 * Each event keeps a job of its own, so one recorded while a sync ran is never left behind.
 * Safe to run again after a crash: events stay unprocessed until a sync after them is written.
 * Answers the member to mail invoices to.
 */
export async function processEvents(
  deps: BillingDeps,
  target: SyncTarget,
): Promise<{ userId: string | null }> {
  const about =
    'customer' in target
      ? eq(billingEvents.customerId, target.customer)
      : isNull(billingEvents.customerId)
  const waiting = and(about, isNull(billingEvents.processedAt))
  // The database's clock, as received_at is: the sync below reads what the provider had by then.
  const [first] = await deps.db
    .select({ startedAt: sql<Date>`clock_timestamp()`.mapWith(billingEvents.receivedAt) })
    .from(billingEvents)
    .where(waiting)
    .limit(1)
  if (!first) return { userId: null }
  const { startedAt } = first
  let userId: string | null = null
  if ('customer' in target) {
    await syncCustomer(deps, target.customer)
    const [customer] = await deps.db
      .select({ userId: billingCustomers.userId })
      .from(billingCustomers)
      .where(eq(billingCustomers.customerId, target.customer))
    userId = customer?.userId ?? null
  } else {
    await syncPrices(deps)
  }
  const answered = and(waiting, lte(billingEvents.receivedAt, startedAt))
  if ('customer' in target && !userId) {
    // About a customer who is no member's (a deleted account's late events, or a customer made
    // outside the app): nothing here is about them, so nothing of them is kept either.
    await deps.db.delete(billingEvents).where(answered)
    return { userId }
  }
  await deps.db.update(billingEvents).set({ processedAt: new Date() }).where(answered)
  return { userId }
}

/** Records an event once, and queues its job with it; a repeated event changes nothing. */
async function recordEvent(
  deps: BillingDeps,
  event: GatewayEvent,
  queue: (target: SyncTarget) => Promise<void>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(billingEvents)
      .values({
        id: event.id,
        type: event.type,
        customerId: event.customer,
        paymentIntentId: event.paymentIntent,
        createdAt: new Date(event.created * 1000),
      })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id })
    // Written by this transaction: the event and its job are kept together or not at all.
    if (row) await queue(targetOf(event))
  })
}

export const webhookRoutes: FastifyPluginAsyncZod<{
  invoiceMail: InvoiceMailQueue
  resyncPollingSeconds?: number
}> = async (app, { invoiceMail, resyncPollingSeconds }) => {
  const deps = billingDepsOf(app)
  const syncs = await app.jobs.define<SyncTarget>(
    'billing.event',
    {
      retryLimit: 10,
      retryDelaySeconds: 5,
      expireInSeconds: 120,
      // A burst of events queues a job each, and after the first sync of a member the others
      // find nothing left to do: taken twenty at a time they cost one fetch and one write. Twenty
      // syncs of a few seconds each still fit in the two minutes a batch gets.
      batchSize: 20,
      describe: (target) => ('customer' in target ? target.customer : ''),
    },
    async (target) => {
      const { userId } = await processEvents(deps, target)
      if (userId) await queueInvoiceMail(app, invoiceMail, userId)
    },
  )

  await scheduleResyncPass(app, deps, resyncPollingSeconds)

  // The signature covers the exact bytes sent, so the body is kept as it came.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  )

  app.post(
    '/billing/webhook',
    {
      // Stripe signs instead of signing in.
      config: { public: true },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        tags: ['billing'],
        summary:
          "The payment provider's events (Stripe's webhook; the sandbox posts its own here too), signed with the endpoint's secret",
        response: { 200: receivedSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      const body = request.body
      let event: GatewayEvent
      try {
        if (!Buffer.isBuffer(body)) throw new GatewayError('signature_invalid', 'No JSON body.')
        event = await app.payments.readEvent(body, request.headers['stripe-signature'])
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error
        // Nothing of a delivery that fails a check is recorded; only the failure is counted.
        await app.rateLimiter.consume(`webhook:${clientKey(request.ip)}`, BAD_SIGNATURES)
        request.log.warn({ reason: error.message }, 'webhook refused')
        throw new AppError(
          400,
          error.code === 'event_invalid' ? 'billing.webhookEvent' : 'billing.webhookSignature',
        )
      }
      await recordEvent(deps, event, (target) => syncs.send(target))
      return { received: true as const }
    },
  )
}
