import { randomBytes } from 'node:crypto'
import pg from 'pg'

export interface BenchDatabase {
  url: string
  /** False when no new database could be made and the given one is used as it is. */
  fresh: boolean
  note?: string
  drop(): Promise<void>
}

/**
 * A new, empty database beside the one DATABASE_URL names, so the first start really is a first
 * start (migrations, seeds) and nothing another run left there is measured. When the role may
 * not create databases, the given one is used and the report says so.
 */
export async function freshPostgresDatabase(url: string): Promise<BenchDatabase> {
  const name = `harmonize_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  try {
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
  } catch (error) {
    return {
      url,
      fresh: false,
      note: `could not create a fresh database (${error instanceof Error ? error.message : error}); used ${new URL(url).pathname.slice(1)} as it is`,
      drop: async () => {},
    }
  } finally {
    await admin.end().catch(() => {})
  }
  const fresh = new URL(url)
  fresh.pathname = `/${name}`
  return {
    url: fresh.toString(),
    fresh: true,
    async drop() {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await client.end()
      }
    },
  }
}
