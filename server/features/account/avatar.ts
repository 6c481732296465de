import type { FastifyInstance } from 'fastify'
import type { FormatEnum, Metadata } from 'sharp'
import { AVATAR_MAX_PIXELS, AVATAR_MAX_SIDE_PX, AVATAR_SIZE_PX } from '../../../domain/avatar'
import { AppError } from '../../errors'
import type { AuthUser } from '../../plugins/auth'
import type { Rule } from '../../plugins/rate-limit'

export const AVATAR_CONTENT_TYPE = 'image/webp'
export const AVATAR_UPLOADS_PER_USER: Rule = { limit: 20, windowMs: 60 * 60 * 1000 }
const WEBP_QUALITY = 82

/**
 * Types we accept, by what the bytes say (never by the name or the declared type), each with the
 * decoder sharp must agree to use: a file that sniffs as one thing and decodes as another is
 * refused.
 */
const ACCEPTED: Record<string, keyof FormatEnum> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  // Animated PNG is PNG to every decoder; only its first frame is kept.
  'image/apng': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  // libvips reads AVIF through its HEIF loader.
  'image/avif': 'heif',
}

/** The storage key of a user's picture; one per user, so a new upload replaces the old one. */
export function avatarKey(userId: string): string {
  return `avatars/${userId}`
}

/**
 * Checks that `bytes` are a picture we accept and turns them into the stored avatar: turned
 * upright by its EXIF orientation, cropped to cover a 512 px square, WebP, with no metadata left
 * (no location, camera or colour profile). Throws AppError 415 or 422 otherwise.
 */
export async function processAvatar(bytes: Buffer): Promise<Buffer> {
  // libvips and the sniffer are loaded on the first upload: most processes never see one, and
  // they would keep about 25 MB resident from start-up.
  const [{ fileTypeFromBuffer }, { default: sharp }] = await Promise.all([
    import('file-type'),
    import('sharp'),
  ])
  const sniffed = await fileTypeFromBuffer(bytes)
  const decoder = sniffed ? ACCEPTED[sniffed.mime] : undefined
  if (!decoder) throw new AppError(415, 'avatar.unsupportedType')

  // The pixel limit stops libvips before it allocates anything for a decompression bomb.
  const options = {
    limitInputPixels: AVATAR_MAX_PIXELS,
    failOn: 'error',
    autoOrient: true,
  } as const
  let metadata: Metadata
  try {
    metadata = await sharp(bytes, options).metadata()
  } catch {
    throw new AppError(422, 'avatar.unreadable')
  }
  if (metadata.format !== decoder) throw new AppError(415, 'avatar.unsupportedType')
  const { width, height } = metadata
  if (
    !width ||
    !height ||
    width > AVATAR_MAX_SIDE_PX ||
    height > AVATAR_MAX_SIDE_PX ||
    width * height > AVATAR_MAX_PIXELS
  ) {
    throw new AppError(422, 'avatar.tooManyPixels')
  }

  try {
    // sharp writes no metadata unless asked to (keepMetadata/withMetadata), so none is kept.
    return await sharp(bytes, options)
      .resize(AVATAR_SIZE_PX, AVATAR_SIZE_PX, { fit: 'cover' })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer()
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError(422, 'avatar.tooManyPixels')
    }
    throw new AppError(422, 'avatar.unreadable')
  }
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
