import { z } from 'zod/mini'
import { LANGUAGES } from './i18n'

export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  language: z.enum(LANGUAGES),
  /** ISO time of the newest avatar (also a cache key for its URL); null when none. */
  avatarUpdatedAt: z.nullable(z.string()),
})
export type SessionUser = z.infer<typeof sessionUserSchema>

/** What the client learns about who is signed in; `user` is null for a visitor. */
export const sessionResponseSchema = z.object({ user: z.nullable(sessionUserSchema) })
export type SessionResponse = z.infer<typeof sessionResponseSchema>
