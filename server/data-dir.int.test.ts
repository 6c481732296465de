import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../db/client'
import { buildApp } from './app'
import { loadConfig } from './config'
import { secureDataDir } from './data-dir'

/** Every path under `dir` that group or others may use, with its mode. */
function sharedEntries(dir: string, { foldersOnly = false } = {}): string[] {
  const found: string[] = []
  const visit = (target: string) => {
    const info = lstatSync(target)
    if (info.isSymbolicLink()) return
    const counted = info.isDirectory() || !foldersOnly
    if (counted && info.mode & 0o077) {
      found.push(`${path.relative(dir, target)} ${(info.mode & 0o777).toString(8)}`)
    }
    if (info.isDirectory()) for (const name of readdirSync(target)) visit(path.join(target, name))
  }
  visit(dir)
  return found
}

describe('DATA_DIR with the embedded database', () => {
  let dataDir: string
  let umaskBefore: number

  beforeEach(() => {
    // The umask is process-wide: put back whatever the runner had.
    umaskBefore = process.umask()
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'harmonize-data-dir-')), 'data')
  })

  afterEach(() => {
    process.umask(umaskBefore)
    rmSync(path.dirname(dataDir), { recursive: true, force: true })
  })

  it('holds no file that group or others may use once secured again after opening', async () => {
    secureDataDir(dataDir)
    const target = { kind: 'pglite', dir: path.join(dataDir, 'pgdata') } as const
    const first = await openDatabase(target)
    try {
      await first.prepare()
      // PGlite's folders follow the umask; its files do not (see secureDataDir), hence the
      // second call, as the server makes once the database is open.
      expect(sharedEntries(dataDir, { foldersOnly: true })).toEqual([])
      secureDataDir(dataDir)
      expect(sharedEntries(dataDir)).toEqual([])

      // Files PostgreSQL creates while it runs (new tables, WAL) stay private.
      await first.db.execute(sql`create table data_dir_probe (n int primary key, t text)`)
      await first.db.execute(
        sql`insert into data_dir_probe select n, repeat('x', 200) from generate_series(1, 20000) n`,
      )
      await first.db.execute(sql`checkpoint`)
      expect(sharedEntries(dataDir)).toEqual([])
    } finally {
      await first.close()
    }

    // Owner-only files are still a database PGlite opens.
    const second = await openDatabase(target)
    try {
      const { rows } = await second.executeSql('select count(*)::int as n from data_dir_probe')
      expect(rows).toEqual([{ n: 20000 }])
    } finally {
      await second.close()
    }
  })

  it('leaves nothing in a new DATA_DIR that group or others may read after the first start', async () => {
    // The environment is spelled out rather than read from the process, so a TEST_DATABASE_URL
    // run still starts the embedded database; and no template copy, so the server lays down
    // the cluster itself, as on an operator's first start (a copied template is secured by the
    // start's first pass before PGlite opens it, which would hide a missing second pass).
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0' })
    // A permissive umask, so what is checked is the server's doing and not the machine's.
    process.umask(0)
    const app = await buildApp(config, { logger: false })
    try {
      await app.ready()
      expect(sharedEntries(dataDir), 'paths group or others may use').toEqual([])
    } finally {
      await app.close()
    }
    // A bound for a hang: initdb in WebAssembly plus migrations took over a minute on a busy machine.
  }, 180_000)
})
