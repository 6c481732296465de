import { z } from 'zod/mini'
import { operatorCodeSchema } from './access-codes'

// Plain patterns rather than domain/text.ts's free-text rules: each field here has a narrow
// form, which already keeps control characters out (and the console's chunk leaves text.ts to
// the features that share it).

/** Who an account is to the service: a member, or an operator who runs it. */
export const ROLES = ['member', 'operator'] as const
export type Role = (typeof ROLES)[number]

/** The actor the audit log names for what the command line did: whoever holds the server. */
export const COMMAND_LINE_ACTOR = 'command line'

/** An account by its e-mail, as the operator types it (`npm run cli -- operators add EMAIL`). */
export const operatorAccountRequestSchema = z.object({
  email: z.string().check(z.trim(), z.maxLength(254), z.regex(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u)),
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

/** The password again, before a new authenticator is set up: a session alone is not enough. */
export const factorSetUpRequestSchema = z.object({
  password: z
    .string()
    .check(z.minLength(1, { error: 'operators.passwordRequired' }), z.maxLength(200)),
})

/** A new authenticator's key: as a link for a QR code, and as text to type in. */
export const factorSetUpSchema = z.object({ uri: z.string(), secret: z.string() })

/** A 6-digit code from the authenticator, or a recovery code (e.g. `7KQ2M-X9D4P`). */
export const factorCodeRequestSchema = z.object({
  code: z
    .string({ error: 'operators.codeFormat' })
    .check(z.trim(), z.regex(/^[0-9A-Za-z -]{6,20}$/, { error: 'operators.codeFormat' })),
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
  member: z.optional(z.string().check(z.regex(/^[\w-]{1,64}$/))),
  /** The `next` of the page before. */
  after: z.optional(z.string().check(z.regex(/^[\w-]{1,200}$/))),
})
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  next: z.nullable(z.string()),
})

/** A job that gave up after its retries (a mail, an invoice, a sync), as the console lists it. */
export const failedJobSchema = z.object({
  id: z.string(),
  /** Its queue: `mail`, `billing.invoice-mail`, `billing.sync`… */
  queue: z.string(),
  /**
   * Whom or what it was about (a recipient, an invoice, a customer: its queue says which), or
   * empty; never a secret, and no words, so the page says it in its own language.
   */
  about: z.string(),
  attempts: z.number(),
  error: z.string(),
  createdAt: z.string(),
  failedAt: z.string(),
  /** False for a failure kept from before the job queue's upgrade, which cannot run again. */
  retryable: z.boolean(),
})
export type FailedJobView = z.infer<typeof failedJobSchema>

export const failedJobsSchema = z.object({ jobs: z.array(failedJobSchema) })

/** Running a failed job again, by its id. */
export const retryJobRequestSchema = z.object({
  id: z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)),
})

/** The console's codes: a page at a time, newest first, optionally those matching a search. */
export const codesQuerySchema = z.object({
  /** The start of a code, or any part of its note or of the e-mail of whoever redeemed it. */
  q: z.optional(z.string().check(z.trim(), z.maxLength(100), z.regex(/^\P{Cc}*$/u))),
  /** The `next` of the page before. */
  after: z.optional(z.string().check(z.maxLength(200))),
})
export type CodesQuery = z.infer<typeof codesQuerySchema>

export const codesPageSchema = z.object({
  codes: z.array(operatorCodeSchema),
  /** Where the next page starts; null on the last. */
  next: z.nullable(z.string()),
})
