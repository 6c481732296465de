import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import type { Database } from './client'
import { appMeta } from './schema/meta'
import { seedFingerprint } from './seed/index'

// Starting on a database that this very code already prepared skips the migrations and the
// seed: drizzle's migrator runs its DDL and reads its table, the seed compares every panel.
// With the job queues no longer created again (server/plugins/jobs.ts), a start on an existing
// PGlite DATA_DIR went from 2.07 to 1.85 s (median of five, alternating builds).

const PREPARED_KEY = 'prepared'

/**
 * What `prepare` brings a database to: each migration, by drizzle's own hash of its file, and
 * the seed data. Any change to either (a new migration, an edited panel text) changes it.
 */
export function preparedFingerprint(migrationsFolder: string): string {
  const hash = createHash('sha256')
  for (const migration of readMigrationFiles({ migrationsFolder })) {
    hash.update(`${migration.folderMillis}:${migration.hash}\n`)
  }
  hash.update(seedFingerprint())
  return hash.digest('hex')
}

/** True when the last complete `prepare` of this database was to `fingerprint`. */
export async function isPrepared(db: Database, fingerprint: string): Promise<boolean> {
  try {
    const [row] = await db
      .select({ value: appMeta.value })
      .from(appMeta)
      .where(eq(appMeta.key, PREPARED_KEY))
    // An object, not the bare digest: drizzle would read a digest of digits back as a number.
    return (row?.value as { fingerprint?: unknown } | undefined)?.fingerprint === fingerprint
  } catch {
    // A new database has no app_meta table yet; any other fault shows in the migration itself.
    return false
  }
}

/**
 * Forgets the last mark before preparing again, so a prepare that fails half-way (a migration
 * applied, the seed not) is not mistaken later for the release that made the old mark.
 */
export async function forgetPrepared(db: Database): Promise<void> {
  try {
    await db.delete(appMeta).where(eq(appMeta.key, PREPARED_KEY))
  } catch {
    // No app_meta table yet: nothing to forget.
  }
}

/** Written last, once the migrations and the seed have both succeeded. */
export async function markPrepared(db: Database, fingerprint: string): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key: PREPARED_KEY, value: { fingerprint } })
    .onConflictDoUpdate({
      target: appMeta.key,
      set: { value: { fingerprint }, updatedAt: new Date() },
    })
}
