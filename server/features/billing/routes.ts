import { eq } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { billingCustomers } from '../../../db/schema/billing'
import { apiErrorSchema } from '../../../domain/api'
import {
  addCardRequestSchema,
  billingAccountSchema,
  billingInfoRequestSchema,
  cardParamsSchema,
  paymentsResponseSchema,
  payOnceRequestSchema,
  payOnceResponseSchema,
  priceListResponseSchema,
  sandboxCardRequestSchema,
  sandboxCardResponseSchema,
} from '../../../domain/billing'
import { requestLanguage } from '../../i18n'
import {
  answeringPaymentRefusals,
  answeringRefusals,
  cardCaller,
  consumeCardTry,
  countPaymentRefusals,
  refusalsPastReasons,
} from './card-tries'
import {
  addCard,
  billingAccountOf,
  createSandboxCard,
  removeCard,
  setDefaultCard,
  syncCustomer,
  updateBillingInfo,
} from './customers'
import { defineInvoiceMail, queueInvoiceMail } from './invoice-mail'
import { MEMBER_LOCK_LEASE_MS } from './member-lock'
import { paymentsOf, payOnce } from './payments'
import { planRoutes } from './plan-routes'
import { ensureCatalog, listActivePrices } from './service'

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  402: apiErrorSchema,
  404: apiErrorSchema,
  429: apiErrorSchema,
}

export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  // The catalog exists before the first request, so the price list is never empty on a new
  // installation.
  await ensureCatalog({ db: app.db, payments: app.payments })

  app.get(
    '/billing/prices',
    {
      schema: {
        tags: ['billing'],
        summary: 'The price plans on sale (only active prices)',
        response: { 200: priceListResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      await app.requireUser(request)
      return { prices: await listActivePrices(app.db) }
    },
  )

  const deps = { db: app.db, payments: app.payments }
  // The provider's word on a payment (its webhook; the sandbox's bank job) updates our tables.
  // In the member's turn like any sync: in the background it may wait out a whole lease rather
  // than fail the job (a job that ran again would not be told the event again); inside an
  // action of the member (the sandbox tells from within its calls) it joins that action's turn.
  const invoiceMail = await defineInvoiceMail(app)
  app.payments.onEvent(async (event) => {
    await syncCustomer(deps, event.customer, { waitMs: MEMBER_LOCK_LEASE_MS })
    const [customer] = await app.db
      .select({ userId: billingCustomers.userId })
      .from(billingCustomers)
      .where(eq(billingCustomers.customerId, event.customer))
    if (customer) await queueInvoiceMail(app, invoiceMail, customer.userId)
  })
  // Invoices paid while no server ran (the operator command settles charges itself).
  await queueInvoiceMail(app, invoiceMail)
  await app.register(planRoutes)

  app.get(
    '/billing/payments',
    {
      schema: {
        tags: ['billing'],
        summary: 'The one-time payments of the signed-in user, newest first (polled while pending)',
        response: { 200: paymentsResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      // A charge the bank refused after Pay now answered is learnt here: it counts as a refusal.
      const caller = cardCaller(request, user.id)
      await countPaymentRefusals(deps, app.rateLimiter, caller)
      const withoutReasons = await refusalsPastReasons(app.rateLimiter, caller)
      return {
        payments: await paymentsOf(deps, user.id, requestLanguage(request), { withoutReasons }),
      }
    },
  )

  app.post(
    '/billing/one-payment',
    {
      schema: {
        tags: ['billing'],
        summary: 'Pay now: the ONE PAYMENT plan with the card from the card field',
        body: payOnceRequestSchema,
        response: { 200: payOnceResponseSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      const caller = cardCaller(request, user.id)
      await consumeCardTry(app.rateLimiter, caller)
      const payment = await answeringPaymentRefusals(deps, app.rateLimiter, caller, () =>
        payOnce(deps, user, request.body, requestLanguage(request)),
      )
      return { payment }
    },
  )

  app.get(
    '/billing/account',
    {
      schema: {
        tags: ['billing'],
        summary: 'Billing information and saved cards of the signed-in user',
        response: { 200: billingAccountSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return billingAccountOf(deps, user.id)
    },
  )

  app.put(
    '/billing/info',
    {
      schema: {
        tags: ['billing'],
        summary: 'Save the billing form (effective from the next invoice)',
        body: billingInfoRequestSchema,
        response: { 200: billingAccountSchema, ...errors },
      },
    },
    async (request) => updateBillingInfo(deps, await app.requireUser(request), request.body),
  )

  app.post(
    '/billing/cards',
    {
      schema: {
        tags: ['billing'],
        summary: 'Save a card made by the card field; the first card becomes the default',
        body: addCardRequestSchema,
        response: { 200: billingAccountSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      const caller = cardCaller(request, user.id)
      await consumeCardTry(app.rateLimiter, caller)
      return answeringRefusals(app.rateLimiter, caller, () => addCard(deps, user, request.body))
    },
  )

  app.put(
    '/billing/cards/:id/default',
    {
      schema: {
        tags: ['billing'],
        summary: 'Make a saved card the default',
        params: cardParamsSchema,
        response: { 200: billingAccountSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return setDefaultCard(deps, user.id, request.params.id)
    },
  )

  app.delete(
    '/billing/cards/:id',
    {
      schema: {
        tags: ['billing'],
        summary: 'Remove a saved card (not the only card of a running plan)',
        params: cardParamsSchema,
        response: { 200: billingAccountSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return removeCard(deps, user.id, request.params.id)
    },
  )

  app.post(
    '/billing/sandbox/cards',
    {
      schema: {
        tags: ['billing'],
        summary:
          'The sandbox card field: turns a test card into a payment method (sandbox only; the provider does this in Stripe mode)',
        body: sandboxCardRequestSchema,
        response: { 200: sandboxCardResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      const caller = cardCaller(request, user.id)
      await consumeCardTry(app.rateLimiter, caller)
      return answeringRefusals(app.rateLimiter, caller, () =>
        createSandboxCard(deps, user.id, request.body),
      )
    },
  )
}
