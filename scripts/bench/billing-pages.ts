// Prints how long My Account and the invoices page take for a member with 100 invoices: the API
// calls they make, and the pages in headless Chromium until their content shows. Each figure is
// the median of three runs, next to a reference measured in the same run (a bare Fastify route
// answering the same size of JSON; the app's own 404 page, which loads the shell and no data),
// because this machine is shared and its absolute times move from run to run.
// Run after `npm run build`: node --import tsx scripts/bench/billing-pages.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { isNull } from 'drizzle-orm'
import Fastify from 'fastify'
import { billingEvents, billingInvoices } from '../../db/schema/billing'
import { buildApp } from '../../server/app'
import { loadConfig } from '../../server/config'
import { advanceClock } from '../../server/features/billing/public'
import { buildUser } from '../../tests/support/factories'
import { freshContext, launchChromium } from './lib/browser'
import { median } from './lib/stats'

const INVOICES = 100
const RUNS = 3
const REQUESTS = 40
const root = path.resolve(import.meta.dirname, '../..')

async function timeRequests(url: string, cookie: string): Promise<number> {
  const times: number[] = []
  for (let index = 0; index < REQUESTS; index++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { cookie } })
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    times.push(performance.now() - started)
  }
  return median(times)
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'harmonize-bench-'))
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0' })
const app = await buildApp(config, { logger: false, clientDir: path.join(root, 'dist/client') })
const reference = Fastify()
try {
  const address = await app.listen({ port: 0, host: '127.0.0.1' })

  // A member on the SUBSCRIPTION, whose first invoice is real; the other 99 are copies of it in
  // our table, which is all the pages read.
  const { user, session } = await buildUser(app)
  if (!session) throw new Error('no session')
  const cookie = session.header
  const call = (method: 'GET' | 'POST', url: string, body?: object) =>
    app.inject({ method, url, headers: { cookie }, ...(body ? { payload: body } : {}) })
  const card = await call('POST', '/api/billing/sandbox/cards', {
    number: '4242424242424242',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 1,
    cvc: '123',
  })
  await call('POST', '/api/billing/cards', { paymentMethodId: card.json().id, cardType: 'credit' })
  const prices = (await call('GET', '/api/billing/prices')).json().prices as {
    id: string
    plan: string
  }[]
  const subscription = prices.find((price) => price.plan === 'subscription')
  await call('POST', '/api/billing/plan/start', {
    priceId: subscription?.id,
    attemptId: crypto.randomUUID(),
  })
  await advanceClock({ db: app.db, payments: app.payments }, { email: user.email, days: 1 })
  // The provider's events are synced in jobs; the figures are taken once they are all done.
  for (let waited = 0; ; waited += 100) {
    const [waiting] = await app.db
      .select({ id: billingEvents.id })
      .from(billingEvents)
      .where(isNull(billingEvents.processedAt))
      .limit(1)
    if (!waiting) break
    if (waited > 60_000) throw new Error('the billing events were not synced within a minute')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const [first] = await app.db.select().from(billingInvoices)
  if (!first) throw new Error('the first invoice was not made')
  await app.db.insert(billingInvoices).values(
    Array.from({ length: INVOICES - 1 }, (_, index) => ({
      ...first,
      id: `in_bench${String(index).padStart(6, '0')}`,
      number: `HZ-9${String(index).padStart(5, '0')}`,
      createdAt: new Date(first.createdAt.getTime() - (index + 1) * 30 * 86_400_000),
      // Copies, not invoices anyone paid: none is mailed while the pages are timed.
      emailedAt: new Date(),
    })),
  )

  const sample = (await call('GET', '/api/billing/invoices')).body
  reference.get('/reference', async (_request, reply) =>
    reply.type('application/json').send(sample),
  )
  const referenceAddress = await reference.listen({ port: 0, host: '127.0.0.1' })

  const apiRows: [string, string][] = [
    ['bare Fastify, same JSON (reference)', `${referenceAddress}/reference`],
    ['GET /api/billing/invoices (100)', `${address}/api/billing/invoices`],
    ['GET /api/billing/plan', `${address}/api/billing/plan`],
    ['GET /api/billing/account', `${address}/api/billing/account`],
  ]
  console.log(`API, median of ${REQUESTS} requests, median of ${RUNS} runs:`)
  for (const [label, url] of apiRows) {
    const runs: number[] = []
    for (let run = 0; run < RUNS; run++) runs.push(await timeRequests(url, cookie))
    console.log(`  ${label.padEnd(40)} ${median(runs).toFixed(2).padStart(8)} ms`)
  }

  const browser = await launchChromium()
  const pages: [string, string, string][] = [
    ['404 page, shell only (reference)', '/no-such-page', 'h1'],
    ['/my-account until the plan shows', '/my-account', '[data-testid="plan-status"]'],
    [
      `/billing-history until ${INVOICES} rows show`,
      '/billing-history',
      `table tbody tr:nth-child(${INVOICES})`,
    ],
  ]
  console.log(`Pages in Chromium, a new browser context each run, median of ${RUNS}:`)
  for (const [label, url, ready] of pages) {
    const runs: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const context = await freshContext(browser, address, session.cookies)
      const page = await context.newPage()
      await page.goto(`${address}${url}`)
      await page.waitForSelector(ready, { timeout: 60_000 })
      runs.push(await page.evaluate(() => performance.now()))
      await context.close()
    }
    console.log(`  ${label.padEnd(40)} ${median(runs).toFixed(0).padStart(8)} ms`)
  }
  await browser.close()
} finally {
  await reference.close()
  await app.close()
  rmSync(dataDir, { recursive: true, force: true })
}
