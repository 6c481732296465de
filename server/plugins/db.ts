import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import fp from 'fastify-plugin'
import { type Database, type DatabaseHandle, openDatabase } from '../../db/client'
import { appMeta } from '../../db/schema/meta'
import type { Config } from '../config'
import { lockDataDir, secureDataDir } from '../data-dir'

declare module 'fastify' {
  interface FastifyInstance {
    db: Database
    database: Pick<DatabaseHandle, 'kind' | 'ping' | 'executeSql' | 'afterCommit' | 'dumpData'>
    /** Stable id of this installation, created on the first start. */
    installationId: string
  }
}

/**
 * Opens the database (locking DATA_DIR first when it is the embedded one), applies migrations,
 * seeds reference data and closes everything when the app closes.
 */
export const dbPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const release = config.database.kind === 'pglite' ? lockDataDir(config.dataDir) : () => {}
    let handle: DatabaseHandle
    try {
      handle = await openDatabase(config.database)
      const prepared = await handle.prepare()
      // PGlite (Emscripten) sets its own files' modes and ignores the umask: take group and
      // other bits off again now that they exist.
      if (config.database.kind === 'pglite') secureDataDir(config.dataDir)
      app.log.info(
        { database: handle.kind, seeded: prepared.changed, upToDate: prepared.upToDate },
        'database ready',
      )
    } catch (error) {
      release()
      throw error
    }
    const db = handle.db
    // Only the first process to get here creates the id; later starts read the same row.
    await db
      .insert(appMeta)
      .values({ key: 'installation_id', value: randomUUID() })
      .onConflictDoNothing()
    const [row] = await db
      .select({ value: appMeta.value })
      .from(appMeta)
      .where(sql`${appMeta.key} = 'installation_id'`)
    app.decorate('db', db)
    app.decorate('database', {
      kind: handle.kind,
      ping: handle.ping,
      executeSql: handle.executeSql,
      afterCommit: handle.afterCommit,
      ...(handle.dumpData ? { dumpData: handle.dumpData } : {}),
    })
    app.decorate('installationId', String(row?.value))
    app.addHook('onClose', async () => {
      try {
        await handle.close()
      } finally {
        release()
      }
    })
  },
  { name: 'db' },
)
