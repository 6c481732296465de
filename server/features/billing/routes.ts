import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import { priceListResponseSchema } from '../../../domain/billing'
import { ensureCatalog, listActivePrices } from './service'

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
}
