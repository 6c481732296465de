import {
  bigint,
  boolean,
  char,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { sessions, users } from './auth'

/**
 * What operators changed, and when, on whom, from what to what: written in the same transaction
 * as the change, and never changed or deleted (a trigger refuses it, migration 0014). The actor
 * and the member are kept by id and e-mail as they were, without a reference: an entry outlives
 * the accounts it names.
 */
export const auditEntries = pgTable(
  'audit_entry',
  {
    id: text('id').primaryKey(),
    // Milliseconds, as a JavaScript date holds them: a page's cursor names its last entry's
    // time exactly, so the next page misses none written in the same millisecond.
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The operator's account; null for the command line, run by whoever holds the server. */
    actorId: text('actor_id'),
    /** The operator's e-mail then, or `command line`. */
    actor: text('actor').notNull(),
    /** What was done, e.g. `operators.add`. */
    action: text('action').notNull(),
    memberId: text('member_id'),
    memberEmail: text('member_email'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
  },
  (table) => [
    index('audit_entry_at_idx').on(table.at, table.id),
    index('audit_entry_member_idx').on(table.memberId, table.at),
  ],
)

/**
 * An operator's authenticator (ADR 0029): the TOTP secret, encrypted under a key derived from
 * AUTH_SECRET, counted once a code from it was confirmed. `last_step` is the newest 30-second
 * step a code was accepted for: a code is good once.
 */
export const operatorFactors = pgTable('operator_factor', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** An operator's recovery codes, as SHA-256 hashes; each works once. */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_code',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
)

/** Sessions in which an operator passed the second factor; gone with the session. */
export const sessionSecondFactors = pgTable('session_second_factor', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  passedAt: timestamp('passed_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * A media file an operator is sending in parts (MEDIA_PART_BYTES each). The parts wait in
 * storage under `uploads/{id}/` until the last one came and the file is put together; an
 * upload untouched for a day is dropped with its parts.
 */
export const mediaUploads = pgTable(
  'media_upload',
  {
    id: uuid('id').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    panelId: char('panel_id', { length: 2 }),
    backing: boolean('backing').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The file's type, known once its first part arrived. */
    contentType: text('content_type'),
    /** When its parts began to be put together: from then on it takes no part and no Stop. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('media_upload_updated_idx').on(table.updatedAt)],
)
