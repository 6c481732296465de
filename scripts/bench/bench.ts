// `npm run bench`: prints figures about the real server and the built app, never pass/fail.
// For the embedded database (PGlite), and for PostgreSQL too when DATABASE_URL is set, it starts
// the server as `npm start` does (twice: on a fresh DATA_DIR, then on the same one again), makes
// a subscriber through the API and the operator's CLI, counts the JavaScript real Chromium loads
// until pages are usable, runs Lighthouse, and loads the API with autocannon next to a bare
// Fastify started in the same run. This machine is shared and noisy: what Chromium loads does not
// depend on it, but every time does, so timings are medians of three and load figures also come
// as a ratio to the bare-Fastify reference measured in the same round.
// BENCH_QUICK=1: one round, shorter runs, one Lighthouse run per page (a check that it works).
// BENCH_SECTIONS=bytes,lighthouse,load: only those sections after start-up (default: all).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildClient, clientNeedsBuild } from '../build-client'
import { buildServer, serverNeedsBuild } from '../build-server'
import { type RunningServer, startServer } from './lib/app-server'
import { launchChromium } from './lib/browser'
import { type LoadRow, runLoad, startHelloFastify } from './lib/http-load'
import { type LighthouseResult, runLighthouse } from './lib/lighthouse-runs'
import { procStatusMb, sampleRss } from './lib/memory'
import { measurePageBytes } from './lib/page-bytes'
import { harmonizingVisit, homeVisit, loginVisit } from './lib/pages'
import { freshPostgresDatabase } from './lib/postgres-database'
import {
  type BytesRow,
  bytesTable,
  lighthouseTable,
  loadTable,
  mb,
  type StartRow,
  startTable,
} from './lib/report'
import { type Subscriber, signUpSubscriber } from './lib/subscriber'

const QUICK = process.env.BENCH_QUICK === '1'
const PLAN = QUICK
  ? { rounds: 1, seconds: 3, warmUpSeconds: 1, lighthouseRuns: 1, settleMs: 1_000 }
  : { rounds: 3, seconds: 10, warmUpSeconds: 3, lighthouseRuns: 3, settleMs: 3_000 }
const CONNECTIONS = [50, 100]
const SECTIONS = process.env.BENCH_SECTIONS?.split(',').map((name) => name.trim())
const wanted = (name: 'bytes' | 'lighthouse' | 'load') => !SECTIONS || SECTIONS.includes(name)

const log = (text: string) => process.stderr.write(`· ${text}\n`)

interface Database {
  title: string
  /** Settings for the server beyond DATA_DIR. */
  settings(): Promise<{ settings: Record<string, string>; note?: string; drop(): Promise<void> }>
}

const databases: Database[] = [
  {
    title: 'PGlite (embedded default, temporary DATA_DIR)',
    settings: async () => ({ settings: {}, drop: async () => {} }),
  },
]
const databaseUrl = process.env.DATABASE_URL
if (databaseUrl) {
  databases.push({
    title: 'PostgreSQL (DATABASE_URL)',
    async settings() {
      const database = await freshPostgresDatabase(databaseUrl)
      return {
        // Required with DATABASE_URL; a new one per run, as no session outlives the run.
        settings: { DATABASE_URL: database.url, AUTH_SECRET: randomBytes(32).toString('hex') },
        note: database.fresh
          ? `a new database, ${new URL(database.url).pathname.slice(1)}`
          : database.note,
        drop: database.drop,
      }
    },
  })
}

/** A section that failed is reported as such and the others still run. */
let failures = 0
async function section<T>(name: string, run: () => Promise<T>): Promise<T | Error> {
  try {
    return await run()
  } catch (error) {
    failures += 1
    const failure = error instanceof Error ? error : new Error(String(error))
    log(`${name} failed: ${failure.stack ?? failure.message}`)
    return failure
  }
}
const failed = (result: unknown): result is Error => result instanceof Error
const failureLine = (error: Error) => `    (failed: ${error.message.split('\n')[0]})`

/**
 * Starts the server with the client and server built beforehand: `npm start` builds what is
 * stale, and a build inside the start-up would be measured as start-up. (Others edit the sources
 * while this runs, so it is checked before each start.)
 */
async function start(settings: Record<string, string>): Promise<RunningServer> {
  if (clientNeedsBuild()) {
    log('the client was built from other sources: building it first (not timed)')
    buildClient()
  }
  if (serverNeedsBuild()) {
    log('the server was built from other sources: building it first (not timed)')
    await buildServer()
  }
  return startServer({ CAPTCHA_COST: '1000', ...settings })
}

async function benchDatabase(database: Database): Promise<string> {
  const out: string[] = [`${database.title}`]
  const dataDir = mkdtempSync(path.join(tmpdir(), 'harmonize-bench-'))
  const { settings, note, drop } = await database.settings()
  if (note) out.push(`  (${note})`)
  const env = { ...settings, DATA_DIR: dataDir }
  let server: RunningServer | undefined
  try {
    const starts: StartRow[] = []
    for (const label of ['first start, fresh DATA_DIR', 'second start, same DATA_DIR']) {
      log(`${database.title}: ${label}`)
      server = await start(env)
      log(`ready in ${(server.readyMs / 1000).toFixed(2)} s; idle ${PLAN.settleMs / 1000} s`)
      await sleep(PLAN.settleMs)
      starts.push({
        label,
        readyMs: server.readyMs,
        idleRssMb: procStatusMb(server.pid, 'VmRSS'),
        builtClient: server.builtClient,
      })
      if (starts.length === 1) {
        await server.stop()
        server = undefined
      }
    }
    if (!server) throw new Error('no server')
    const running = server
    out.push('', '  Start-up')
    out.push(startTable(starts))

    log('signing up a subscriber through the API and the CLI')
    const subscriber = await section('subscriber', () => signUpSubscriber(running))

    if (wanted('bytes')) {
      log('JavaScript to a usable page in Chromium')
      const bytes = await section('page bytes', () => pageBytes(running, subscriber))
      out.push(
        '',
        '  JavaScript to a usable page (Chromium, a fresh context per page, no service worker)',
      )
      out.push(failed(bytes) ? failureLine(bytes) : bytesTable(bytes))
    }

    if (wanted('lighthouse')) {
      const lighthouse = await section('Lighthouse', () => lighthouseRuns(running, subscriber))
      out.push('', `  Lighthouse 13, mobile (default config), median of ${PLAN.lighthouseRuns}`)
      out.push(failed(lighthouse) ? failureLine(lighthouse) : lighthouseTable(lighthouse))
      if (!failed(lighthouse)) failures += lighthouse.filter((result) => result.error).length
    }

    if (!wanted('load')) return out.join('\n')
    const load = await section('HTTP load', () => httpLoad(running, subscriber))
    out.push(
      '',
      `  HTTP load (autocannon), ${PLAN.seconds} s each, median of ${PLAN.rounds} round${PLAN.rounds > 1 ? 's' : ''}; ÷ bare = req/s over bare Fastify's in the same round; CPU/req = the serving process's CPU time (user and system) per answered request`,
    )
    if (failed(load)) out.push(failureLine(load))
    else {
      out.push(loadTable(load.rows))
      out.push(
        `    server RSS: ${mb(load.beforeMb)} before, ${mb(load.peakMb)} peak under load, ${mb(load.afterMb)} ${PLAN.settleMs / 1000} s after (VmHWM since start: ${mb(load.hwmMb)})`,
      )
    }
  } finally {
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
    await drop().catch((error: unknown) => log(`could not drop the bench database: ${error}`))
  }
  return out.join('\n')
}

/** One more try: the machine is shared, and others rebuild dist/client while this runs. */
async function measureOrRetry(...args: Parameters<typeof measurePageBytes>) {
  try {
    return await measurePageBytes(...args)
  } catch (error) {
    log(`${error instanceof Error ? error.message : error}; trying once more`)
    return measurePageBytes(...args)
  }
}

async function pageBytes(
  server: RunningServer,
  subscriber: Subscriber | Error,
): Promise<BytesRow[]> {
  const browser = await launchChromium()
  try {
    const login = await measureOrRetry(browser, server.publicUrl, loginVisit)
    const rows: BytesRow[] = [
      { label: '/login (visitor), form ready', bytes: login.usable, usableMs: login.usableMs },
    ]
    if (login.afterInteraction) {
      rows.push({ label: '/login, + typing the e-mail', bytes: login.afterInteraction })
    }
    if (failed(subscriber)) throw new Error(`no subscriber: ${subscriber.message}`)
    for (const [label, visit] of [
      ['/home, the app running', homeVisit(subscriber.cookies)],
      ['/harmonizing-screen/01, Play ready', harmonizingVisit(subscriber.cookies)],
    ] as const) {
      const result = await measureOrRetry(browser, server.publicUrl, visit)
      rows.push({ label, bytes: result.usable, usableMs: result.usableMs })
    }
    return rows
  } finally {
    await browser.close()
  }
}

async function lighthouseRuns(
  server: RunningServer,
  subscriber: Subscriber | Error,
): Promise<LighthouseResult[]> {
  if (failed(subscriber)) throw new Error(`no subscriber: ${subscriber.message}`)
  const { cookieHeader } = subscriber
  return runLighthouse(
    [
      { label: '/login (visitor)', url: `${server.publicUrl}/login` },
      { label: '/home', url: `${server.publicUrl}/home`, cookieHeader },
      { label: '/panel-info/01', url: `${server.publicUrl}/panel-info/01`, cookieHeader },
      { label: '/my-account', url: `${server.publicUrl}/my-account`, cookieHeader },
      { label: '/aura-user-record', url: `${server.publicUrl}/aura-user-record`, cookieHeader },
    ],
    PLAN.lighthouseRuns,
    (label, run, failure) =>
      log(
        failure
          ? `Lighthouse ${label}, run ${run}: ${failure}; trying again`
          : `Lighthouse ${label}, run ${run}/${PLAN.lighthouseRuns}`,
      ),
  )
}

async function httpLoad(server: RunningServer, subscriber: Subscriber | Error) {
  if (failed(subscriber)) throw new Error(`no subscriber: ${subscriber.message}`)
  const reference = await startHelloFastify()
  try {
    const beforeMb = procStatusMb(server.pid, 'VmRSS')
    const sampler = sampleRss(server.pid)
    let rows: LoadRow[]
    let peakMb: number
    try {
      rows = await runLoad(
        {
          reference: { label: 'bare Fastify hello-world', url: reference.url, pid: reference.pid },
          targets: [
            { label: 'GET /healthz', url: `${server.origin}/healthz`, pid: server.pid },
            {
              label: 'GET /api/access (signed in)',
              url: `${server.origin}/api/access`,
              headers: { cookie: subscriber.cookieHeader },
              pid: server.pid,
            },
          ],
          connections: CONNECTIONS,
          rounds: PLAN.rounds,
          seconds: PLAN.seconds,
          warmUpSeconds: PLAN.warmUpSeconds,
        },
        log,
      )
    } finally {
      peakMb = sampler.stop()
    }
    await sleep(PLAN.settleMs)
    return {
      rows,
      beforeMb,
      peakMb,
      afterMb: procStatusMb(server.pid, 'VmRSS'),
      hwmMb: procStatusMb(server.pid, 'VmHWM'),
    }
  } finally {
    await reference.stop()
  }
}

const startedAt = performance.now()
const reports: string[] = []
for (const database of databases) {
  const report = await section(database.title, () => benchDatabase(database))
  reports.push(failed(report) ? `${database.title}\n${failureLine(report)}` : report)
}
const minutes = (performance.now() - startedAt) / 60_000
console.log(
  `\nHarmonize bench${QUICK ? ' (BENCH_QUICK: one round, short runs)' : ''}: ${new Date().toISOString()}, Node ${process.version}, ${minutes.toFixed(1)} min\n`,
)
console.log(
  'Server: the "start" script of package.json with NODE_ENV=production, LOG_LEVEL=warn, CAPTCHA_COST=1000\n' +
    '(the bench solves human checks in Node), no REDIS_URL, mail in the local outbox.\n',
)
console.log(reports.join('\n\n'))
if (!databaseUrl) console.log('\n(Set DATABASE_URL=postgres://… to measure PostgreSQL as well.)')
// Figures are never judged here; a non-zero exit only says a part of the bench could not run.
if (failures > 0) process.exitCode = 1
