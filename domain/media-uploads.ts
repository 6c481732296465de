import { z } from 'zod/mini'
import { MEDIA_MAX_BYTES } from './harmonize'

// The console's uploads in parts (ADR 0032): only the console and the server read this, so a
// member's pages never carry it.

/**
 * The console sends a file in parts of this size (the last may be smaller): each part arrives
 * within the server's one-minute request time-out on a link of 0.6 Mbit/s, a part lost on the
 * way is sent again alone, and a proxy never sees a body larger than this.
 */
export const MEDIA_PART_BYTES = 4 * 1024 ** 2

/** What the console says of a file before sending its parts. */
export const mediaUploadRequestSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^\P{Cc}*$/u)),
  /** Null: usable with every panel. */
  panelId: z.nullable(z.string().check(z.regex(/^\d{2}$/))),
  backing: z.boolean(),
  size: z.int().check(z.minimum(1), z.maximum(MEDIA_MAX_BYTES, { error: 'media.tooLarge' })),
})
export type MediaUploadRequest = z.infer<typeof mediaUploadRequestSchema>

/** An upload opened for parts: send parts 0 to `parts - 1`, each `partBytes` but the last. */
export const mediaUploadSchema = z.object({
  id: z.string(),
  partBytes: z.number(),
  parts: z.number(),
})
export type MediaUpload = z.infer<typeof mediaUploadSchema>
