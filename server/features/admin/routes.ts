import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { codeRequestSchema, createCodesRequestSchema } from '../../../domain/access-codes'
import { apiErrorSchema, okResponseSchema } from '../../../domain/api'
import { createPriceRequestSchema, priceSchema } from '../../../domain/billing'
import { operatorMediaSchema } from '../../../domain/harmonize'
import {
  MEDIA_PART_BYTES,
  mediaUploadRequestSchema,
  mediaUploadSchema,
} from '../../../domain/media-uploads'
import {
  cancelPlanSchema,
  complimentarySchema,
  endComplimentarySchema,
  grantComplimentarySchema,
  memberActionSchema,
  memberDetailSchema,
  memberPageSchema,
  memberParamsSchema,
  memberSearchQuerySchema,
  overviewSchema,
  refundResponseSchema,
  refundSchema,
} from '../../../domain/members'
import {
  auditPageSchema,
  auditQuerySchema,
  codesPageSchema,
  codesQuerySchema,
  failedJobsSchema,
  retryJobRequestSchema,
} from '../../../domain/operators'
import { textSchema } from '../../../domain/text'
import { AppError } from '../../errors'
import { requestLanguage } from '../../i18n'
import { billingDepsOf, sendInvoicePdf } from '../billing/public'
import { type Actor, auditPage } from './audit'
import { consoleCodes, consoleCreateCodes, consoleRevokeCode } from './codes'
import { retryFailedJob } from './jobs'
import { consoleMedia, consoleRemoveMedia } from './media'
import { cancelUpload, completeUpload, putPart, startUpload } from './media-uploads'
import {
  blockMember,
  cancelMemberPlan,
  endComplimentaryAccess,
  grantComplimentaryAccess,
  memberDetail,
  refundMember,
  resendMemberInvoice,
  searchMembers,
  signOutEverywhere,
  unblockMember,
} from './members'
import { overview } from './overview'
import { consoleArchivePrice, consoleCreatePrice, consolePrices } from './prices'
import { consoleState } from './second-factor'

const refusals = { 400: apiErrorSchema, 403: apiErrorSchema }
const memberRefusals = { ...refusals, 404: apiErrorSchema, 409: apiErrorSchema }

/** One invoice of one member. */
const memberInvoiceParamsSchema = z.object({
  id: memberParamsSchema.shape.id,
  invoiceId: z.string().check(z.regex(/^[\w-]{1,64}$/)),
})

/** Invoices mailed again by one operator: enough for a morning of support, not for a flood. */
const RESENDS = { limit: 30, windowMs: 60 * 60_000 }

/** One upload of the operator's. */
const mediaUploadParamsSchema = z.object({ id: z.uuid() })
/** One part of an upload. */
const mediaPartParamsSchema = z.object({
  id: z.uuid(),
  // Checked against the upload's own count of parts when it arrives.
  index: z.pipe(z.string().check(z.regex(/^\d{1,3}$/)), z.transform(Number)),
})

const mediaRemoveRequestSchema = z.object({ key: textSchema().check(z.maxLength(512)) })

/** A price by its gateway id. */
const priceRequestSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[\w-]+$/)),
})

/**
 * The console's API, under /api/admin/. Every route answers 403 to anyone but an operator who
 * passed the second factor in this session (ADR 0029), visitors included, before its input is
 * read: the guard is this plugin's own hook, not each route's to remember.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRoute', (route) => {
    // The guard below answers visitors too, with the same 403 as everyone it refuses.
    route.config = { ...route.config, public: true }
  })
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const [user, sessionId] = await Promise.all([app.getUser(request), app.getSessionId(request)])
    const state = user && sessionId ? await consoleState(app.db, user.id, sessionId) : null
    if (!state?.operator) throw new AppError(403, 'operators.notOperator')
    if (!state.passed) throw new AppError(403, 'operators.factorRequired')
  })

  /** The operator acting, as the audit log names them (the guard above let only them in). */
  const actorOf = async (request: FastifyRequest): Promise<Actor> => {
    const user = await app.getUser(request)
    if (!user) throw new AppError(403, 'operators.notOperator')
    return { id: user.id, email: user.email }
  }

  app.get(
    '/overview',
    {
      schema: {
        tags: ['admin'],
        summary:
          'How the business stands: members, access by source, revenue, refused charges, mail that gave up, sign-ups per day',
        response: { 200: overviewSchema, ...refusals },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return overview(app.db, () => app.jobs.failed(1000))
    },
  )

  app.get(
    '/members',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Members, newest first, a page at a time: by any part of the e-mail or name, by access and plan status',
        querystring: memberSearchQuerySchema,
        response: { 200: memberPageSchema, ...refusals },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      return searchMembers(app.db, request.query)
    },
  )

  app.get(
    '/members/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'One member: account, access, plan, cards, invoices, payments, sessions, clients count',
        params: memberParamsSchema,
        response: { 200: memberDetailSchema, ...memberRefusals },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      return memberDetail(app.db, request.params.id)
    },
  )

  app.post(
    '/members/:id/complimentary',
    {
      schema: {
        tags: ['admin'],
        summary: 'Grant complimentary access, with a reason, until a day or until ended',
        params: memberParamsSchema,
        body: grantComplimentarySchema,
        response: { 200: complimentarySchema, ...memberRefusals },
      },
    },
    async (request) =>
      grantComplimentaryAccess(app.db, await actorOf(request), request.params.id, request.body),
  )

  app.post(
    '/members/:id/complimentary/end',
    {
      schema: {
        tags: ['admin'],
        summary: 'End complimentary access now, with a reason',
        params: memberParamsSchema,
        body: endComplimentarySchema,
        response: { 200: okResponseSchema, ...memberRefusals },
      },
    },
    async (request) => {
      await endComplimentaryAccess(
        app.db,
        await actorOf(request),
        request.params.id,
        request.body.reason,
      )
      return { ok: true as const }
    },
  )

  app.get(
    '/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first: what operators changed, on whom, from what to what',
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...refusals },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      return auditPage(app.db, request.query)
    },
  )

  app.post(
    '/members/:id/sign-out',
    {
      schema: {
        tags: ['admin'],
        summary: 'Sign the member out on every device; they may sign in again',
        params: memberParamsSchema,
        response: { 200: okResponseSchema, ...memberRefusals },
      },
    },
    async (request) => {
      await signOutEverywhere(app.db, app.auth, await actorOf(request), request.params.id)
      return { ok: true as const }
    },
  )

  app.post(
    '/members/:id/block',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Block the account, with a reason: signed out everywhere, no sign-in until unblocked',
        params: memberParamsSchema,
        body: memberActionSchema,
        response: { 200: okResponseSchema, ...memberRefusals },
      },
    },
    async (request) => {
      await blockMember(
        app.db,
        app.auth,
        await actorOf(request),
        request.params.id,
        request.body.reason,
      )
      return { ok: true as const }
    },
  )

  app.post(
    '/members/:id/unblock',
    {
      schema: {
        tags: ['admin'],
        summary: 'Unblock the account, with a reason',
        params: memberParamsSchema,
        body: memberActionSchema,
        response: { 200: okResponseSchema, ...memberRefusals },
      },
    },
    async (request) => {
      await unblockMember(app.db, await actorOf(request), request.params.id, request.body.reason)
      return { ok: true as const }
    },
  )

  app.post(
    '/members/:id/plan/cancel',
    {
      schema: {
        tags: ['admin'],
        summary: "Cancel the member's running plan now, or at the end of its period, with a reason",
        params: memberParamsSchema,
        body: cancelPlanSchema,
        response: { 200: okResponseSchema, ...memberRefusals },
      },
    },
    async (request) => {
      await cancelMemberPlan(
        billingDepsOf(app),
        await actorOf(request),
        request.params.id,
        request.body,
      )
      return { ok: true as const }
    },
  )

  app.post(
    '/members/:id/refund',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Give back part or all of a member's paid invoice to the card that paid it (once per request key)",
        params: memberParamsSchema,
        body: refundSchema,
        response: { 200: refundResponseSchema, ...memberRefusals },
      },
    },
    async (request) =>
      refundMember(billingDepsOf(app), await actorOf(request), request.params.id, request.body),
  )

  app.post(
    '/members/:id/invoices/:invoiceId/resend',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Mail one of the member's paid invoices again, to its billing e-mail and copy address",
        params: memberInvoiceParamsSchema,
        response: {
          200: z.object({ to: z.array(z.string()) }),
          ...memberRefusals,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const actor = await actorOf(request)
      await app.rateLimiter.consume(`invoice-resend:${actor.id}`, RESENDS)
      return resendMemberInvoice(app, actor, request.params.id, request.params.invoiceId)
    },
  )

  app.get(
    '/jobs',
    {
      schema: {
        tags: ['admin'],
        summary: 'Jobs that gave up after their retries (mail, invoices, syncs), newest first',
        response: { 200: failedJobsSchema, ...refusals },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { jobs: await app.jobs.failed(100) }
    },
  )

  app.post(
    '/jobs/retry',
    {
      schema: {
        tags: ['admin'],
        summary: 'Run a job that gave up once more, in its own queue, with its retries anew',
        body: retryJobRequestSchema,
        response: { 200: okResponseSchema, ...refusals, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const actor = await actorOf(request)
      await retryFailedJob(app, actor, request.body.id)
      return { ok: true as const }
    },
  )

  // A part of an upload is read whole (it is at most MEDIA_PART_BYTES): it is checked for its
  // length and, the first, sniffed before anything of it is stored.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: MEDIA_PART_BYTES },
    (_request, body, done) => done(null, body),
  )

  app.get(
    '/media',
    {
      schema: {
        tags: ['admin'],
        summary: "The panels' videos and the backing tracks, by key",
        response: { 200: z.object({ media: z.array(operatorMediaSchema) }), ...refusals },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { media: await consoleMedia(app) }
    },
  )

  app.post(
    '/media/uploads',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Start uploading a panel's video or the backing track, in parts (same name replaces)",
        body: mediaUploadRequestSchema,
        response: {
          200: z.object({ upload: mediaUploadSchema }),
          ...refusals,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => ({
      upload: await startUpload(app, await actorOf(request), request.body),
    }),
  )

  app.put(
    '/media/uploads/:id/parts/:index',
    {
      schema: {
        tags: ['admin'],
        summary:
          'One part of an upload, as application/octet-stream: all parts are partBytes long but the last; the first is checked for its type',
        params: mediaPartParamsSchema,
        response: {
          200: okResponseSchema,
          ...refusals,
          404: apiErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const body = request.body
      if (!Buffer.isBuffer(body)) throw new AppError(415, 'media.unsupportedType')
      const { id, index } = request.params
      await putPart(app, await actorOf(request), id, index, body)
      return { ok: true as const }
    },
  )

  app.post(
    '/media/uploads/:id/complete',
    {
      schema: {
        tags: ['admin'],
        summary: 'Put the parts of an upload together into the media file, and record it',
        params: mediaUploadParamsSchema,
        response: {
          200: z.object({ media: operatorMediaSchema }),
          ...refusals,
          404: apiErrorSchema,
          409: apiErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
        },
      },
    },
    async (request) => {
      // Putting 2 GB together can take longer than the connection may stay silent: this request,
      // whose body is empty, waits as long as it takes.
      request.raw.setTimeout(0)
      return { media: await completeUpload(app, await actorOf(request), request.params.id) }
    },
  )

  app.delete(
    '/media/uploads/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Stop an upload: its parts are deleted',
        params: mediaUploadParamsSchema,
        response: { 200: okResponseSchema, ...refusals },
      },
    },
    async (request) => {
      await cancelUpload(app, await actorOf(request), request.params.id)
      return { ok: true as const }
    },
  )

  app.post(
    '/media/remove',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove a media file from storage and from the panels',
        body: mediaRemoveRequestSchema,
        response: { 200: okResponseSchema, ...refusals, 404: apiErrorSchema },
      },
    },
    async (request) => {
      await consoleRemoveMedia(app, await actorOf(request), request.body.key)
      return { ok: true as const }
    },
  )

  app.get(
    '/codes',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Access codes with their state, newest first, 50 a page; q finds a code by its start, or by its note or redeemer',
        querystring: codesQuerySchema,
        response: { 200: codesPageSchema, ...refusals },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      return consoleCodes(app.db, request.query)
    },
  )

  app.post(
    '/codes',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create access codes (1 to 500), with an optional note',
        body: createCodesRequestSchema,
        response: { 200: z.object({ codes: z.array(z.string()) }), ...refusals },
      },
    },
    async (request) => ({
      codes: await consoleCreateCodes(app.db, await actorOf(request), request.body),
    }),
  )

  app.post(
    '/codes/revoke',
    {
      schema: {
        tags: ['admin'],
        summary: 'Revoke an access code: whoever redeemed it loses the access it gave',
        body: codeRequestSchema,
        response: { 200: z.object({ revoked: z.boolean() }), ...refusals },
      },
    },
    async (request) => ({
      revoked: await consoleRevokeCode(app.db, await actorOf(request), request.body.code),
    }),
  )

  const billing = billingDepsOf(app)

  app.get(
    '/prices',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every price of the product, on sale or archived, newest first',
        response: { 200: z.object({ prices: z.array(priceSchema) }), ...refusals },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { prices: await consolePrices(billing) }
    },
  )

  app.post(
    '/prices',
    {
      schema: {
        tags: ['admin'],
        summary: 'Put a new price on sale at the payment gateway',
        body: createPriceRequestSchema,
        response: { 200: z.object({ price: priceSchema }), ...refusals },
      },
    },
    async (request) => ({
      price: await consoleCreatePrice(billing, await actorOf(request), request.body),
    }),
  )

  app.post(
    '/prices/archive',
    {
      schema: {
        tags: ['admin'],
        summary: 'Take a price off sale; plans already bought on it go on',
        body: priceRequestSchema,
        response: { 200: z.object({ price: priceSchema }), ...memberRefusals },
      },
    },
    async (request) => ({
      price: await consoleArchivePrice(billing, await actorOf(request), request.body.id),
    }),
  )

  app.get(
    '/members/:id/invoices/:invoiceId/pdf',
    {
      schema: {
        tags: ['admin'],
        summary: "One of the member's invoices as a PDF, in the operator's language",
        params: memberInvoiceParamsSchema,
        response: { 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const operator = await app.getUser(request)
      const language = operator?.language ?? requestLanguage(request)
      return sendInvoicePdf(app, reply, request.params.id, request.params.invoiceId, language)
    },
  )
}
