import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import {
  clientPhotoParamsSchema,
  clientPhotoResponseSchema,
  recentPhotoResponseSchema,
} from '../../../domain/clients'
import { IMAGE_MAX_BYTES } from '../../../domain/images'
import { acceptImageBodies, imageBody } from '../../images'
import { readClientPhoto, recentClientPhoto, storeClientPhoto } from './service'

const PAID = { paid: true } as const

/**
 * Client photos for the aura scans (spec scans §2 'Analyze Client Image', §3 Stored images). The
 * upload is the raw image bytes, so this plugin keeps its own content-type parsers.
 */
export const clientPhotoRoutes: FastifyPluginAsyncZod = async (app) => {
  acceptImageBodies(app)

  app.post(
    '/clients/photos',
    {
      config: PAID,
      bodyLimit: IMAGE_MAX_BYTES,
      schema: {
        tags: ['clients'],
        summary: 'Store a client photo (402 without access)',
        description:
          'The body is the image itself (JPEG, PNG, WebP, GIF or AVIF, at most 5 MB and 40 ' +
          'megapixels). It is kept as a JPEG of at most 1024 px a side, without metadata, under ' +
          'the next running number of the signed-in user.',
        response: {
          200: clientPhotoResponseSchema,
          401: apiErrorSchema,
          402: apiErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
          422: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const body = imageBody(request.body)
      reply.header('cache-control', 'no-store')
      return { photo: await storeClientPhoto(app, user.id, body) }
    },
  )

  app.get(
    '/clients/photos/recent',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'The photo stored last, offered for the next client for 7 days',
        response: { 200: recentPhotoResponseSchema, 401: apiErrorSchema, 402: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      reply.header('cache-control', 'no-store')
      return { photo: await recentClientPhoto(app.db, user.id) }
    },
  )

  app.get(
    '/clients/photos/:number',
    {
      config: PAID,
      schema: {
        tags: ['clients'],
        summary: 'One of the signed-in user’s client photos (image/jpeg)',
        params: clientPhotoParamsSchema,
        response: { 401: apiErrorSchema, 402: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const photo = await readClientPhoto(app, user.id, request.params.number)
      // Numbers are used again after a client's photo is deleted: never cached as final.
      reply
        .header('cache-control', 'private, no-cache')
        .header('content-disposition', 'inline')
        .type(photo.contentType)
      return reply.send(photo.data as never)
    },
  )
}
