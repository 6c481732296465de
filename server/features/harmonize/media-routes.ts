import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { apiErrorSchema } from '../../../domain/api'
import { harmonizeMediaQuerySchema, harmonizeMediaResponseSchema } from '../../../domain/harmonize'
import { textSchema } from '../../../domain/text'
import { AppError } from '../../errors'
import { findMedia, harmonizeMedia, verifyMediaSignature } from './media'

const RANGE = /^bytes=(\d*)-(\d*)$/

/**
 * The byte range a `Range` header asks for within `size` bytes: null for the whole file (no or
 * an unreadable header, or several ranges, which we answer in full), 'unsatisfiable' for 416.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? RANGE.exec(header.trim()) : null
  if (!match) return null
  const [, from = '', to = ''] = match
  if (!from && !to) return null
  if (!from) {
    // A suffix range: the last N bytes.
    const length = Number(to)
    if (length === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - length), end: size - 1 }
  }
  const start = Number(from)
  const end = to ? Math.min(Number(to), size - 1) : size - 1
  if (start >= size || (to && Number(to) < start)) return 'unsatisfiable'
  return { start, end }
}

/** Whether an If-None-Match header names `etag` (weak comparison, as RFC 9110 asks for it). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag)
}

export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/harmonize/media',
    {
      config: { paid: true },
      schema: {
        tags: ['harmonize'],
        summary: 'Media files for a session, with signed links (402 without access)',
        querystring: harmonizeMediaQuerySchema,
        response: { 200: harmonizeMediaResponseSchema, 401: apiErrorSchema, 402: apiErrorSchema },
      },
    },
    async (request, reply) => {
      // The links inside expire; a stored copy of this answer would hand out dead links.
      reply.header('cache-control', 'no-store')
      return harmonizeMedia(app.db, app.secrets.authSecret, request.query.panelId)
    },
  )

  app.get(
    '/media/*',
    {
      // The signed link is the permission: a service worker fetches it without a session.
      config: { public: true },
      schema: {
        tags: ['harmonize'],
        summary: 'The bytes of a media file through a signed link (Range supported)',
        // Missing parts make a wrong link (403), not a malformed request.
        querystring: z.object({
          expires: z.optional(textSchema().check(z.maxLength(20))),
          signature: z.optional(textSchema().check(z.maxLength(200))),
        }),
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*']
      const { expires = '', signature = '' } = request.query
      if (!verifyMediaSignature(app.secrets.authSecret, key, Number(expires), signature)) {
        throw new AppError(403, 'media.linkInvalid')
      }
      const row = await findMedia(app.db, key)
      const stored = row ? await app.storage.open(key) : null
      if (!row || !stored) throw new AppError(404, 'media.notFound')
      // Every path below either hands the file to a stream (which closes it) or closes it.
      let streaming = false
      try {
        const { size } = stored
        const etag = `"${stored.version}"`
        reply
          .header('accept-ranges', 'bytes')
          .header('cache-control', 'private, max-age=3600')
          .header('last-modified', stored.updatedAt.toUTCString())
          .header('etag', etag)
          .type(row.contentType)
        if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send()
        // A range is only for the version the client already holds part of (If-Range);
        // for another one it gets the whole new file.
        const ifRange = request.headers['if-range']
        const rangeHeader = ifRange && ifRange !== etag ? undefined : request.headers.range
        const range = parseRange(rangeHeader, size)
        if (range === 'unsatisfiable') {
          reply.header('content-range', `bytes */${size}`)
          throw new AppError(416, 'media.rangeNotSatisfiable')
        }
        streaming = true
        if (!range) return reply.header('content-length', size).send(stored.stream())
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1)
          .send(stored.stream(range))
      } finally {
        if (!streaming) await stored.close()
      }
    },
  )
}
