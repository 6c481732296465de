import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import { sandboxPaymentCheckRequestSchema } from '../../../domain/billing'
import {
  invoiceParamsSchema,
  invoicesResponseSchema,
  planStateSchema,
  reactivatePlanRequestSchema,
  renewalRemindersRequestSchema,
  startPlanRequestSchema,
  upgradePreviewQuerySchema,
  upgradePreviewSchema,
} from '../../../domain/billing-plans'
import { answeringRefusals, cardCaller, consumeCardTry } from './card-tries'
import { sendInvoicePdf } from './invoice-pdf-reply'
import { billingDepsOf } from './notices'
import {
  answerSandboxPlanCheck,
  cancelRenewal,
  invoicesOf,
  pausePlan,
  payOpenInvoice,
  planChecked,
  planStateOf,
  previewUpgrade,
  reactivate,
  resumePlan,
  setRenewalReminders,
  startPlan,
  upgradePlan,
} from './plans'
import { catchUp, mayAskAfterCheck } from './resync'

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  402: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
}

/** Cancel, pause and resume each schedule work: a member may change the plan this often. */
const PLAN_CHANGES = { limit: 30, windowMs: 60 * 60_000 }

/** The monthly plans and invoices of the signed-in member (spec core §2 account actions). */
export const planRoutes: FastifyPluginAsyncZod<{ catchUpEveryMs: number }> = async (
  app,
  { catchUpEveryMs },
) => {
  const deps = billingDepsOf(app)

  app.get(
    '/billing/plan',
    {
      schema: {
        tags: ['billing'],
        summary:
          'The current plan, the open invoice and the actions offered (polled while pending)',
        response: { 200: planStateSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      const state = await planStateOf(deps, user.id)
      // Polled while a charge is with the bank: ask the provider too, in case its webhook is late.
      if (!state.charging || !(await catchUp(deps, app.rateLimiter, user.id, catchUpEveryMs)))
        return state
      return planStateOf(deps, user.id)
    },
  )

  app.post(
    '/billing/plan/start',
    {
      schema: {
        tags: ['billing'],
        summary: 'Start Now: FOUR PAYMENTS or the SUBSCRIPTION, charged to the default card',
        body: startPlanRequestSchema,
        response: { 200: planStateSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      // Starting a plan, upgrading and paying an invoice charge a card: card tries, as Pay now.
      await consumeCardTry(app.rateLimiter, cardCaller(request, user.id))
      return startPlan(deps, user, request.body, 'startNow')
    },
  )

  app.post(
    '/billing/plan/reactivate',
    {
      schema: {
        tags: ['billing'],
        summary: 'Reactivate Subscription: undo a cancelled renewal, or start an ended plan again',
        body: reactivatePlanRequestSchema,
        response: { 200: planStateSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      // Starting a plan, upgrading and paying an invoice charge a card: card tries, as Pay now.
      await consumeCardTry(app.rateLimiter, cardCaller(request, user.id))
      return reactivate(deps, user, request.body)
    },
  )

  for (const [path, summary, act] of [
    ['cancel', 'Cancel Renewal: the plan runs to the end of its period', cancelRenewal],
    ['pause', 'Pause: no charges and no sessions until resumed', pausePlan],
    ['resume', 'Resume a paused subscription', resumePlan],
  ] as const) {
    app.post(
      `/billing/plan/${path}`,
      {
        schema: {
          tags: ['billing'],
          summary,
          response: { 200: planStateSchema, ...errors },
        },
      },
      async (request) => {
        const user = await app.requireUser(request)
        await app.rateLimiter.consume(`plan:${user.id}`, PLAN_CHANGES)
        return act(deps, user.id)
      },
    )
  }

  app.get(
    '/billing/plan/upgrade',
    {
      schema: {
        tags: ['billing'],
        summary: 'What an upgrade to FOUR PAYMENTS or ONE PAYMENT would charge now',
        querystring: upgradePreviewQuerySchema,
        response: { 200: upgradePreviewSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return previewUpgrade(deps, user.id, request.query.priceId)
    },
  )

  app.post(
    '/billing/plan/upgrade',
    {
      schema: {
        tags: ['billing'],
        summary:
          'Upgrade: from the subscription to FOUR PAYMENTS or ONE PAYMENT, unused time credited',
        body: startPlanRequestSchema,
        response: { 200: planStateSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      // Starting a plan, upgrading and paying an invoice charge a card: card tries, as Pay now.
      await consumeCardTry(app.rateLimiter, cardCaller(request, user.id))
      return upgradePlan(deps, user, request.body)
    },
  )

  app.get(
    '/billing/invoices',
    {
      schema: {
        tags: ['billing'],
        summary: 'The invoices of the signed-in member, newest first',
        response: { 200: invoicesResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return { invoices: await invoicesOf(app.db, user.id) }
    },
  )

  app.get(
    '/billing/invoices/:id/pdf',
    {
      schema: {
        tags: ['billing'],
        summary:
          "One of the member's invoices as a PDF, in the member's language (Stripe's own PDF in Stripe mode, by redirect)",
        params: invoiceParamsSchema,
        response: { 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      return sendInvoicePdf(app, reply, user.id, request.params.id, user.language)
    },
  )

  app.post(
    '/billing/invoices/:id/pay',
    {
      schema: {
        tags: ['billing'],
        summary: 'Pay Actual Invoice: charge the open invoice to the default card',
        params: invoiceParamsSchema,
        response: { 200: planStateSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      // Starting a plan, upgrading and paying an invoice charge a card: card tries, as Pay now.
      await consumeCardTry(app.rateLimiter, cardCaller(request, user.id))
      return payOpenInvoice(deps, user.id, request.params.id)
    },
  )

  app.put(
    '/billing/plan/reminders',
    {
      schema: {
        tags: ['billing'],
        summary: 'Turn the e-mail reminder before each monthly payment on or off',
        body: renewalRemindersRequestSchema,
        response: { 200: planStateSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return setRenewalReminders(deps, user.id, request.body.on)
    },
  )

  app.post(
    '/billing/plan/checked',
    {
      schema: {
        tags: ['billing'],
        summary:
          "After the bank's check of the open invoice's charge ran in Stripe's page: the plan, read again from Stripe",
        response: { 200: planStateSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return planChecked(deps, user.id, {
        mayAskProvider: () => mayAskAfterCheck(app.rateLimiter, user.id),
      })
    },
  )

  app.post(
    '/billing/sandbox/plan/check',
    {
      schema: {
        tags: ['billing'],
        summary:
          "The member's answer on the sandbox bank's 3-D Secure check of the open invoice's charge",
        body: sandboxPaymentCheckRequestSchema,
        response: { 200: planStateSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return answeringRefusals(app.rateLimiter, cardCaller(request, user.id), () =>
        answerSandboxPlanCheck(deps, user.id, request.body),
      )
    },
  )
}
