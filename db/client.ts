import { AsyncLocalStorage } from 'node:async_hooks'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { type SQL, sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { fromDrizzle } from 'pg-boss'
import { packageRoot } from './package-root'
import { forgetPrepared, isPrepared, markPrepared, preparedFingerprint } from './prepared'
import * as schema from './schema/index'
import { seedReferenceData } from './seed/index'

export type Schema = typeof schema
/** One type for both drivers: the query builder is the same PostgreSQL dialect. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>

export type DatabaseTarget = { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string }

/** The rows of a raw statement; of every statement in turn when the text holds several. */
export interface SqlResult {
  rows: Record<string, unknown>[]
}

/**
 * Raw SQL with `$1…` parameters. Several statements in one text are allowed only without
 * parameters and outside a transaction.
 */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<SqlResult>

export interface DatabaseHandle {
  /**
   * The query builder. Inside `db.transaction(…)` every use of it, from any module, runs on
   * that transaction (see `ambient` below).
   */
  db: Database
  kind: DatabaseTarget['kind']
  /** Raw SQL on the current transaction, if any, else on the database (pg-boss talks this). */
  executeSql: ExecuteSql
  /** Runs `callback` once the current transaction has committed; at once outside one. */
  afterCommit(callback: () => void): void
  /**
   * Applies the committed migrations under db/migrations and brings reference data in line,
   * unless this code already did so on this database (db/prepared.ts). Processes starting
   * together on one PostgreSQL take turns, so each migration runs once.
   */
  prepare(): Promise<PrepareReport>
  /** Cheap round trip, for /readyz. */
  ping(): Promise<void>
  /**
   * The embedded database's files as a gzipped tarball, taken between two statements (PGlite
   * runs one at a time): a copy as a crash would leave it, which PostgreSQL starts from. Absent
   * for PostgreSQL, whose own tools (pg_dump) do this.
   */
  dumpData?(): Promise<Blob>
  close(): Promise<void>
}

export interface PrepareReport {
  /** Reference rows the seed inserted or changed. */
  changed: number
  /** The database was already prepared by this code: nothing ran. */
  upToDate: boolean
}

export const migrationsFolder = path.join(packageRoot, 'db/migrations')

/**
 * Migrates and seeds `db` unless it was already prepared to the same fingerprint; `run` does
 * the migrating (each driver has its own migrator).
 */
async function prepareOnce(
  db: Database,
  fingerprint: string,
  run: () => Promise<void>,
): Promise<PrepareReport> {
  if (await isPrepared(db, fingerprint)) return { changed: 0, upToDate: true }
  await forgetPrepared(db)
  await run()
  // The seed's statements and the mark stand or fall together.
  const { changed } = await db.transaction(async () => {
    const report = await seedReferenceData(db)
    await markPrepared(db, fingerprint)
    return report
  })
  return { changed, upToDate: false }
}

/** Any number that is ours alone among the advisory locks of a database. */
const MIGRATION_LOCK = 4_320_783

interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
  transaction<T>(
    fn: (tx: { exec(text: string): Promise<{ rows: unknown[] }[]> }) => Promise<T>,
  ): Promise<T>
}

interface PgLike {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult | pg.QueryResult[]>
}

/** PGlite parses parameters only for a single statement; several go through `exec`. */
async function pgliteSql(client: PgliteLike, text: string, values?: unknown[]) {
  if (values && values.length > 0) {
    const { rows } = await client.query(text, values)
    return { rows: rows as Record<string, unknown>[] }
  }
  // pg-boss reads a row that a statement in the middle returns (a lock it claimed), so every
  // statement's rows are kept, as pg-boss's own PGlite adapter does. A block that fails half-way
  // inside its own BEGIN would leave PGlite's one connection in an aborted transaction that
  // refuses everything after it (a pool would have dropped that connection): run in one of
  // PGlite's transactions, it is rolled back before anyone else may use the connection. (The
  // block's own BEGIN and COMMIT only draw warnings there.)
  const results = await client.transaction((tx) => tx.exec(text))
  return { rows: results.flatMap((result) => result.rows) as Record<string, unknown>[] }
}

async function pgSql(client: PgLike, text: string, values?: unknown[]) {
  const result = await client.query(text, values)
  const results = Array.isArray(result) ? result : [result]
  return { rows: results.flatMap((each) => each.rows ?? []) as Record<string, unknown>[] }
}

/**
 * Ambient transactions. `db.transaction(fn)` keeps its transaction in async-local storage, and
 * the `db` handed out routes every call to it while `fn` runs. Code that was handed the plain
 * `db` long ago (better-auth's adapter, the job queue, our services) then joins the transaction
 * without being told. On PGlite this is also what keeps a transaction from waiting on itself:
 * its one connection is held by the transaction, and a query sent around it would never run.
 */
function ambient(root: Database, rootSql: ExecuteSql) {
  interface Scope {
    tx: Database
    /** Raw SQL on this transaction's connection, through Drizzle's public `execute`. */
    executeSql: ExecuteSql
    parent: Scope | undefined
    /** False once the transaction has committed or rolled back. */
    open: boolean
    /** Run when the outermost transaction commits; a rolled-back savepoint drops its own. */
    committed: (() => void)[]
  }
  const current = new AsyncLocalStorage<Scope>()
  // Work started inside a transaction and left running after it ended (a timer, a promise
  // nobody awaited) must not reach a finished transaction, or a pooled connection by then
  // serving someone else: it goes on with the innermost one still open, or the database.
  const active = () => {
    let scope = current.getStore()
    while (scope && !scope.open) scope = scope.parent
    return scope
  }
  const transaction = async <T>(fn: (tx: Database) => Promise<T>): Promise<T> => {
    const parent = active()
    let scope: Scope | undefined
    try {
      const result = await (parent?.tx ?? root).transaction((raw) => {
        const tx = raw as unknown as Database
        // pg-boss's own adapter turns `$1…` text into Drizzle's `sql` with bound parameters.
        // Both drivers answer `execute` with an object holding `rows`; the shared type cannot say so.
        const execute = (query: unknown) => tx.execute(query as SQL) as Promise<SqlResult>
        const { executeSql } = fromDrizzle({ execute }, sql)
        const single: ExecuteSql = (text, values) => {
          // A block with its own BEGIN and COMMIT would end this transaction half-way on
          // PostgreSQL, and PGlite refuses several statements here.
          if (/;\s*\S/.test(text.trim().replace(/;+$/, ''))) {
            return Promise.reject(
              new Error('Several statements in one text cannot run inside a transaction'),
            )
          }
          return executeSql(text, values) as Promise<SqlResult>
        }
        scope = { tx, executeSql: single, parent, open: true, committed: [] }
        return current.run(scope, () => fn(tx))
      })
      const callbacks = scope?.committed ?? []
      if (parent) parent.committed.push(...callbacks)
      else runAll(callbacks)
      return result
    } finally {
      if (scope) scope.open = false
    }
  }
  const db = new Proxy(root, {
    get(target, property) {
      if (property === 'transaction') return transaction
      const tx = active()?.tx ?? target
      const value = Reflect.get(tx, property, tx)
      return typeof value === 'function' ? value.bind(tx) : value
    },
  })
  const executeSql: ExecuteSql = (text, values) => {
    const scope = active()
    return scope ? scope.executeSql(text, values) : rootSql(text, values)
  }
  const afterCommit = (callback: () => void) => {
    const scope = active()
    if (scope) scope.committed.push(callback)
    else runAll([callback])
  }
  return { db, executeSql, afterCommit }
}

/** Runs every callback: the transaction has committed, so one failing must not stop the rest. */
function runAll(callbacks: (() => void)[]) {
  for (const callback of callbacks) {
    try {
      callback()
    } catch (error) {
      process.emitWarning(error instanceof Error ? error : String(error), 'AfterCommitWarning')
    }
  }
}

/**
 * PostgreSQL's default of 128 MB of shared buffers is all touched at start inside PGlite's
 * memory, and stays resident. Our database is a few MB, and a page that is not in the buffers is
 * one read away in the operating system's file cache.
 */
const PGLITE_SHARED_BUFFERS = '16MB'

/**
 * Creates a new PGlite data folder (initdb) in a short-lived process of its own: initdb leaves
 * about 500 MB resident in the process that runs it, for as long as that process lives.
 */
async function initialisePglite(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return
  const script = [
    "const { PGlite } = await import('@electric-sql/pglite')",
    `const db = await PGlite.create(${JSON.stringify(dir)})`,
    'await db.close()',
  ].join('\n')
  await new Promise<void>((resolve, reject) => {
    // From the package's folder, so the child finds the same PGlite as this process.
    const child = spawn(process.execPath, ['--input-type=module', '--eval', script], {
      cwd: packageRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let errors = ''
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-4_000)
    })
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (code === 0) resolve()
      else
        reject(new Error(`Creating the database in ${dir} failed (${signal ?? code}):\n${errors}`))
    })
  })
}

/**
 * Lays an embedded database's files (a `dumpData` tarball) into `dir`, which must not hold a
 * database, and checks that it opens.
 */
export async function restorePglite(dir: string, data: Blob): Promise<void> {
  mkdirSync(dir, { recursive: true })
  const client = await PGlite.create(dir, { extensions: { pg_trgm }, loadDataDir: data })
  try {
    await client.query('select 1')
  } finally {
    await client.close()
  }
}

/** Opens PGlite in a directory (created if missing) or a node-postgres pool. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'pglite') {
    mkdirSync(target.dir, { recursive: true })
    await initialisePglite(target.dir)
    const client = await PGlite.create(target.dir, {
      // Migration 0015's search index; PostgreSQL has it among its own extensions.
      extensions: { pg_trgm },
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    })
    const root = drizzlePglite(client, { schema })
    const { db, executeSql, afterCommit } = ambient(root as unknown as Database, (text, values) =>
      pgliteSql(client, text, values),
    )
    return {
      db,
      kind: 'pglite',
      executeSql,
      afterCommit,
      // One process per data directory (DATA_DIR's lock), so nobody else can be migrating.
      prepare: () =>
        prepareOnce(db, preparedFingerprint(migrationsFolder), () =>
          migratePglite(root, { migrationsFolder }),
        ),
      ping: async () => {
        await db.execute(sql`select 1`)
      },
      dumpData: () => client.dumpDataDir('gzip'),
      close: () => client.close(),
    }
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 10 })
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const root = drizzleNodePg(pool, { schema })
  const { db, executeSql, afterCommit } = ambient(root as unknown as Database, (text, values) =>
    pgSql(pool, text, values),
  )
  return {
    db,
    kind: 'postgres',
    executeSql,
    afterCommit,
    prepare: async () => {
      const fingerprint = preparedFingerprint(migrationsFolder)
      // Checked before the lock too, so a restart does not queue behind another server's start.
      if (await isPrepared(db, fingerprint)) return { changed: 0, upToDate: true }
      // A session lock on a connection of its own: the others wait here until it is released,
      // then find every migration applied and the seed data in place.
      const holder = await pool.connect()
      try {
        await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
        try {
          return await prepareOnce(db, fingerprint, () => migrateNodePg(root, { migrationsFolder }))
        } finally {
          await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK])
        }
      } finally {
        holder.release()
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    close: () => pool.end(),
  }
}
