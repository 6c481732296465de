import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../db/client'
import { appMeta } from '../../db/schema/meta'
import {
  createTestEnvironment,
  type TestEnvironment,
  usingPostgres,
} from '../../tests/support/test-app'
import { createJobRunner, listFailedJobs } from './jobs'

// The job runner on a real database: PGlite by default, PostgreSQL when CI sets
// TEST_DATABASE_URL. Each test declares queues of its own, so tests never see each other's jobs.

let environment: TestEnvironment
let handle: DatabaseHandle
let runner: Awaited<ReturnType<typeof createJobRunner>>
let queueCount = 0
const quietLog = { error: () => {}, warn: () => {} }
/** What the main runner reported as an error (an operator would see each in the log). */
const runnerErrors: string[] = []

beforeAll(async () => {
  environment = await createTestEnvironment()
  handle = await openDatabase(environment.config.database)
  await handle.prepare()
  runner = await createJobRunner(
    asRunnerDatabase(handle),
    {
      ...quietLog,
      error: (details, message) => runnerErrors.push(`${message}: ${JSON.stringify(details)}`),
    },
    { pollingIntervalSeconds: 0.5 },
  )
  await runner.start()
})

afterAll(async () => {
  await runner?.stop()
  await handle?.close()
  await environment?.destroy()
})

const asRunnerDatabase = (database: DatabaseHandle) => ({
  ...database,
  transaction: <T>(fn: () => Promise<T>) => database.db.transaction(fn),
})

const newQueue = () => `test-${++queueCount}-${Date.now()}`
const fast = { retryLimit: 3, retryDelaySeconds: 1, expireInSeconds: 30 }

async function jobRows(queue: string, database: DatabaseHandle = handle) {
  const { rows } = await database.executeSql(
    'select state, retry_count, start_after > now() as later from pgboss.job where name = $1',
    [queue],
  )
  return rows as { state: string; retry_count: number; later: boolean }[]
}

describe('durable jobs', () => {
  it('runs a queued job with its payload', async () => {
    const seen: { n: number }[] = []
    const queue = await runner.jobs.define<{ n: number }>(
      newQueue(),
      { ...fast, describe: (data) => `n=${data.n}` },
      async (data) => {
        seen.push(data)
      },
    )
    await queue.send({ n: 7 })
    await vi.waitFor(() => expect(seen).toEqual([{ n: 7 }]), { timeout: 15_000 })
  })

  it('queues a job with the transaction around it: kept on commit, gone on rollback', async () => {
    const seen: string[] = []
    const name = newQueue()
    const queue = await runner.jobs.define<{ label: string }>(
      name,
      { ...fast, describe: (data) => data.label },
      async (data) => {
        seen.push(data.label)
      },
    )
    const key = `job-test-${name}`
    await expect(
      handle.db.transaction(async () => {
        // Written through the ambient transaction, like the job below.
        await handle.db.insert(appMeta).values({ key, value: 'rolled back' })
        await queue.send({ label: 'rolled back' })
        throw new Error('something later in the same change failed')
      }),
    ).rejects.toThrow('something later')
    await handle.db.transaction(async () => {
      await handle.db.insert(appMeta).values({ key, value: 'committed' })
      await queue.send({ label: 'committed' })
    })
    await vi.waitFor(() => expect(seen).toEqual(['committed']), { timeout: 15_000 })
    const rows = await handle.db.select().from(appMeta).where(sql`${appMeta.key} = ${key}`)
    expect(rows.map((row) => row.value)).toEqual(['committed'])
    expect(await jobRows(name)).toHaveLength(1)
  })

  it('retries a failing job later, waiting longer each time, until it succeeds', async () => {
    const name = newQueue()
    let attempts = 0
    const queue = await runner.jobs.define<{ n: number }>(
      name,
      { ...fast, describe: () => 'flaky' },
      async () => {
        attempts += 1
        if (attempts < 3) throw new Error(`attempt ${attempts} failed`)
      },
    )
    await queue.send({ n: 1 })
    // After the first failure the job waits for its retry instead of running again at once.
    await vi.waitFor(
      async () => {
        const [row] = await jobRows(name)
        expect(row).toMatchObject({ state: 'retry', retry_count: 1, later: true })
      },
      { timeout: 15_000, interval: 50 },
    )
    await vi.waitFor(async () => expect((await jobRows(name))[0]?.state).toBe('completed'), {
      timeout: 30_000,
      interval: 200,
    })
    expect(attempts).toBe(3)
  })

  it('lists a job that used up its retries, with its error and what it was about; retried, it runs again once', async () => {
    const name = newQueue()
    let refusing = true
    const delivered: string[] = []
    const queue = await runner.jobs.define<{ to: string }>(
      name,
      {
        retryLimit: 1,
        retryDelaySeconds: 1,
        expireInSeconds: 30,
        describe: (data) => `to ${data.to}`,
      },
      async ({ to }) => {
        if (refusing) throw new Error('connection refused by 127.0.0.1:9')
        delivered.push(to)
      },
    )
    await queue.send({ to: 'ann@example.com' })
    const failedHere = async () =>
      (await listFailedJobs(handle.executeSql)).filter((job) => job.queue === name)
    await vi.waitFor(
      async () => {
        expect(await failedHere()).toEqual([
          expect.objectContaining({
            queue: name,
            about: 'to ann@example.com',
            attempts: 2,
            error: 'connection refused by 127.0.0.1:9',
          }),
        ])
      },
      { timeout: 30_000, interval: 200 },
    )
    // The running server's list is the same.
    const [failed] = (await runner.jobs.failed()).filter((job) => job.queue === name)
    if (!failed) throw new Error('the failed job is not listed by the runner')

    expect(await runner.jobs.failedJob(failed.id)).toEqual(failed)

    // Retried while the cause lasts, it gives up again and is back in the list to retry.
    expect(await runner.jobs.retry(failed.id)).toBe(true)
    const again = await vi.waitFor(
      async () => {
        const [job] = await failedHere()
        if (!job || job.id === failed.id) throw new Error('not failed again yet')
        return job
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(again).toMatchObject({ about: 'to ann@example.com', retryable: true })

    refusing = false
    expect(await runner.jobs.retry(again.id)).toBe(true)
    await vi.waitFor(() => expect(delivered).toEqual(['ann@example.com']), {
      timeout: 15_000,
      interval: 50,
    })
    expect(await failedHere()).toEqual([])
    // Retried once only: a second click finds nothing to retry.
    expect(await runner.jobs.retry(again.id)).toBe(false)
    expect(await runner.jobs.retry('not-a-job')).toBe(false)
    expect(await runner.jobs.failedJob(again.id)).toBeNull()
  })

  it('takes a burst a batch at a time, and each job of a batch succeeds or fails on its own', async () => {
    const name = newQueue()
    const seen: number[] = []
    const queue = await runner.jobs.define<{ n: number }>(
      name,
      { ...fast, retryLimit: 0, batchSize: 5, describe: (data) => `n=${data.n}` },
      async ({ n }) => {
        seen.push(n)
        if (n === 3) throw new Error('number 3 was refused')
      },
    )
    // One commit makes all ten visible at once, as a burst of webhook events does.
    await handle.db.transaction(async () => {
      for (let n = 0; n < 10; n++) await queue.send({ n })
    })
    await vi.waitFor(
      async () => {
        const rows = await jobRows(name)
        expect(rows.filter((row) => row.state === 'completed')).toHaveLength(9)
        expect(rows.filter((row) => row.state === 'failed')).toHaveLength(1)
      },
      { timeout: 15_000, interval: 100 },
    )
    // Every job ran once (sent in one transaction, they share a moment and come in any order),
    // five by each fetch: two fetches in all.
    expect(seen.toSorted((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    const { rows: fetches } = await handle.executeSql(
      'select count(distinct started_on)::int as n from pgboss.job where name = $1',
      [name],
    )
    expect(fetches[0]?.n).toBe(2)
    const failed = (await listFailedJobs(handle.executeSql)).filter((job) => job.queue === name)
    expect(failed).toEqual([
      expect.objectContaining({ about: 'n=3', attempts: 1, error: 'number 3 was refused' }),
    ])

    for (const batchSize of [0, 101, 2.5]) {
      await expect(
        runner.jobs.define(newQueue(), { ...fast, batchSize, describe: () => '' }, async () => {}),
      ).rejects.toThrow(/batchSize must be a whole number from 1 to 100/)
    }
  })

  it.skipIf(!usingPostgres)(
    'two processes on one database run every job exactly once',
    async () => {
      // A second runner with its own connection pool stands in for a second server process.
      const other = await openDatabase(environment.config.database)
      const second = await createJobRunner(asRunnerDatabase(other), quietLog, {
        pollingIntervalSeconds: 0.5,
      })
      await second.start()
      try {
        const name = newQueue()
        const runs: { n: number; by: string }[] = []
        const options = { ...fast, describe: (data: { n: number }) => `n=${data.n}` }
        const work = (by: string) => async (data: { n: number }) => {
          runs.push({ ...data, by })
        }
        const queue = await runner.jobs.define(name, options, work('first'))
        await second.jobs.define(name, options, work('second'))
        for (let n = 0; n < 30; n++) await queue.send({ n })
        await vi.waitFor(() => expect(runs).toHaveLength(30), { timeout: 30_000 })
        expect(new Set(runs.map((run) => run.n)).size).toBe(30)
      } finally {
        await second.stop()
        await other.close()
      }
    },
  )

  it('starts a job sent with a window at a moment inside it, and refuses a window below zero or reversed', async () => {
    const seen: number[] = []
    const name = newQueue()
    const queue = await runner.jobs.define<{ n: number }>(
      name,
      { ...fast, startWithin: { minSeconds: 0.2, maxSeconds: 0.4 }, describe: () => 'later' },
      async (data) => {
        seen.push(data.n)
      },
    )
    await queue.send({ n: 1 })
    const { rows } = await handle.executeSql(
      'select extract(epoch from start_after - created_on)::float8 as delay from pgboss.job where name = $1',
      [name],
    )
    const delay = Number(rows[0]?.delay)
    expect(delay).toBeGreaterThanOrEqual(0.2)
    expect(delay).toBeLessThanOrEqual(0.4)
    await vi.waitFor(() => expect(seen).toEqual([1]), { timeout: 15_000 })

    for (const startWithin of [
      { minSeconds: -1, maxSeconds: 1 },
      { minSeconds: 2, maxSeconds: 1 },
      { minSeconds: 0, maxSeconds: Number.NaN },
    ]) {
      await expect(
        runner.jobs.define(
          newQueue(),
          { ...fast, startWithin, describe: () => '' },
          async () => {},
        ),
      ).rejects.toThrow(/startWithin must have 0 <= minSeconds <= maxSeconds/)
    }
  })

  it('runs a job sent to start a moment later when that moment comes, not at the next poll', async () => {
    // A worker that looks for jobs only every minute: the job is worked on time all the same.
    const slow = await createJobRunner(asRunnerDatabase(handle), quietLog, {
      pollingIntervalSeconds: 60,
    })
    await slow.start()
    try {
      const seen: number[] = []
      const queue = await slow.jobs.define<{ n: number }>(
        newQueue(),
        { ...fast, startWithin: { minSeconds: 0.2, maxSeconds: 0.3 }, describe: () => 'soon' },
        async (data) => {
          seen.push(data.n)
        },
      )
      await queue.send({ n: 1 })
      await vi.waitFor(() => expect(seen).toEqual([1]), { timeout: 15_000 })
    } finally {
      await slow.stop()
    }
  })

  it('takes no job before it is started, then runs what waited', async () => {
    const idle = await createJobRunner(asRunnerDatabase(handle), quietLog, {
      pollingIntervalSeconds: 0.5,
    })
    try {
      const seen: number[] = []
      const name = newQueue()
      const queue = await idle.jobs.define<{ n: number }>(
        name,
        { ...fast, describe: (data) => `n=${data.n}` },
        async (data) => {
          seen.push(data.n)
        },
      )
      await queue.send({ n: 1 })
      // Still waiting, as a server that is starting up leaves it.
      expect(await jobRows(name)).toEqual([expect.objectContaining({ state: 'created' })])
      await idle.start()
      await vi.waitFor(() => expect(seen).toEqual([1]), { timeout: 15_000 })
    } finally {
      await idle.stop()
    }
  })

  it('records every job it ran before it says it stopped, so the database can close at once', async () => {
    // Its own database (PGlite) or connection pool (PostgreSQL), closed right after the runner
    // stops, as a server's shutdown does.
    const ownEnvironment = usingPostgres ? environment : await createTestEnvironment()
    const own = await openDatabase(ownEnvironment.config.database)
    await own.prepare()
    const stopping = await createJobRunner(asRunnerDatabase(own), quietLog, {
      pollingIntervalSeconds: 0.5,
      stopTimeoutSeconds: 1,
    })
    await stopping.start()
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    let finishLate: (error: Error) => void = () => {}
    let started = false
    let closed = false
    const name = newQueue()
    try {
      const queue = await stopping.jobs.define<{ n: number }>(
        name,
        { ...fast, describe: (data) => `n=${data.n}` },
        () =>
          new Promise<void>((_, reject) => {
            started = true
            finishLate = reject
          }),
      )
      await queue.send({ n: 1 })
      await vi.waitFor(() => expect(started).toBe(true), { timeout: 15_000 })
      await stopping.stop()
      // Given up on and due again later, recorded before stop() returned.
      expect(await jobRows(name, own)).toEqual([expect.objectContaining({ state: 'retry' })])
      await own.close()
      closed = true
      // The job ends only now, with the database closed: nothing may try to record it. A
      // query on a closed pool fails within a turn or two of the event loop.
      finishLate(new Error('the mail server went away'))
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
      await stopping.stop()
      if (!closed) await own.close()
      if (ownEnvironment !== environment) await ownEnvironment.destroy()
    }
  })

  it("reports no error of its own while it works (pg-boss's background checks included)", () => {
    expect(runnerErrors.map((line) => line.replace(/"stack":"[^"]*"/, ''))).toEqual([])
  })
})
