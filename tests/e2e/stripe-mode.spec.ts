import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { installStripeJsStandIn } from '../../client/lib/testing/stripe-js-standin'
import { freePort } from '../../scripts/bench/lib/app-server'
import { buildApp } from '../../server/app'
import { loadConfig } from '../../server/config'
import { buildUser } from '../support/factories'
import { copyPgliteTemplate } from '../support/pglite-template'
import { startStripeStandIn } from '../support/stripe-standin'
import { expect, test } from './support/test'

// Stripe mode in Chromium: an app of this file's own with PAYMENTS=stripe, pointed at the
// Stripe stand-in, and the browser's requests to Stripe's hosts answered by stand-ins (Stripe.js
// at js.stripe.com, its API at api.stripe.com), so the page loads them through the same
// Content-Security-Policy as in production: a host the policy forgot fails the test as a console
// error. The sandbox's e2e server is not used here.

test.describe.configure({ mode: 'serial' })
// Requests the service worker made would not pass through the routes below.
test.use({ serviceWorkers: 'block' })

let stripeSide: FastifyInstance | undefined
let standIn: Awaited<ReturnType<typeof startStripeStandIn>> | undefined
let app: FastifyInstance | undefined
let origin = ''
const dirs: string[] = []

async function dataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'harmonize-e2e-stripe-'))
  dirs.push(dir)
  await copyPgliteTemplate(path.join(dir, 'pgdata'))
  return dir
}

test.beforeAll(async () => {
  const base = { NODE_ENV: 'test', CAPTCHA_COST: '1000' }
  stripeSide = await buildApp(loadConfig({ ...base, DATA_DIR: await dataDir(), PORT: '0' }), {
    logger: false,
  })
  standIn = await startStripeStandIn(stripeSide.db)
  const port = await freePort()
  origin = `http://localhost:${port}`
  app = await buildApp(
    loadConfig({
      ...base,
      ...standIn.env,
      DATA_DIR: await dataDir(),
      PORT: String(port),
      PUBLIC_URL: origin,
    }),
    { logger: false, clientDir: path.resolve('dist/client') },
  )
  await app.listen({ port, host: '127.0.0.1' })
  const running = app
  standIn.sendEventsTo(() => running)
})

test.afterAll(async () => {
  await app?.close()
  await standIn?.close()
  await stripeSide?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

test.beforeEach(async ({ context }) => {
  const api = standIn?.url ?? ''
  // What js.stripe.com would send: the stand-in, speaking to Stripe's API address.
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `(${installStripeJsStandIn.toString()})('https://api.stripe.com')`,
    }),
  )
  await context.route('https://api.stripe.com/**', async (route) => {
    const { pathname, search } = new URL(route.request().url())
    await route.fulfill({ response: await route.fetch({ url: `${api}${pathname}${search}` }) })
  })
})

async function signIn(context: import('@playwright/test').BrowserContext, language = 'en') {
  if (!app) throw new Error('built in beforeAll')
  const { session } = await buildUser(app, { language: language as 'en' | 'es' })
  await context.addCookies(
    (session?.cookies ?? []).map(({ name, value }) => ({
      name,
      value,
      url: origin,
      httpOnly: true,
      sameSite: 'Lax' as const,
    })),
  )
}

test('a member saves a card in Stripe’s field, through the bank’s check', async ({
  page,
  context,
}) => {
  await signIn(context)
  await page.goto(`${origin}/my-account/add-credit-card`)
  await expect(page.getByRole('heading', { name: 'Add Credit Card' })).toBeVisible()
  const field = page.getByTestId('stripe-card-field')
  await expect(field.getByRole('textbox')).toHaveCount(3)
  // Stripe mode takes real money: no sandbox notice, no test cards.
  await expect(page.getByTestId('sandbox-notice')).toHaveCount(0)

  await field.getByLabel('Card number').fill('4000 0025 0000 3155')
  await field.getByLabel('MM / YY').fill('12 / 40')
  await field.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: 'Save card' }).click()
  const bank = page.getByRole('dialog', { name: '3D Secure 2 Test Page' })
  await bank.getByRole('button', { name: 'Fail' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Your bank could not confirm this card, so it was not saved. Try again or use another card.',
  )
  await page.getByRole('button', { name: 'Save card' }).click()
  await bank.getByRole('button', { name: 'Complete' }).click()
  await expect(page).toHaveURL(/\/my-account$/)
  await expect(page.getByTestId('saved-cards')).toContainText('ending in 3155')
  await page.screenshot({ path: test.info().outputPath('stripe-card-saved.png'), fullPage: true })
})

test('en español, PAGO ÚNICO con la tarjeta escrita en el campo de Stripe', async ({
  page,
  context,
}) => {
  await signIn(context, 'es')
  await page.goto(`${origin}/my-account/single-payment`)
  await page.getByTestId('language-select').selectOption('es')
  await expect(page.getByRole('button', { name: 'Pagar ahora' })).toBeVisible()
  await page.getByRole('radio').first().check()
  const field = page.getByTestId('stripe-card-field')
  await field.getByLabel('Card number').fill('4242 4242 4242 4242')
  await field.getByLabel('MM / YY').fill('12 / 40')
  await field.getByLabel('CVC').fill('123')
  await page.screenshot({ path: test.info().outputPath('stripe-pay.png'), fullPage: true })
  await page.getByRole('button', { name: 'Pagar ahora' }).click()
  await expect(page.getByTestId('payment-paid')).toBeVisible()
})

test('a payment whose bank asks for its check (3-D Secure) is confirmed in Stripe’s page, then paid', async ({
  page,
  context,
}) => {
  await signIn(context)
  await page.goto(`${origin}/my-account/single-payment`)
  await page.getByRole('radio').first().check()
  const field = page.getByTestId('stripe-card-field')
  await field.getByLabel('Card number').fill('4000 0025 0000 3155')
  await field.getByLabel('MM / YY').fill('12 / 40')
  await field.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: 'Pay now' }).click()
  const bank = page.getByRole('dialog', { name: '3D Secure 2 Test Page' })
  // The card's check as it is saved, then the payment's own.
  await bank.getByRole('button', { name: 'Complete' }).click()
  await expect(bank).toHaveCount(0)
  await bank.getByRole('button', { name: 'Complete' }).click()
  await expect(page.getByTestId('payment-paid')).toBeVisible({ timeout: 30_000 })
})

test.describe('Stripe.js blocked', () => {
  // The blocked script is the browser's own console error, which this test causes on purpose.
  test.use({ allowedConsoleErrors: /ERR_BLOCKED_BY_CLIENT/ })

  test('when Stripe’s field cannot load the page says so, and Try again loads it', async ({
    page,
    context,
  }) => {
    await signIn(context)
    // The first load of Stripe.js fails, as behind a blocker or a broken network.
    let blocked = true
    await context.route('https://js.stripe.com/**', async (route) => {
      if (blocked) return route.abort('blockedbyclient')
      return route.fallback()
    })
    await page.goto(`${origin}/my-account/add-credit-card`)
    await expect(page.getByRole('alert')).toHaveText(
      'The secure card field could not be loaded. Check your connection and try again.',
    )
    await expect(page.getByRole('button', { name: 'Save card' })).toBeDisabled()
    blocked = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByTestId('stripe-card-field').getByRole('textbox')).toHaveCount(3)
    await expect(page.getByRole('alert')).toHaveCount(0)
  })
})
