import { z } from 'zod/mini'
import { paymentFlowSchema, STANDINGS } from './access'
import { sessionUserSchema } from './auth'
import { tooLong } from './messages'
import { textSchema } from './text'

/** Readable codes: no 0/O or 1/I/L to mistype. Format `HZ-XXXX-XXXX`. */
export const ACCESS_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'

/** Codes are compared without case and without surrounding spaces. */
export function normalizeAccessCode(code: string): string {
  return code.trim().toUpperCase()
}

export const redeemCodeRequestSchema = z.object({
  code: textSchema({ error: 'access.codeRequired' }).check(
    z.trim(),
    z.minLength(1, { error: 'access.codeRequired' }),
    z.maxLength(64, tooLong(64)),
  ),
})

/** Whether a code from an invitation link (/signup/{code}) can still give access. */
export const codeStatusSchema = z.enum(['available', 'unknown', 'used', 'revoked'])
export type CodeStatus = z.infer<typeof codeStatusSchema>
export const codeCheckResponseSchema = z.object({ status: codeStatusSchema })
export type CodeCheckResponse = z.infer<typeof codeCheckResponseSchema>

export const accessResponseSchema = z.object({
  hasAccess: z.boolean(),
  flow: paymentFlowSchema,
  /** Where the member stands (domain/access.ts `standingOf`): what /home and My Account say. */
  standing: z.enum(STANDINGS),
})
export type AccessResponse = z.infer<typeof accessResponseSchema>

/** GET /api/session as the server answers it: a member's access comes with the session. */
export const sessionAnswerSchema = z.object({
  user: z.nullable(sessionUserSchema),
  access: z.optional(accessResponseSchema),
})

export const operatorCodeSchema = z.object({
  code: z.string(),
  note: z.nullable(z.string()),
  createdAt: z.string(),
  status: z.enum(['available', 'redeemed', 'revoked']),
  redeemedBy: z.nullable(z.string()),
})
export type OperatorCode = z.infer<typeof operatorCodeSchema>

export const createCodesRequestSchema = z.object({
  count: z.optional(z.int().check(z.minimum(1), z.maximum(500))),
  note: z.optional(textSchema().check(z.maxLength(200))),
})

/** One code by its text, as the console sends it to revoke. */
export const codeRequestSchema = z.object({
  code: z.string().check(z.trim(), z.minLength(1), z.maxLength(64), z.regex(/^[\w-]+$/)),
})
