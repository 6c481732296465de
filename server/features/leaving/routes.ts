import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { apiErrorSchema, okResponseSchema } from '../../../domain/api'
import { dataExportStateSchema, deleteAccountRequestSchema } from '../../../domain/leaving'
import { requestLanguage } from '../../i18n'
import { callerOf, forwardCookies } from '../../plugins/auth'
import { forgetExpiredInvoices } from '../billing/public'
import { deleteAccount, type ForgetFilesJob } from './deletion'
import {
  type ExportJob,
  exportState,
  forgetExpiredExports,
  openExportFile,
  prepareExport,
  startExport,
} from './export'

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
}

/** How often expired exports and kept invoices past their time are deleted. */
const CLEAN_UP_EVERY_SECONDS = 3600

/** The member's data: its download, and the deletion of the account. */
export const leavingRoutes: FastifyPluginAsyncZod = async (app) => {
  const exports = await app.jobs.define<ExportJob>(
    'account.export',
    {
      retryLimit: 3,
      retryDelaySeconds: 30,
      // Many clients with photos and years of invoices take a while to write.
      expireInSeconds: 15 * 60,
      describe: (job) => job.exportId,
    },
    (job) => prepareExport(app, job.exportId),
  )
  const forgetFiles = await app.jobs.define<ForgetFilesJob>(
    'account.forget-files',
    { retryLimit: 10, retryDelaySeconds: 30, expireInSeconds: 300, describe: () => '' },
    async (job) => {
      for (const key of job.keys) await app.storage.delete(key)
    },
  )
  await scheduleCleanUp(app)

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store')
  })

  app.get(
    '/account/data-export',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The newest download of the member’s data: preparing, ready or failed',
        response: { 200: dataExportStateSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return { export: await exportState(app, user.id) }
    },
  )

  app.post(
    '/account/data-export',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Prepare a ZIP of everything kept about the member; mailed when ready',
        response: { 200: dataExportStateSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return { export: await startExport(app, exports, user.id) }
    },
  )

  app.get(
    '/account/data-export/:id/file',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The ZIP of one of the member’s own exports (application/zip)',
        params: z.object({ id: z.uuid() }),
        response: { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const { file, readyAt } = await openExportFile(app, user.id, request.params.id)
      const day = readyAt.toISOString().slice(0, 10)
      reply
        .header('content-disposition', `attachment; filename="harmonize-data-${day}.zip"`)
        .header('content-length', file.size)
        .type('application/zip')
      // Bytes as they are stored; the response schemas describe only the JSON error bodies.
      return reply.send(file.stream() as never)
    },
  )

  app.post(
    '/account/delete',
    {
      schema: {
        tags: ['accounts'],
        summary:
          'Delete the account for good: its plan ends now, every session ends, every row and file of it goes but the invoices the law keeps',
        body: deleteAccountRequestSchema,
        // 403: an operator blocked the account an instant before (its sessions not ended yet).
        response: { 200: okResponseSchema, ...errors, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const cookies = await deleteAccount(
        app,
        forgetFiles,
        callerOf(request),
        user,
        request.body,
        requestLanguage(request),
      )
      forwardCookies(cookies, reply)
      return { ok: true as const }
    },
  )
}

/**
 * Every hour, exports past their seven days and kept invoices past their years are deleted. Each
 * server schedules it; one job an hour runs it, whichever server takes it.
 */
async function scheduleCleanUp(app: FastifyInstance) {
  const next = () => ({
    at: new Date(Date.now() + CLEAN_UP_EVERY_SECONDS * 1000),
    once: { key: 'account.clean-up', perSeconds: CLEAN_UP_EVERY_SECONDS },
  })
  const cleanUp = await app.jobs.define<{ pass: 'expired' }>(
    'account.clean-up',
    {
      retryLimit: 3,
      retryDelaySeconds: 60,
      expireInSeconds: 15 * 60,
      pollingIntervalSeconds: 60,
      describe: () => '',
    },
    async () => {
      await forgetExpiredExports(app)
      await forgetExpiredInvoices(app.db)
      await cleanUp.send({ pass: 'expired' }, next())
    },
  )
  app.addHook('onReady', async () => {
    await cleanUp.send({ pass: 'expired' }, next())
  })
}
