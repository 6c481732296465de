import { sql } from 'drizzle-orm'
import { boolean, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

// Tables of better-auth (users, sessions, credentials, one-time codes), with our own fields on
// the user. Column names follow better-auth's field names through the Drizzle adapter.

export const users = pgTable(
  'user',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Interface language for e-mails: `en` or `es`. */
    language: text('language').notNull().default('en'),
    /** The invitation or access code given at /signup/{code}, as typed. */
    signupCode: text('signup_code'),
    /** Storage key of the newest avatar, e.g. `avatars/{id}`; null when none was uploaded. */
    avatarKey: text('avatar_key'),
    avatarUpdatedAt: timestamp('avatar_updated_at', { withTimezone: true }),
    /**
     * `member`, or `operator`: who runs the service, given and taken by the command line only
     * (`npm run cli -- operators …`), never by a web form.
     */
    role: text('role').notNull().default('member'),
    /**
     * Set by an operator from the console: the account may not sign in (its sessions were
     * ended then) until an operator unblocks it.
     */
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    blockedReason: text('blocked_reason'),
  },
  (table) => [
    check('user_role_check', sql`${table.role} in ('member', 'operator')`),
    // The console's list of members, newest first, a page after another (keyset).
    index('user_created_idx').on(table.createdAt, table.id),
    // The console's search: any part of the e-mail or the name, on 100,000 members.
    index('user_search_idx').using(
      'gin',
      sql`(lower(${table.email}) || ' ' || lower(${table.name})) gin_trgm_ops`,
    ),
  ],
)

export const sessions = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [index('session_user_id_idx').on(table.userId)],
)

export const accounts = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    /** Argon2id hash (see server/plugins/auth.ts). */
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('account_user_id_idx').on(table.userId)],
)

export const verifications = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    /** Hashed one-time code and its attempt counter. */
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('verification_identifier_idx').on(table.identifier)],
)
