// `npm run bench:admin`: how fast the console answers on a large business (issue 27): the
// overview, and the member list with its searches and filters, on 100,000 members with 300,000
// invoices, 40,000 plans, 10,000 one-time payments, 10,000 access codes and 500 complimentary
// grants. Each figure is the median of 20 requests over real HTTP, and the median of 3 rounds,
// next to a bare Fastify route answering the same JSON in the same run (this machine is shared:
// absolute times move from run to run). Prints figures, never pass or fail.
// On the embedded PGlite by default; with DATABASE_URL=postgres://…, on a fresh PostgreSQL
// database beside it as well.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import Fastify from 'fastify'
import { Secret, TOTP } from 'otpauth'
import { buildApp } from '../../server/app'
import { loadConfig } from '../../server/config'
import { addOperator } from '../../server/features/admin/public'
import { buildUser, TEST_PASSWORD } from '../../tests/support/factories'
import { freshPostgresDatabase } from './lib/postgres-database'
import { median } from './lib/stats'

const MEMBERS = 100_000
const INVOICES = 300_000
const PLANS = 40_000
const REQUESTS = 20
const ROUNDS = 3
/** What the issue asks of the overview. */
const OVERVIEW_BUDGET_MS = 300

const log = (text: string) => process.stderr.write(`· ${text}\n`)

async function timeRequests(url: string, cookie: string): Promise<{ ms: number; body: string }> {
  const times: number[] = []
  let body = ''
  for (let index = 0; index < REQUESTS; index++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { cookie } })
    body = await response.text()
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${body}`)
    times.push(performance.now() - started)
  }
  return { ms: median(times), body }
}

type App = Awaited<ReturnType<typeof buildApp>>

/** The business, written in a few statements: most rows by generate_series. */
async function seed(app: App) {
  const started = performance.now()
  const db = app.db
  await db.execute(sql`
    insert into "user" (id, name, email, email_verified, created_at, updated_at)
    select 'bench-' || n,
      'Member ' || n || ' ' || (array['García', 'Smith', 'Müller', 'Rossi', 'Dubois'])[1 + n % 5],
      'member' || n || '@example.com', true,
      now() - (n || ' minutes')::interval, now()
    from generate_series(1, ${MEMBERS}::int) as n`)
  await db.execute(sql`
    insert into billing_price (id, product_id, nickname, plan, unit_amount, currency, active, created_at)
    values ('price_bench_sub', 'prod_bench', 'Bench monthly', 'subscription', 2900, 'usd', false, now()),
      ('price_bench_four', 'prod_bench', 'Bench four', 'four_payments', 4900, 'usd', false, now())`)
  // Plans on members 1–40,000: most active, some refused and retried, some canceled.
  await db.execute(sql`
    insert into billing_subscription (id, user_id, price_id, plan, status, gateway_status,
      current_period_start, current_period_end, cancel_at_period_end, paused, created_at)
    select 'sub_bench_' || n, 'bench-' || n,
      case when n % 4 = 0 then 'price_bench_four' else 'price_bench_sub' end,
      case when n % 4 = 0 then 'four_payments' else 'subscription' end,
      s.status, s.status, now() - interval '10 days', now() + interval '20 days', false, false,
      now() - (n || ' minutes')::interval
    from generate_series(1, ${PLANS}::int) as n,
      lateral (select case when n % 20 = 0 then 'past_due' when n % 9 = 0 then 'canceled'
        else 'active' end as status) as s`)
  // Invoices of those plans, spread over the last year.
  await db.execute(sql`
    insert into billing_invoice (id, number, user_id, subscription_id, price_id, status,
      billing_reason, currency, subtotal, total, amount_due, amount_paid, lines, customer_name,
      customer_email, attempt_count, period_start, period_end, paid_at, created_at)
    select 'in_bench_' || i, 'BENCH-' || i, 'bench-' || (1 + i % ${PLANS}),
      'sub_bench_' || (1 + i % ${PLANS}), 'price_bench_sub', 'paid', 'subscription_cycle', 'usd',
      2900, 2900, 2900, 2900, '[]'::jsonb, 'Member', 'member@example.com', 1,
      now() - ((i % 365) || ' days')::interval, now() - ((i % 365) || ' days')::interval,
      now() - ((i % 365) || ' days')::interval, now() - ((i % 365) || ' days')::interval
    from generate_series(1, ${INVOICES}::int) as i`)
  await db.execute(sql`
    insert into billing_payment_intent (id, user_id, price_id, amount, currency, status, created_at)
    select 'pi_bench_' || n, 'bench-' || n, 'price_bench_sub', 9900, 'usd',
      case when n % 10 = 0 then 'requires_payment_method' else 'succeeded' end,
      now() - ((n % 90) || ' days')::interval
    from generate_series(${PLANS + 1}::int, ${PLANS + 10_000}::int) as n`)
  await db.execute(sql`
    insert into access_code (code, note, created_at, redeemed_by, redeemed_at)
    select 'BENCH' || n, 'bench', now(), 'bench-' || n, now()
    from generate_series(${PLANS + 10_001}::int, ${PLANS + 20_000}::int) as n`)
  await db.execute(sql`
    insert into complimentary_access (id, user_id, reason, granted_by)
    select 'comp-bench-' || n, 'bench-' || n, 'bench', 'bench@example.com'
    from generate_series(${PLANS + 20_001}::int, ${PLANS + 20_500}::int) as n`)
  await db.execute(sql`analyze`)
  log(`the business written in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** An operator's cookie, with the second factor passed in its session. */
async function operatorCookie(app: App): Promise<string> {
  const { user, session } = await buildUser(app)
  if (!session) throw new Error('no session')
  await addOperator(app.db, user.email)
  const inject = (url: string, payload: object) =>
    app.inject({ method: 'POST', url, headers: { cookie: session.header }, payload })
  const setUp = await inject('/api/operator-factor/set-up', { password: TEST_PASSWORD })
  const { secret } = setUp.json()
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate()
  const confirmed = await inject('/api/operator-factor/set-up/confirm', { code })
  if (confirmed.statusCode !== 200) throw new Error(`set-up: ${confirmed.body}`)
  return session.header
}

async function benchDatabase(title: string, settings: Record<string, string>): Promise<string[]> {
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', ...settings })
  const app = await buildApp(config, { logger: false })
  const reference = Fastify()
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    log(`${title}: writing ${MEMBERS.toLocaleString('en')} members`)
    await seed(app)
    const cookie = await operatorCookie(app)
    const get = (url: string) => timeRequests(`${address}${url}`, cookie)

    // The page after 20 "Show more": found by walking the cursors once.
    let after = ''
    for (let page = 0; page < 20; page++) {
      const listed = JSON.parse((await get(`/api/admin/members${after}`)).body)
      after = `?after=${listed.next}`
    }
    const overviewBody = (await get('/api/admin/overview')).body
    reference.get('/same-json', async (_request, reply) =>
      reply.type('application/json').send(overviewBody),
    )
    const referenceAddress = await reference.listen({ port: 0, host: '127.0.0.1' })

    const measures: [string, () => Promise<{ ms: number }>][] = [
      [
        'bare Fastify, the overview’s JSON',
        () => timeRequests(`${referenceAddress}/same-json`, ''),
      ],
      ['GET /api/admin/overview', () => get('/api/admin/overview')],
      ['GET /api/admin/members (first page)', () => get('/api/admin/members')],
      ['  page 21, by cursor', () => get(`/api/admin/members${after}`)],
      ['  ?q=member77777 (one member)', () => get('/api/admin/members?q=member77777')],
      [
        '  ?q=müller (a fifth of them)',
        () => get(`/api/admin/members?q=${encodeURIComponent('müller')}`),
      ],
      ['  ?q=xyzzy (nobody)', () => get('/api/admin/members?q=xyzzy')],
      ['  ?access=code', () => get('/api/admin/members?access=code')],
      ['  ?status=past_due', () => get('/api/admin/members?status=past_due')],
      ['GET /api/admin/members/:id', () => get('/api/admin/members/bench-4')],
    ]
    const rows: [string, number][] = []
    for (let round = 1; round <= ROUNDS; round++) {
      log(`${title}: round ${round}/${ROUNDS}`)
      for (const [label, measure] of measures) rows.push([label, (await measure()).ms])
    }
    const out = [
      '',
      `${title}: ${MEMBERS.toLocaleString('en')} members, ${INVOICES.toLocaleString('en')} invoices`,
      `  median of ${REQUESTS} requests, median of ${ROUNDS} rounds`,
    ]
    const referenceMs = median(
      rows.filter(([label]) => label.startsWith('bare')).map(([, ms]) => ms),
    )
    for (const [label] of measures) {
      const ms = median(rows.filter(([name]) => name === label).map(([, value]) => value))
      const ratio = label.startsWith('bare') ? '' : `  ×${(ms / referenceMs).toFixed(1)}`
      const budget =
        label === 'GET /api/admin/overview' ? `  (budget ${OVERVIEW_BUDGET_MS} ms)` : ''
      out.push(`  ${label.padEnd(40)} ${ms.toFixed(1).padStart(8)} ms${ratio}${budget}`)
    }
    return out
  } finally {
    await reference.close()
    await app.close()
  }
}

const out: string[] = []
const dataDir = mkdtempSync(path.join(tmpdir(), 'harmonize-bench-admin-'))
try {
  out.push(...(await benchDatabase('PGlite (embedded)', { DATA_DIR: dataDir })))
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
const databaseUrl = process.env.DATABASE_URL
if (databaseUrl) {
  const database = await freshPostgresDatabase(databaseUrl)
  const pgDir = mkdtempSync(path.join(tmpdir(), 'harmonize-bench-admin-'))
  try {
    out.push(
      ...(await benchDatabase('PostgreSQL (DATABASE_URL)', {
        DATABASE_URL: database.url,
        AUTH_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: pgDir,
      })),
    )
  } finally {
    await database.drop()
    rmSync(pgDir, { recursive: true, force: true })
  }
} else {
  out.push('', '(Set DATABASE_URL=postgres://… to measure PostgreSQL as well.)')
}
console.log(out.join('\n'))
