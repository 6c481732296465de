import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiErrorSchema } from '../../../domain/api'
import { avatarQuerySchema, avatarResponseSchema } from '../../../domain/avatar'
import { IMAGE_MAX_BYTES } from '../../../domain/images'
import { AppError } from '../../errors'
import { acceptImageBodies, imageBody } from '../../images'
import { readAvatar, saveAvatar } from './avatar'

const IMMUTABLE = 'private, max-age=31536000, immutable'
const REVALIDATE = 'private, no-cache'

/**
 * The signed-in user's own picture. The upload is the raw image bytes (no multipart), so this
 * plugin keeps its own content-type parsers: only images and octet-streams, up to 5 MB.
 */
export const avatarRoutes: FastifyPluginAsyncZod = async (app) => {
  acceptImageBodies(app)

  app.put(
    '/account/avatar',
    {
      bodyLimit: IMAGE_MAX_BYTES,
      schema: {
        tags: ['accounts'],
        summary: 'Replace the signed-in user’s picture',
        description:
          'The body is the image itself (JPEG, PNG, WebP, GIF or AVIF, at most 5 MB and 40 ' +
          'megapixels), sent as image/* or application/octet-stream. It is stored as a 512×512 ' +
          'WebP without metadata.',
        response: {
          200: avatarResponseSchema,
          401: apiErrorSchema,
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
      const { avatarUpdatedAt } = await saveAvatar(app, user, body)
      reply.header('cache-control', 'no-store')
      return { avatarUpdatedAt: avatarUpdatedAt.toISOString() }
    },
  )

  app.get(
    '/account/avatar',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user’s own picture (image/webp)',
        description:
          'Pass the session’s avatarUpdatedAt as `v`: that version may be cached for good. ' +
          'There is no way to read another user’s picture here.',
        querystring: avatarQuerySchema,
        response: { 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.requireUser(request)
      const avatar = await readAvatar(app, user)
      if (!avatar) throw new AppError(404, 'errors.notFound')
      // Only the version we hold may be cached for good: a stale `v` gets the current picture,
      // which must not then stay pinned under the old URL.
      const current = user.avatarUpdatedAt?.toISOString()
      const cacheable = request.query.v !== undefined && request.query.v === current
      reply
        .header('cache-control', cacheable ? IMMUTABLE : REVALIDATE)
        .header('content-disposition', 'inline')
        .type(avatar.contentType)
      // Bytes are sent as they are, never serialized; the response schemas above describe only
      // the JSON error bodies, so the type provider does not know this answer.
      return reply.send(avatar.data as never)
    },
  )
}
