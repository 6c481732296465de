import { eq } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { billingCustomers, billingEvents } from '../../../db/schema/billing'
import { apiErrorSchema } from '../../../domain/api'
import { AppError } from '../../errors'
import { GatewayError, type GatewayEvent } from '../../payments/gateway'
import { clientKey } from '../../plugins/rate-limit'
import { syncCustomer } from './customers'
import { type InvoiceMailQueue, queueInvoiceMail } from './invoice-mail'
import { resyncCustomers, STALE_AFTER_MS } from './resync'
import { type BillingDeps, syncPrices } from './service'

// The provider's webhook: each event is checked, recorded once by its id and answered at once;
// a job then syncs what it is about from the provider. Events may come late, twice or out of
// order: the sync re-reads the customer, so the tables end the same whatever the order.

/** A webhook body is one event: Stripe's are a few kilobytes, this leaves room. */
const WEBHOOK_BODY_LIMIT = 512 * 1024

/** Deliveries with a bad signature an address may send in an hour (Stripe's never fail). */
const BAD_SIGNATURES = { limit: 30, windowMs: 60 * 60_000 }

/** How often the pass over members not synced for a day runs. */
const RESYNC_EVERY_SECONDS = 3600

const receivedSchema = z.object({ received: z.literal(true) })

/**
 * Syncs what a recorded event is about, once. A customer synced since the event arrived is not
 * synced again: that sync read the provider after the change the event reports. Safe to run
 * again after a crash (the event stays unprocessed until the sync is written).
 */
export async function processEvent(deps: BillingDeps, eventId: string): Promise<string | null> {
  const [event] = await deps.db.select().from(billingEvents).where(eq(billingEvents.id, eventId))
  if (!event || event.processedAt) return null
  let userId: string | null = null
  if (event.customerId) {
    const [customer] = await deps.db
      .select({ userId: billingCustomers.userId, syncedAt: billingCustomers.syncedAt })
      .from(billingCustomers)
      .where(eq(billingCustomers.customerId, event.customerId))
    if (!customer || customer.syncedAt <= event.receivedAt) {
      await syncCustomer(deps, event.customerId)
    }
    userId = customer?.userId ?? null
  } else if (/^(price|product)\./.test(event.type)) {
    await syncPrices(deps)
  }
  await deps.db
    .update(billingEvents)
    .set({ processedAt: new Date() })
    .where(eq(billingEvents.id, eventId))
  return userId
}

/** Records an event once; true when it is new (and its job is queued with it). */
async function recordEvent(
  deps: BillingDeps,
  event: GatewayEvent,
  queue: (eventId: string) => Promise<void>,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(billingEvents)
      .values({
        id: event.id,
        type: event.type,
        customerId: event.customer,
        createdAt: new Date(event.created * 1000),
      })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id })
    // Written by this transaction: the event and its job are kept together or not at all.
    if (row) await queue(event.id)
    return Boolean(row)
  })
}

export const webhookRoutes: FastifyPluginAsyncZod<{ invoiceMail: InvoiceMailQueue }> = async (
  app,
  { invoiceMail },
) => {
  const deps = { db: app.db, payments: app.payments }
  const events = await app.jobs.define<{ eventId: string }>(
    'billing.event',
    {
      retryLimit: 10,
      retryDelaySeconds: 5,
      expireInSeconds: 120,
      describe: (job) => `billing event ${job.eventId}`,
    },
    async ({ eventId }) => {
      const userId = await processEvent(deps, eventId)
      if (userId) await queueInvoiceMail(app, invoiceMail, userId)
    },
  )

  // Every hour, members not synced for a day are synced: a webhook that never came heals. Each
  // server schedules the pass; one job an hour runs it, whichever server takes it.
  const nextPass = () => ({
    at: new Date(Date.now() + RESYNC_EVERY_SECONDS * 1000),
    once: { key: 'billing.resync', perSeconds: RESYNC_EVERY_SECONDS },
  })
  const resync = await app.jobs.define<{ pass: 'stale' }>(
    'billing.resync',
    {
      retryLimit: 3,
      retryDelaySeconds: 60,
      expireInSeconds: 15 * 60,
      pollingIntervalSeconds: 60,
      describe: () => 'members not synced for a day, synced from the payment provider',
    },
    async () => {
      await resyncCustomers(deps, { staleBefore: new Date(Date.now() - STALE_AFTER_MS) })
      await resync.send({ pass: 'stale' }, nextPass())
    },
  )
  app.addHook('onReady', async () => {
    await resync.send({ pass: 'stale' }, nextPass())
  })

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
        // Nothing of a delivery that fails the check is recorded; only the failure is counted.
        await app.rateLimiter.consume(`webhook:${clientKey(request.ip)}`, BAD_SIGNATURES)
        request.log.warn({ reason: error.message }, 'webhook refused: bad signature')
        throw new AppError(400, 'billing.webhookSignature')
      }
      await recordEvent(deps, event, (eventId) => events.send({ eventId }))
      return { received: true as const }
    },
  )
}
