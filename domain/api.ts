import { z } from 'zod/mini'

// Shapes every API answer shares.

/** The answer of every account action that has nothing else to say. */
export const okResponseSchema = z.object({ ok: z.literal(true) })

/** The one error body every endpoint answers with. */
export const apiErrorSchema = z.object({
  statusCode: z.int(),
  error: z.string(),
  message: z.string(),
  issues: z.optional(z.array(z.object({ field: z.string(), message: z.string() }))),
  /** Which refusal this is, for code to act on (a message key such as `auth.emailNotVerified`). */
  reason: z.optional(z.string()),
  requestId: z.string(),
})
export type ApiErrorBody = z.infer<typeof apiErrorSchema>
