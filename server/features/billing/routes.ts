import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import {
  addCardRequestSchema,
  billingAccountSchema,
  billingInfoRequestSchema,
  cardConfirmRequestSchema,
  cardConfirmResponseSchema,
  cardParamsSchema,
  paymentCheckedRequestSchema,
  paymentsResponseSchema,
  payOnceRequestSchema,
  payOnceResponseSchema,
  priceListResponseSchema,
  sandboxCardRequestSchema,
  sandboxCardResponseSchema,
  sandboxCheckRequestSchema,
  sandboxPaymentCheckRequestSchema,
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
  answerSandboxCheck,
  billingAccountOf,
  confirmCard,
  createSandboxCard,
  removeCard,
  setDefaultCard,
  updateBillingInfo,
} from './customers'
import { queueInvoiceMail } from './invoice-mail'
import { billingDepsOf } from './notices'
import { answerSandboxPaymentCheck, paymentChecked, paymentsOf, payOnce } from './payments'
import { planRoutes } from './plan-routes'
import { type BillingOptions, CATCH_UP_EVERY_MS, catchUp, mayAskAfterCheck } from './resync'
import { ensureCatalog, listActivePrices } from './service'
import { webhookRoutes } from './webhook'

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  402: apiErrorSchema,
  404: apiErrorSchema,
  429: apiErrorSchema,
}

export const billingRoutes: FastifyPluginAsyncZod<BillingOptions> = async (
  app,
  { catchUpEveryMs = CATCH_UP_EVERY_MS, resyncPollingSeconds },
) => {
  if (!Number.isInteger(catchUpEveryMs) || catchUpEveryMs < 1) {
    throw new Error(`catchUpEveryMs must be a whole number of milliseconds (got ${catchUpEveryMs})`)
  }
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

  const deps = billingDepsOf(app)
  const invoiceMail = app.invoiceMail
  // The provider's word on a payment (its webhook; the sandbox posts there too) updates our
  // tables, then mails the invoices it paid.
  await app.register(webhookRoutes, { invoiceMail, resyncPollingSeconds })
  // Invoices paid while no server ran (the operator command settles charges itself).
  await queueInvoiceMail(app, invoiceMail)
  await app.register(planRoutes, { catchUpEveryMs })

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
      const language = requestLanguage(request)
      const caller = cardCaller(request, user.id)
      const list = async () => {
        // A charge the bank refused after Pay now answered is learnt here: it counts as a refusal.
        await countPaymentRefusals(deps, app.rateLimiter, caller)
        const withoutReasons = await refusalsPastReasons(app.rateLimiter, caller)
        return paymentsOf(deps, user.id, language, { withoutReasons })
      }
      const payments = await list()
      // Polled while a payment is with the bank, or read again after the bank's check in the
      // page: ask the provider too, in case its webhook is late.
      const waiting = payments.some(
        (payment) => payment.status === 'processing' || payment.status === 'requires_action',
      )
      if (!waiting) return { payments }
      if (!(await catchUp(deps, app.rateLimiter, user.id, catchUpEveryMs))) return { payments }
      return { payments: await list() }
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
      return answeringPaymentRefusals(deps, app.rateLimiter, caller, () =>
        payOnce(deps, user, request.body, requestLanguage(request)),
      )
    },
  )

  app.post(
    '/billing/one-payment/checked',
    {
      schema: {
        tags: ['billing'],
        summary:
          "After the bank's check of a payment ran in Stripe's page: the payment, read again from Stripe",
        body: paymentCheckedRequestSchema,
        response: { 200: payOnceResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return paymentChecked(deps, user, request.body, requestLanguage(request), {
        mayAskProvider: () => mayAskAfterCheck(app.rateLimiter, user.id),
      })
    },
  )

  app.post(
    '/billing/sandbox/payments/check',
    {
      schema: {
        tags: ['billing'],
        summary: "The member's answer on the sandbox bank's 3-D Secure check of a payment",
        body: sandboxPaymentCheckRequestSchema,
        response: { 200: payOnceResponseSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      const caller = cardCaller(request, user.id)
      return answeringPaymentRefusals(deps, app.rateLimiter, caller, () =>
        answerSandboxPaymentCheck(deps, user, request.body, requestLanguage(request)),
      )
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

  app.post(
    '/billing/cards/confirm',
    {
      schema: {
        tags: ['billing'],
        summary:
          "A card made by the card field (ours or Stripe's) checked by the bank and saved to the member's customer; the bank's check, if it asks for one, runs in the page with the secret answered",
        body: cardConfirmRequestSchema,
        response: { 200: cardConfirmResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const caller = cardCaller(request, user.id)
      await consumeCardTry(app.rateLimiter, caller)
      reply.header('cache-control', 'no-store')
      return answeringRefusals(app.rateLimiter, caller, () => confirmCard(deps, user, request.body))
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

  app.post(
    '/billing/sandbox/setups/check',
    {
      schema: {
        tags: ['billing'],
        summary: "The member's answer on the sandbox bank's 3-D Secure check of a card",
        body: sandboxCheckRequestSchema,
        response: { 200: cardConfirmResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      const caller = cardCaller(request, user.id)
      return answeringRefusals(app.rateLimiter, caller, () =>
        answerSandboxCheck(deps, user, request.body),
      )
    },
  )
}
