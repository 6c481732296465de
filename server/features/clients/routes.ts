import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema, okResponseSchema } from '../../../domain/api'
import { clientFormSchema } from '../../../domain/client-form'
import {
  clientListQuerySchema,
  clientListResponseSchema,
  clientParamsSchema,
  clientRecordSchema,
  clientScanResponseSchema,
  clientScansResponseSchema,
  scanRequestSchema,
} from '../../../domain/clients'
import { exportClient } from './export'
import { clientPhotoRoutes } from './photo-routes'
import { auraScan, chakraScan, clientScanHistory } from './scans'
import { createClient, deleteClient, getClient, listClients, updateClient } from './service'

const PAID = { paid: true } as const
const errors = { 401: apiErrorSchema, 402: apiErrorSchema } as const

/**
 * A practitioner's client records (spec scans §2 User details and User records). Every route
 * needs access (PRODUCT.md: scans and records are part of the paid product) and reaches only the
 * signed-in user's own clients.
 */
export const clientRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(clientPhotoRoutes)

  app.get(
    '/clients',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'The signed-in user’s clients by name, a page at a time',
        querystring: clientListQuerySchema,
        response: { 200: clientListResponseSchema, 400: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return listClients(app.db, user.id, request.query)
    },
  )

  app.post(
    '/clients',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'Save a new client, with the consent to keep their photo and details',
        body: clientFormSchema,
        response: { 200: clientRecordSchema, 400: apiErrorSchema, 422: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return createClient(app.db, user.id, request.body)
    },
  )

  app.get(
    '/clients/:id',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'One of the signed-in user’s clients',
        params: clientParamsSchema,
        response: { 200: clientRecordSchema, 404: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return getClient(app.db, user.id, request.params.id)
    },
  )

  app.put(
    '/clients/:id',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'Replace a client’s details',
        params: clientParamsSchema,
        body: clientFormSchema,
        response: {
          200: clientRecordSchema,
          400: apiErrorSchema,
          404: apiErrorSchema,
          422: apiErrorSchema,
          ...errors,
        },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      return updateClient(app.db, user.id, request.params.id, request.body)
    },
  )

  app.delete(
    '/clients/:id',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'Delete a client with their scans and photo',
        params: clientParamsSchema,
        response: { 200: okResponseSchema, 404: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const user = await app.requireUser(request)
      await deleteClient(app, user.id, request.params.id)
      return { ok: true as const }
    },
  )

  for (const kind of ['aura', 'chakra'] as const) {
    app.post(
      `/clients/:id/scans/${kind}`,
      {
        config: PAID,
        schema: {
          tags: ['clients'],
          summary:
            kind === 'aura'
              ? 'Scan a client’s aura: one of 98 generated pictures, none repeated until all were shown'
              : 'Scan a client’s chakras: seven generated numbers from 100 to 999',
          params: clientParamsSchema,
          body: scanRequestSchema,
          response: {
            200: clientScanResponseSchema,
            400: apiErrorSchema,
            404: apiErrorSchema,
            ...errors,
          },
        },
      },
      async (request) => {
        const user = await app.requireUser(request)
        const scan = kind === 'aura' ? auraScan : chakraScan
        return { scan: await scan(app.db, user.id, request.params.id, request.body.signature) }
      },
    )
  }

  app.get(
    '/clients/:id/scans',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'A client’s scans, newest first',
        params: clientParamsSchema,
        response: { 200: clientScansResponseSchema, 404: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return { scans: await clientScanHistory(app.db, user.id, request.params.id) }
    },
  )

  app.get(
    '/clients/:id/export',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'Everything kept about a client, photo and scans included, as one JSON file',
        params: clientParamsSchema,
        response: { 404: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const { fileName, body } = await exportClient(app, user.id, request.params.id)
      // Sent as a file, not through the response schemas: they describe only the errors here.
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(body, null, 2) as never)
    },
  )
}
