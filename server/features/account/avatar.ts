import type { FastifyInstance } from 'fastify'
import { AVATAR_SIZE_PX } from '../../../domain/avatar'
import { processImage } from '../../images'
import type { AuthUser } from '../../plugins/auth'
import type { Rule } from '../../plugins/rate-limit'

export const AVATAR_CONTENT_TYPE = 'image/webp'
export const AVATAR_UPLOADS_PER_USER: Rule = { limit: 20, windowMs: 60 * 60 * 1000 }
const WEBP_QUALITY = 82

/** The storage key of a user's picture; one per user, so a new upload replaces the old one. */
export function avatarKey(userId: string): string {
  return `avatars/${userId}`
}

/** The stored avatar: a 512 px WebP square, cropped to cover, with no metadata left. */
export function processAvatar(bytes: Buffer): Promise<Buffer> {
  return processImage(bytes, {
    width: AVATAR_SIZE_PX,
    height: AVATAR_SIZE_PX,
    fit: 'cover',
    format: 'webp',
    quality: WEBP_QUALITY,
  })
}

/**
 * Replaces the user's picture with the uploaded one and records when, which is also the
 * picture's version in its URL. Counts against the per-user upload limit first.
 */
export async function saveAvatar(
  app: FastifyInstance,
  user: AuthUser,
  bytes: Buffer,
): Promise<{ avatarUpdatedAt: Date }> {
  await app.rateLimiter.consume(`avatar:${user.id}`, AVATAR_UPLOADS_PER_USER)
  const avatar = await processAvatar(bytes)
  const key = avatarKey(user.id)
  await app.storage.put(key, avatar, AVATAR_CONTENT_TYPE)
  const now = new Date()
  // Through better-auth, which also updates the signed-in sessions it keeps in the cache.
  const { internalAdapter } = await app.auth.$context
  await internalAdapter.updateUser(user.id, {
    avatarKey: key,
    avatarUpdatedAt: now,
    updatedAt: now,
  })
  return { avatarUpdatedAt: now }
}

/** The user's own picture, or null when they have none. */
export async function readAvatar(
  app: FastifyInstance,
  user: AuthUser,
): Promise<{ data: Buffer; contentType: string } | null> {
  if (!user.avatarKey) return null
  const stored = await app.storage.get(user.avatarKey)
  return stored ? { data: stored.data, contentType: stored.contentType } : null
}
