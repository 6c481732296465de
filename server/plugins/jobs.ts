import fp from 'fastify-plugin'
import { type JobResult, type JobWithMetadata, PgBoss } from 'pg-boss'
import type { DatabaseHandle, ExecuteSql } from '../../db/client'
import { moveV10Jobs, setAsideV10Schema, v10FailedJobRows } from './jobs-v10'

/** How a queue retries. */
export interface QueueOptions {
  /** Attempts after the first. Each waits about twice as long as the one before. */
  retryLimit: number
  /** The wait before the first retry. */
  retryDelaySeconds: number
  /**
   * A run still going after this long counts as failed and is retried: its process may have
   * died, and a job must not stay taken for ever.
   */
  expireInSeconds: number
  /**
   * Starts each job at a random moment in this window instead of at once, so its work never
   * overlaps the request that queued it: that request's answer time must not depend on what
   * the job finds to do. The sending process wakes its worker at that moment; the job is worked
   * then, not at the worker's next poll.
   */
  startWithin?: { minSeconds: number; maxSeconds: number }
  /**
   * How often an idle worker of this queue looks for jobs, when less often than the runner's:
   * work scheduled hours ahead need not be looked for every two seconds (on the embedded
   * database every look runs on the thread that answers requests).
   */
  pollingIntervalSeconds?: number
  /**
   * How many waiting jobs a worker takes at once (default 1, at most 100). Each still runs on its
   * own, one after another, and succeeds or fails on its own: taking twenty costs one fetch and
   * one write of their outcomes instead of twenty of each, which is most of the cost of a job
   * that finds little to do (the syncs after a burst of webhook events). pg-boss gives the whole
   * batch `expireInSeconds`, so that many jobs must fit in it one after another.
   */
  batchSize?: number
}

/**
 * At most one job of a key in each slot of this many seconds, across every process: another
 * sent in the same slot is dropped (pg-boss's singletonKey and singletonSeconds). Periodic work
 * that every server schedules is done once.
 */
export interface Throttle {
  key: string
  perSeconds: number
}

/** A queue's sending side; what it sends is typed by the queue's definition. */
export interface Queue<T extends object> {
  /**
   * Queues a job. Inside `app.db.transaction(…)` the job is written by that transaction: it runs
   * only if the transaction commits, and a failure to queue rolls the transaction back. With
   * `at`, it runs no earlier than that moment.
   */
  send(data: T, options?: { at?: Date; once?: Throttle }): Promise<void>
}

/** A job that used up its retries, as `npm run cli -- jobs failed` lists it. */
export interface FailedJob {
  id: string
  queue: string
  /**
   * Whom or what the job was about: a recipient, an invoice, a customer (its queue says what
   * kind); empty for a job about everything. No words, so each page says it in its language.
   */
  about: string
  attempts: number
  error: string
  createdAt: string
  failedAt: string
  /** False for a failure kept from before the job queue's upgrade, which cannot run again. */
  retryable: boolean
}

export interface JobRunner {
  /**
   * Declares a queue and starts working it in this process. Every process that may send to a
   * queue declares it at start-up, so any of them can run its jobs.
   */
  define<T extends object>(
    name: string,
    options: QueueOptions & {
      /**
       * Whom or what a job is about for the failed-jobs listing (an address, an id; no secrets),
       * without words: the console and the CLI name the queue in their own language.
       */
      describe(data: T): string
    },
    handler: (data: T) => Promise<void>,
  ): Promise<Queue<T>>
  /** Jobs that gave up after their retries, newest first (kept for a week). */
  failed(limit?: number): Promise<FailedJob[]>
  /** One job that gave up, by its id; null when there is none (retried, or older than a week). */
  failedJob(id: string): Promise<FailedJob | null>
  /**
   * Runs a job that gave up once more, in its own queue, with its retries anew. False when there
   * is no such failed job (already retried, or older than a week).
   */
  retry(id: string): Promise<boolean>
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner
  }
}

/** Settings for tests, which cannot wait minutes for a retry. */
export interface JobRunnerOptions {
  /** How often an idle worker looks for jobs (default 2 s). */
  pollingIntervalSeconds?: number
  /** Replaces every queue's first retry delay. */
  retryDelaySeconds?: number
  /** How long running jobs get to finish when the runner stops (default 5 s). */
  stopTimeoutSeconds?: number
}

const SCHEMA = 'pgboss'

/**
 * The dead-letter queue every queue sends its jobs to once they have used up their retries:
 * nobody works it, so what is in it is the list of jobs that gave up, each with its first
 * queue, attempts and error (pg-boss keeps them), and `redrive` sends one back to run again.
 */
const FAILED_QUEUE = 'failed-jobs'

/**
 * A running job's worker says it is alive every half of this (pg-boss does it); a job whose
 * worker went silent this long is failed and tried again by another process. Long enough that a
 * busy process (a stalled event loop) does not lose a job it is still running.
 */
const HEARTBEAT_SECONDS = 30
/** How often one process looks for such jobs (and for expired ones). */
const MONITOR_SECONDS = 15

/** How long a job that gave up is kept to be seen and retried. */
const FAILED_KEPT_SECONDS = 7 * 24 * 60 * 60

/** What a job row holds: the payload, and a line about it that listings can show as it is. */
interface Envelope<T> {
  about: string
  data: T
}

/**
 * Durable background jobs with pg-boss on our own database (PGlite or PostgreSQL): jobs are
 * rows, so they survive restarts, and several processes share the work without a broker.
 * pg-boss talks SQL through our `executeSql`, which joins the current transaction when there is
 * one; that is how a job is queued atomically with the change that causes it.
 */
export async function createJobRunner(
  database: Pick<DatabaseHandle, 'executeSql' | 'afterCommit'> & {
    transaction<T>(fn: () => Promise<T>): Promise<T>
  },
  log: {
    error(details: object, message: string): void
    warn(details: object, message: string): void
    info?(details: object, message: string): void
  },
  options: JobRunnerOptions = {},
): Promise<{ jobs: JobRunner; start(): Promise<void>; stop(): Promise<void> }> {
  // pg-boss records how a job ended without waiting for the write, and a worker caught in the
  // middle of a fetch still runs what it fetched. Stopping waits for both (see `stop`), so
  // nothing touches the database after the runner says it has stopped: a job that finished
  // is recorded as done and is not run again, and nothing is left to fail on a closed pool.
  const pendingSql = new Set<Promise<unknown>>()
  const track = <T>(promise: Promise<T>): Promise<T> => {
    pendingSql.add(promise)
    const remove = () => pendingSql.delete(promise)
    promise.then(remove, remove)
    return promise
  }
  let stopping = false
  /** Timers that wake a worker when a job sent to start a moment later is due. */
  const wakeUps = new Set<NodeJS.Timeout>()
  // Rejected when the time to finish is up; a job still running then is given up on here
  // (it runs again after its retry delay) rather than recorded after the database closed.
  let abandon: (error: Error) => void = () => {}
  const abandoned = new Promise<never>((_, reject) => {
    abandon = reject
  })
  abandoned.catch(() => {})

  const boss = new PgBoss({
    db: {
      executeSql: (text: string, values?: unknown[]) => track(database.executeSql(text, values)),
    },
    schema: SCHEMA,
    // Cron schedules are not used yet; their timers would only cost a query a minute.
    schedule: false,
    // Jobs of a process that died (killed, its machine gone) are found within seconds, not a
    // minute or more: their heartbeats stop (HEARTBEAT_SECONDS), and these passes look.
    monitorIntervalSeconds: MONITOR_SECONDS,
    superviseIntervalSeconds: MONITOR_SECONDS,
  })
  boss.on('error', (error: Error) => log.error({ err: error }, 'job runner error'))
  const fromV10 = await setAsideV10Schema(database, SCHEMA)
  await boss.start()
  if (!(await boss.getQueue(FAILED_QUEUE))) {
    await boss.createQueue(FAILED_QUEUE, { retentionSeconds: FAILED_KEPT_SECONDS })
  }
  const moved = await moveV10Jobs(boss, database, FAILED_QUEUE)
  if (fromV10 || moved > 0) {
    log.info?.({ moved }, 'job queue upgraded from pg-boss 10; its waiting jobs were queued again')
  }

  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2
  // Workers wait for `start`: a process still starting up (or failing to) takes no jobs.
  const starters: (() => Promise<void>)[] = []
  let started = false
  const jobs: JobRunner = {
    failed: (limit) => failedJobsOf(boss, database.executeSql, limit),
    failedJob: (id) => failedJob(boss, id),
    retry: async (id) =>
      UUID.test(id) && (await boss.redrive(FAILED_QUEUE, { ids: [id], limit: 1 })) > 0,
    async define(name, declared, handler) {
      const window = declared.startWithin
      // Checked where the queue is named, so a wrong setting stops the start-up: a window that
      // reaches below zero would start jobs at once, overlapping the request that queued them.
      if (
        window &&
        !(
          Number.isFinite(window.minSeconds) &&
          Number.isFinite(window.maxSeconds) &&
          window.minSeconds >= 0 &&
          window.minSeconds <= window.maxSeconds
        )
      ) {
        throw new Error(
          `Queue ${name}: startWithin must have 0 <= minSeconds <= maxSeconds (got ${window.minSeconds} and ${window.maxSeconds})`,
        )
      }
      const queueOptions = {
        ...declared,
        retryDelaySeconds: options.retryDelaySeconds ?? declared.retryDelaySeconds,
      }
      // pg-boss creates a queue under a lock of its own and skips one that exists, so two
      // processes starting together may both ask. A queue that exists (every start but the
      // first) costs one read.
      const settings = {
        retryLimit: queueOptions.retryLimit,
        retryDelay: queueOptions.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: queueOptions.expireInSeconds,
        heartbeatSeconds: HEARTBEAT_SECONDS,
      }
      const existing = await boss.getQueue(name)
      if (!existing) {
        await boss.createQueue(name, { ...settings, deadLetter: FAILED_QUEUE })
      } else if (
        existing.deadLetter !== FAILED_QUEUE ||
        existing.retryLimit !== settings.retryLimit ||
        existing.retryDelay !== settings.retryDelay ||
        existing.expireInSeconds !== settings.expireInSeconds ||
        existing.heartbeatSeconds !== settings.heartbeatSeconds
      ) {
        // A job sent again from the failed jobs (redrive) takes its queue's settings, not the
        // ones it was first sent with: a queue made before today's settings is brought up to
        // them, or a retried job that fails again would not come back to the failed jobs.
        await boss.updateQueue(name, { ...settings, deadLetter: FAILED_QUEUE })
      }
      const batchSize = declared.batchSize ?? 1
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100) {
        throw new Error(
          `Queue ${name}: batchSize must be a whole number from 1 to 100 (got ${batchSize})`,
        )
      }
      let workerId: string | undefined
      const startWorker = async () => {
        workerId = await boss.work<Envelope<Parameters<typeof handler>[0]>>(
          name,
          {
            batchSize,
            // Each job of a batch is recorded as done or failed by itself.
            perJobResults: true,
            pollingIntervalSeconds: Math.max(
              pollingIntervalSeconds,
              declared.pollingIntervalSeconds ?? 0,
            ),
          },
          async (batch) => {
            const results: JobResult[] = []
            try {
              for (const job of batch) {
                try {
                  if (stopping) {
                    throw new Error('the job runner was stopping; the job will run again')
                  }
                  const run = handler(job.data.data)
                  // A job given up on may still end later; its outcome is only logged then.
                  run.catch((error) => {
                    if (stopping) {
                      log.warn({ err: error, queue: name, job: job.id }, 'late job failed')
                    }
                  })
                  await Promise.race([run, abandoned])
                  results.push({ id: job.id, status: 'completed' })
                } catch (error) {
                  log.warn(
                    { err: error, queue: name, job: job.id, about: job.data.about },
                    'job failed; it will be retried unless it has used up its retries',
                  )
                  // Recorded as pg-boss records a thrown error (listFailedJobs reads its message).
                  results.push({ id: job.id, status: 'failed', output: error })
                }
              }
            } finally {
              // A worker waits a polling interval after each fetch; with more jobs waiting it
              // should go straight on to the next ones.
              if (workerId) boss.notifyWorker(workerId)
            }
            return results
          },
        )
      }
      if (started) await startWorker()
      else starters.push(startWorker)
      return {
        async send(data, { at, once } = {}) {
          const envelope: Envelope<typeof data> = { about: queueOptions.describe(data), data }
          const delaySeconds =
            window && !at
              ? window.minSeconds + Math.random() * (window.maxSeconds - window.minSeconds)
              : undefined
          // The queue row keeps the settings it was first created with; each job carries
          // today's, so a changed setting applies without touching the database.
          await boss.send(name, envelope, {
            retryLimit: queueOptions.retryLimit,
            retryDelay: queueOptions.retryDelaySeconds,
            retryBackoff: true,
            expireInSeconds: queueOptions.expireInSeconds,
            deadLetter: FAILED_QUEUE,
            ...(once ? { singletonKey: once.key, singletonSeconds: once.perSeconds } : {}),
            ...(at
              ? { startAfter: at }
              : delaySeconds !== undefined
                ? { startAfter: delaySeconds }
                : {}),
          })
          if (at) return
          // Work it here as soon as it is visible and due, rather than at the next poll (two
          // seconds by default, on top of the window). Only a hint: the job is a row, and any
          // worker's poll finds it if this process stops first.
          database.afterCommit(() => {
            if (delaySeconds === undefined) {
              if (workerId) boss.notifyWorker(workerId)
              return
            }
            const timer = setTimeout(
              () => {
                wakeUps.delete(timer)
                if (workerId && !stopping) boss.notifyWorker(workerId)
              },
              // A moment past it, so the database's clock has passed it too.
              delaySeconds * 1000 + 25,
            )
            timer.unref()
            wakeUps.add(timer)
          })
        },
      }
    },
  }
  return {
    jobs,
    async start() {
      started = true
      for (const startWorker of starters.splice(0)) await startWorker()
    },
    // Running jobs get a few seconds to finish. Those still running are then recorded as
    // failed, which uses up one of their retries; they run again after the retry delay, here
    // after a restart or in another process.
    async stop() {
      if (stopping) return
      stopping = true
      for (const timer of wakeUps) clearTimeout(timer)
      wakeUps.clear()
      const timeout = (options.stopTimeoutSeconds ?? 5) * 1000
      const giveUp = setTimeout(
        () => abandon(new Error('the job runner stopped before the job finished')),
        // Before pg-boss's own deadline, so pg-boss records these itself while it waits.
        Math.max(timeout - 500, 0),
      )
      try {
        await boss.stop({ graceful: true, close: false, timeout })
      } finally {
        clearTimeout(giveUp)
        abandon(new Error('the job runner stopped before the job finished'))
      }
      // Each settled write may let pg-boss start the next (a fetch, then its job's outcome),
      // and a job given up on just now reaches pg-boss a few microtasks later.
      do {
        await new Promise((resolve) => setImmediate(resolve))
        await Promise.allSettled([...pendingSql])
      } while (pendingSql.size > 0)
    },
  }
}

/** pg-boss's job ids. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Jobs read from the failed jobs at a time. */
const FAILED_PAGE = 500

const failedJobOf = (job: JobWithMetadata<Partial<Envelope<unknown>>>): FailedJob => ({
  id: job.id,
  queue: job.sourceName ?? FAILED_QUEUE,
  about: String(job.data?.about ?? ''),
  attempts: (job.sourceRetryCount ?? 0) + 1,
  error: errorMessage(job.sourceOutput),
  createdAt: (job.sourceCreatedOn ?? job.createdOn).toISOString(),
  failedAt: job.createdOn.toISOString(),
  retryable: true,
})

/** One job that gave up, by its id, or null. */
async function failedJob(boss: Pick<PgBoss, 'findJobs'>, id: string): Promise<FailedJob | null> {
  if (!UUID.test(id)) return null
  const [job] = await boss.findJobs<Partial<Envelope<unknown>>>(FAILED_QUEUE, { id, queued: true })
  return job ? failedJobOf(job) : null
}

/**
 * The jobs in the dead-letter queue, newest first, through pg-boss's own reading of them, and
 * those a pg-boss 10 schema set aside at the upgrade still holds.
 */
async function failedJobsOf(
  boss: Pick<PgBoss, 'findJobs'>,
  executeSql: ExecuteSql,
  limit = 100,
): Promise<FailedJob[]> {
  // pg-boss lists oldest first, a page at a time; the newest are wanted, so every page is read
  // (a week of failures at most) and only the few fields shown are kept of each job.
  const current: FailedJob[] = []
  let after: string | undefined
  for (;;) {
    const page = await boss.findJobs<Partial<Envelope<unknown>>>(FAILED_QUEUE, {
      queued: true,
      limit: FAILED_PAGE,
      ...(after ? { after } : {}),
    })
    current.push(...page.map(failedJobOf))
    if (page.length < FAILED_PAGE) break
    after = page.at(-1)?.id
  }
  const legacy = (await v10FailedJobRows(executeSql, limit)).map((row) => ({
    id: String(row.id),
    queue: String(row.name),
    about: String((row.data as Partial<Envelope<unknown>> | null)?.about ?? ''),
    attempts: Number(row.retry_count) + 1,
    error: errorMessage(row.output),
    createdAt: new Date(row.created_on as string).toISOString(),
    failedAt: new Date(row.completed_on as string).toISOString(),
    // Kept by pg-boss 10's schema, set aside at the upgrade: listed, not run again.
    retryable: false,
  }))
  return [...current, ...legacy]
    .sort((a, b) => Date.parse(b.failedAt) - Date.parse(a.failedAt))
    .slice(0, limit)
}

/**
 * Jobs that gave up, newest first, without a running job runner (the operator command): read
 * through a pg-boss of its own that works nothing, schedules nothing and changes no schema.
 */
export async function listFailedJobs(executeSql: ExecuteSql, limit = 100): Promise<FailedJob[]> {
  const { rows: exists } = await executeSql(
    'select 1 from information_schema.tables where table_schema = $1 and table_name = $2',
    [SCHEMA, 'job'],
  )
  // No server has started on this database yet: no job has ever run.
  if (exists.length === 0) return []
  const reader = new PgBoss({
    db: { executeSql },
    schema: SCHEMA,
    supervise: false,
    schedule: false,
    migrate: false,
    createSchema: false,
    registerInstance: false,
  })
  await reader.start()
  try {
    if (!(await reader.getQueue(FAILED_QUEUE))) return []
    return await failedJobsOf(reader, executeSql, limit)
  } finally {
    await reader.stop({ graceful: false, close: false })
  }
}

function errorMessage(output: unknown): string {
  const message = (output as { message?: unknown } | null)?.message
  return typeof message === 'string' ? message : 'no error recorded'
}

/**
 * Decorates `app.jobs`. Workers start once the whole app is ready, and stop before anything
 * closes: a job finishing during shutdown still has its mail transport and its database.
 */
export const jobsPlugin = fp<{ options?: JobRunnerOptions }>(
  async (app, { options }) => {
    const runner = await createJobRunner(
      { ...app.database, transaction: (fn) => app.db.transaction(fn) },
      app.log,
      options,
    )
    app.decorate('jobs', runner.jobs)
    app.addHook('onReady', runner.start)
    app.addHook('preClose', runner.stop)
    // A build that fails before it is ready never reaches preClose.
    app.addHook('onClose', runner.stop)
  },
  { name: 'jobs', dependencies: ['db'] },
)
