import { z } from 'zod/mini'
import { textSchema } from './text'

/** Who an account is to the service: a member, or an operator who runs it. */
export const ROLES = ['member', 'operator'] as const
export type Role = (typeof ROLES)[number]

/** The actor the audit log names for what the command line did: whoever holds the server. */
export const COMMAND_LINE_ACTOR = 'command line'

/** An account by its e-mail, as the operator types it (`npm run cli -- operators add EMAIL`). */
export const operatorAccountRequestSchema = z.object({
  email: textSchema().check(z.minLength(3), z.maxLength(254)),
})

/** An operator, and since when: the audit log's entry that made them one. */
export const operatorSchema = z.object({
  email: z.string(),
  name: z.string(),
  /** ISO date and time; null for an operator made before the audit log. */
  since: z.nullable(z.string()),
})
export type Operator = z.infer<typeof operatorSchema>

/** What `operators add` and `operators remove` did to an account. */
export const roleChangeSchema = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  /** False when the account already had that role: nothing was written. */
  changed: z.boolean(),
})
export type RoleChange = z.infer<typeof roleChangeSchema>

/** Where an operator stands with the second factor in this session (ADR 0029). */
export const factorStatusSchema = z.object({
  /** An authenticator was set up and confirmed. */
  enrolled: z.boolean(),
  /** The factor was passed in this session: the console's API answers. */
  passed: z.boolean(),
})
export type FactorStatus = z.infer<typeof factorStatusSchema>

/** A new authenticator's key: as a link for a QR code, and as text to type in. */
export const factorSetUpSchema = z.object({ uri: z.string(), secret: z.string() })

/** A 6-digit code from the authenticator, or a recovery code (e.g. `7KQ2M-X9D4P`). */
export const factorCodeRequestSchema = z.object({
  code: textSchema().check(z.minLength(6), z.maxLength(20)),
})

/** The recovery codes of a confirmed set-up, shown once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) })

/** One entry of the audit log as the console shows it. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  memberId: z.nullable(z.string()),
  memberEmail: z.nullable(z.string()),
  before: z.nullable(z.unknown()),
  after: z.nullable(z.unknown()),
  reason: z.nullable(z.string()),
})
export type AuditEntry = z.infer<typeof auditEntrySchema>

export const AUDIT_PAGE_SIZE = 50

/** A page of the audit log, newest first; `next` asks for the page after it. */
export const auditQuerySchema = z.object({
  member: z.optional(textSchema().check(z.minLength(1), z.maxLength(64))),
  /** The `next` of the page before. */
  after: z.optional(textSchema().check(z.minLength(1), z.maxLength(200))),
})
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  next: z.nullable(z.string()),
})
