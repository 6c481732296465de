import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import * as schema from './schema/index'

export type Schema = typeof schema
/** One type for both drivers: the query builder is the same PostgreSQL dialect. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>

export type DatabaseTarget = { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string }

export interface DatabaseHandle {
  db: Database
  kind: DatabaseTarget['kind']
  /** Applies the committed migrations under db/migrations. */
  migrate(): Promise<void>
  /** Cheap round trip, for /readyz. */
  ping(): Promise<void>
  close(): Promise<void>
}

export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
)

/** Opens PGlite in a directory (created if missing) or a node-postgres pool. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'pglite') {
    mkdirSync(target.dir, { recursive: true })
    const client = await PGlite.create(target.dir)
    const db = drizzlePglite(client, { schema })
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      migrate: () => migratePglite(db, { migrationsFolder }),
      ping: async () => {
        await db.execute(sql`select 1`)
      },
      close: () => client.close(),
    }
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 10 })
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const db = drizzleNodePg(pool, { schema })
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    migrate: () => migrateNodePg(db, { migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    close: () => pool.end(),
  }
}
