import { z } from 'zod/mini'
import { textSchema } from './text'

// The member's picture: limits both sides check and the contract of its endpoints.

/** The stored picture is a square of this side, whatever was uploaded. */
export const AVATAR_SIZE_PX = 512

/** Where the signed-in user's own picture is read and replaced. */
export const AVATAR_PATH = '/api/account/avatar'

/**
 * The picture's URL for a given version (the session's `avatarUpdatedAt`): a new upload gets a
 * new URL, so the browser may cache each version for good.
 */
export function avatarUrl(avatarUpdatedAt: string): string {
  return `${AVATAR_PATH}?v=${encodeURIComponent(avatarUpdatedAt)}`
}

export const avatarQuerySchema = z.object({
  /** The version the client expects; only a matching one is cached as immutable. */
  v: z.optional(textSchema().check(z.maxLength(64))),
})

/** The answer to an upload: the new version to put in the picture's URL. */
export const avatarResponseSchema = z.object({ avatarUpdatedAt: z.string() })
export type AvatarResponse = z.infer<typeof avatarResponseSchema>
