import { sql } from 'drizzle-orm'
import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth'

/**
 * A photo a practitioner stored for a client scan, numbered per user (spec scans §3: a running
 * number plus .jpg under the user's own folder). Kept apart from the records: one photo may be
 * offered again for the next client within a week (§4, the image cookie).
 */
export const clientPhotos = pgTable(
  'client_photo',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.number] }),
    index('client_photo_recent_idx').on(table.userId, table.createdAt),
  ],
)

/** A practitioner's client (spec scans §3: Saved client record), with the consent to keep it. */
export const clientRecords = pgTable(
  'client_record',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    birthDate: date('birth_date'),
    affirmation: text('affirmation').notNull(),
    photoNumber: integer('photo_number'),
    consentAt: timestamp('consent_at', { withTimezone: true }).notNull(),
    /** The aura pictures (1–98) not shown to this client yet in the current round. */
    auraPicturesLeft: smallint('aura_pictures_left')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // The records list: a user's clients by name, a page at a time.
    index('client_record_name_idx').on(
      table.userId,
      sql`lower(${table.firstName} || ' ' || ${table.lastName})`,
      table.id,
    ),
  ],
)

/**
 * A scan of a client (spec scans §2 Aura screen and Chakra screen): when, the signature text if
 * one was added, and the reading: the aura picture's number, or the seven chakra numbers in the
 * order crown, brow, throat, heart, solar, sacral, root.
 */
export const clientScans = pgTable(
  'client_scan',
  {
    id: serial('id').primaryKey(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clientRecords.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['aura', 'chakra'] }).notNull(),
    signature: text('signature'),
    auraPicture: smallint('aura_picture'),
    chakras: smallint('chakras').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('client_scan_client_idx').on(table.clientId, table.createdAt)],
)
