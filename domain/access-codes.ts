import { z } from 'zod/mini'

/** Readable codes: no 0/O or 1/I/L to mistype. Format `HZ-XXXX-XXXX`. */
export const ACCESS_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'

/** Codes are compared without case and without surrounding spaces. */
export function normalizeAccessCode(code: string): string {
  return code.trim().toUpperCase()
}

export const redeemCodeRequestSchema = z.object({
  code: z
    .string({ error: 'access.codeRequired' })
    .check(z.trim(), z.minLength(1, { error: 'access.codeRequired' }), z.maxLength(64)),
})

export const accessResponseSchema = z.object({
  hasAccess: z.boolean(),
  flow: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('code'), status: z.enum(['ACTIVE', 'INACTIVE']) }),
    z.object({ kind: z.literal('subscription'), status: z.enum(['active', 'canceled', 'unpaid']) }),
    z.object({ kind: z.literal('payment'), status: z.enum(['paid', 'unpaid']) }),
    z.object({ kind: z.literal('default') }),
  ]),
})
export type AccessResponse = z.infer<typeof accessResponseSchema>

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
  note: z.optional(z.string().check(z.maxLength(200))),
})
