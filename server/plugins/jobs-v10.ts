import type { PgBoss } from 'pg-boss'
import type { ExecuteSql } from '../../db/client'

// pg-boss 11 changed its tables so much that no release after 10 migrates a version 10 schema:
// it refuses to start on one. An installation that ran Harmonize on pg-boss 10 still has queued
// mail in it, so the upgrade is ours: the old schema is renamed out of the way, pg-boss installs
// its current one, and every job still waiting is queued again there, once, in one transaction.

/** The schema version pg-boss 10.x left in `<schema>.version`. */
const V10_SCHEMA_VERSION = 24
/** Where a pg-boss 10 schema goes; its failed jobs stay readable there (`v10FailedJobRows`). */
export const V10_SCHEMA = 'pgboss_v10'
/** Any number that is ours alone among the advisory locks of a database. */
const UPGRADE_LOCK = 4_320_785

interface UpgradeDatabase {
  executeSql: ExecuteSql
  transaction<T>(fn: () => Promise<T>): Promise<T>
}

/** Jobs still to run: waiting, retrying, or running when their process stopped. */
const PENDING = "state in ('created', 'retry', 'active')"

// Both run at every start: the catalog's own lookups, not information_schema's views.
async function schemaVersion(executeSql: ExecuteSql, schema: string): Promise<number | null> {
  const { rows } = await executeSql('select to_regclass($1) is not null as present', [
    `${schema}.version`,
  ])
  if (!rows[0]?.present) return null
  const { rows: versions } = await executeSql(`select version from ${schema}.version`)
  return versions[0] ? Number(versions[0].version) : null
}

async function schemaExists(executeSql: ExecuteSql, schema: string): Promise<boolean> {
  const { rows } = await executeSql('select to_regnamespace($1) is not null as present', [schema])
  return Boolean(rows[0]?.present)
}

/**
 * Before pg-boss starts: renames a pg-boss 10 schema to `pgboss_v10`, so that pg-boss installs a
 * current one under the usual name. Servers starting together take turns; the second finds
 * nothing left to do. True when this call set one aside.
 */
export async function setAsideV10Schema(database: UpgradeDatabase, schema: string) {
  if ((await schemaVersion(database.executeSql, schema)) !== V10_SCHEMA_VERSION) return false
  return database.transaction(async () => {
    await database.executeSql('select pg_advisory_xact_lock($1)', [UPGRADE_LOCK])
    if ((await schemaVersion(database.executeSql, schema)) !== V10_SCHEMA_VERSION) return false
    if (await schemaExists(database.executeSql, V10_SCHEMA)) {
      throw new Error(
        `The job queue's schema ${schema} is pg-boss 10's, and ${V10_SCHEMA} exists too: move or drop one of them (docs/upgrading.md).`,
      )
    }
    await database.executeSql(`alter schema ${schema} rename to ${V10_SCHEMA}`)
    return true
  })
}

/**
 * Once the current pg-boss has started: queues again every job that was waiting or retrying in
 * the pg-boss 10 schema, with the same id, payload and start time and the attempts it had left.
 * A job that was running (its process has stopped) runs again if it had a retry left, as it
 * would have after its expiry; on its last attempt it is marked failed, as pg-boss 10 would have,
 * and listed with the failed jobs. Moved jobs leave the old schema in the same transaction, and
 * the move fails whole if pg-boss did not take every one, so each is queued once even when the
 * upgrade is interrupted and run again. Returns how many were moved.
 */
export async function moveV10Jobs(
  boss: PgBoss,
  database: UpgradeDatabase,
  /** Where a moved job goes once it has used up its retries (the runner's failed jobs). */
  deadLetter: string,
): Promise<number> {
  const { executeSql } = database
  if (!(await schemaExists(executeSql, V10_SCHEMA))) return 0
  const { rows: queues } = await executeSql(
    `select name, retry_limit, retry_delay, retry_backoff, expire_seconds from ${V10_SCHEMA}.queue
     where exists (select 1 from ${V10_SCHEMA}.job where job.name = queue.name and ${PENDING})`,
  )
  // Outside the transaction: pg-boss creates a queue in a transaction of its own.
  for (const queue of queues) {
    const name = String(queue.name)
    if (await boss.getQueue(name)) continue
    await boss.createQueue(name, {
      deadLetter,
      retryLimit: Number(queue.retry_limit ?? 0),
      retryDelay: Number(queue.retry_delay ?? 0),
      retryBackoff: Boolean(queue.retry_backoff),
      ...positive('expireInSeconds', queue.expire_seconds),
    })
  }
  return database.transaction(async () => {
    await executeSql('select pg_advisory_xact_lock($1)', [UPGRADE_LOCK])
    await executeSql(
      `update ${V10_SCHEMA}.job
       set state = 'failed', completed_on = now(),
           output = jsonb_build_object('message', 'stopped while running its last attempt, when the job queue was upgraded')
       where state = 'active' and retry_count >= retry_limit`,
    )
    // The rows taken out are the rows moved: nothing can slip between a read and a delete.
    const { rows } = await executeSql(
      `delete from ${V10_SCHEMA}.job where ${PENDING}
       returning id::text as id, name, priority, data, state, retry_limit, retry_count,
                 retry_delay, retry_backoff, extract(epoch from expire_in)::int as expire_seconds,
                 singleton_key, (extract(epoch from start_after) * 1000)::float8 as start_ms,
                 created_on`,
    )
    rows.sort((a, b) => String(a.created_on).localeCompare(String(b.created_on)))
    const byQueue = new Map<string, Parameters<PgBoss['insert']>[1]>()
    for (const row of rows) {
      const name = String(row.name)
      // pg-boss 10 counts a retry when it fetches the job again, so a job that has run once
      // (waiting to retry, or running) has one attempt fewer left than its count says.
      const ran = row.state === 'created' ? 0 : 1
      const jobs = byQueue.get(name) ?? []
      jobs.push({
        id: String(row.id),
        data: row.data as object,
        priority: Number(row.priority),
        retryLimit: Math.max(0, Number(row.retry_limit) - Number(row.retry_count) - ran),
        retryDelay: Number(row.retry_delay),
        retryBackoff: Boolean(row.retry_backoff),
        ...positive('expireInSeconds', row.expire_seconds),
        startAfter: new Date(Number(row.start_ms)),
        deadLetter,
        ...(row.singleton_key ? { singletonKey: String(row.singleton_key) } : {}),
      })
      byQueue.set(name, jobs)
    }
    for (const [name, jobs] of byQueue) {
      const ids = await boss.insert(name, jobs, { returnId: true })
      if ((ids?.length ?? 0) !== jobs.length) {
        throw new Error(
          `Moving ${jobs.length} jobs of queue ${name} from pg-boss 10: only ${ids?.length ?? 0} were taken; nothing was moved`,
        )
      }
    }
    return rows.length
  })
}

/** `{ [key]: n }` for a positive number, else nothing (pg-boss's default applies). */
function positive<K extends string>(key: K, value: unknown): { [P in K]?: number } {
  const n = Number(value)
  return (Number.isFinite(n) && n > 0 ? { [key]: n } : {}) as { [P in K]?: number }
}

/** Failed jobs the pg-boss 10 schema still holds, in the shape `listFailedJobs` reads. */
export async function v10FailedJobRows(executeSql: ExecuteSql, limit: number) {
  if (!(await schemaExists(executeSql, V10_SCHEMA))) return []
  const columns = 'id::text as id, name, data, output, retry_count, created_on, completed_on'
  const { rows } = await executeSql(
    `select ${columns} from ${V10_SCHEMA}.job where state = 'failed'
     union all
     select ${columns} from ${V10_SCHEMA}.archive where state = 'failed'
     order by completed_on desc
     limit $1`,
    [limit],
  )
  return rows
}
