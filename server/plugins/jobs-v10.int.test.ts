import PgBossV10 from 'pg-boss-v10'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../db/client'
import { createTestEnvironment, type TestEnvironment } from '../../tests/support/test-app'
import { createJobRunner, listFailedJobs } from './jobs'

// An installation that ran on pg-boss 10 (the release before this upgrade) has mail waiting in
// its queue. The real pg-boss 10 (installed under the alias pg-boss-v10) queues it here, then
// the current job runner starts on the same database: every waiting job is delivered once.

let environment: TestEnvironment
let handle: DatabaseHandle
const quietLog = { error: () => {}, warn: () => {} }
const asRunnerDatabase = (database: DatabaseHandle) => ({
  ...database,
  transaction: <T>(fn: () => Promise<T>) => database.db.transaction(fn),
})
const fast = { retryLimit: 3, retryDelaySeconds: 1, expireInSeconds: 30 }

beforeEach(async () => {
  environment = await createTestEnvironment()
  handle = await openDatabase(environment.config.database)
  await handle.prepare()
})

afterEach(async () => {
  await handle?.close()
  await environment?.destroy()
})

/** What the previous release left: queued jobs, one due later, one that had failed for good. */
async function queueWithPgBoss10() {
  const old = new PgBossV10({
    db: { executeSql: (text: string, values?: unknown[]) => handle.executeSql(text, values) },
    schema: 'pgboss',
    schedule: false,
    supervise: false,
  })
  await old.start()
  await old.createQueue('mail', { name: 'mail', retryLimit: 3, retryDelay: 1, retryBackoff: true })
  await old.send('mail', { about: 'to ann@example.com', data: { to: 'ann@example.com' } })
  await old.send('mail', { about: 'to bo@example.com', data: { to: 'bo@example.com' } })
  const later = await old.send(
    'mail',
    { about: 'to cy@example.com', data: { to: 'cy@example.com' } },
    { startAfter: 3 },
  )
  await old.createQueue('doomed', { name: 'doomed', retryLimit: 0 })
  await old.send('doomed', { about: 'to dee@example.com', data: {} })
  const [doomed] = await old.fetch('doomed')
  if (!doomed) throw new Error('pg-boss 10 gave no job to fail')
  await old.fail('doomed', doomed.id, new Error('mailbox unavailable'))
  // Failed once and waiting for its retry (two allowed): one retry is left after the next run.
  await old.createQueue('digest', { name: 'digest', retryLimit: 2, retryDelay: 1 })
  const retrying = await old.send('digest', {
    about: 'digest for eve',
    data: { to: 'eve@example.com' },
  })
  await old.fetch('digest')
  await old.fail('digest', String(retrying), new Error('timed out'))
  // Running its only attempt when the server stopped: failed, as pg-boss 10 would have.
  await old.createQueue('once', { name: 'once', retryLimit: 0 })
  await old.send('once', { about: 'to fay@example.com', data: {} })
  await old.fetch('once')
  await old.stop({ graceful: false, wait: true })
  return { later, retrying: String(retrying) }
}

describe('upgrading the job queue from pg-boss 10', () => {
  it('delivers every job queued before the upgrade once, at its time, and lists old failures', async () => {
    const { later, retrying } = await queueWithPgBoss10()
    const startOf = async (schema: string) => {
      const { rows } = await handle.executeSql(
        `select date_trunc('milliseconds', start_after)::text as start_after from ${schema}.job where id = $1`,
        [later],
      )
      return rows[0]?.start_after
    }
    const dueAt = await startOf('pgboss')
    expect(dueAt).toEqual(expect.any(String))
    const delivered: string[] = []
    const runner = await createJobRunner(asRunnerDatabase(handle), quietLog, {
      pollingIntervalSeconds: 0.5,
    })
    // Queued again with the same id and the same start time (to the millisecond JavaScript keeps).
    expect(await startOf('pgboss')).toBe(dueAt)
    const { rows: moved } = await handle.executeSql(
      'select state, retry_limit from pgboss.job where id = $1',
      [retrying],
    )
    expect(moved).toEqual([{ state: 'created', retry_limit: 1 }])
    const digests: string[] = []
    try {
      await runner.jobs.define<{ to: string }>(
        'digest',
        { ...fast, describe: (data) => `digest for ${data.to}` },
        async (data) => {
          digests.push(data.to)
        },
      )
      await runner.jobs.define<{ to: string }>(
        'mail',
        { ...fast, describe: (data) => `to ${data.to}` },
        async (data) => {
          delivered.push(data.to)
        },
      )
      await runner.start()
      await vi.waitFor(() => expect(delivered).toHaveLength(3), { timeout: 15_000 })
      expect(delivered.sort()).toEqual(['ann@example.com', 'bo@example.com', 'cy@example.com'])
      await vi.waitFor(() => expect(digests).toEqual(['eve@example.com']), { timeout: 15_000 })
      const failed = await listFailedJobs(handle.executeSql)
      expect(failed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            queue: 'doomed',
            about: 'to dee@example.com',
            error: 'mailbox unavailable',
          }),
          expect.objectContaining({
            queue: 'once',
            about: 'to fay@example.com',
            error: 'stopped while running its last attempt, when the job queue was upgraded',
          }),
        ]),
      )
      expect(failed).toHaveLength(2)
    } finally {
      await runner.stop()
    }

    // A restart (or a second server) moves nothing again.
    const again: string[] = []
    const restarted = await createJobRunner(asRunnerDatabase(handle), quietLog, {
      pollingIntervalSeconds: 0.5,
    })
    try {
      await restarted.jobs.define<{ to: string }>(
        'mail',
        { ...fast, describe: (data) => `to ${data.to}` },
        async (data) => {
          again.push(data.to)
        },
      )
      await restarted.start()
      const { rows } = await handle.executeSql(
        `select count(*)::int as waiting from pgboss.job where name = 'mail' and state < 'active'`,
      )
      expect(rows[0]?.waiting).toBe(0)
      expect(again).toEqual([])
    } finally {
      await restarted.stop()
    }
  })
})
