import type { Page } from '@playwright/test'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { advance, refusalSeen } from './support/billing'
import { expect, test } from './support/test'

// My Account with no network: the plan, cards and prices as this device last fetched them,
// dated, with what needs the server disabled; never another member's copy, and nothing when
// none was kept.

test.use(ownClientAddress)
test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED/ })

const TEXTS = {
  en: {
    locale: 'en-US',
    planTitle: 'My Subscription',
    cardsTitle: 'Saved cards',
    active: 'Active',
    plan: 'SUBSCRIPTION',
    cancel: 'Cancel Renewal',
    upgrade: 'Upgrade plan',
    addCard: 'Add Credit Card',
    makeDefault: 'Make default',
    loading: 'Loading your plan…',
    asOf: (date: string) =>
      `You are offline. This is your plan as of ${date}; changes need a connection.`,
    cardsAsOf: (date: string) =>
      `You are offline. These are your cards as of ${date}; adding or changing a card needs a connection.`,
    buying: 'You are offline: buying a plan needs a connection.',
    history: 'Billing history',
    historyAsOf: (date: string) =>
      `You are offline. These are your invoices as of ${date}; their PDFs need a connection.`,
    none: "You are offline, and this device has no recent copy of your plan, so it can't be shown here. Connect to see it.",
  },
  es: {
    locale: 'es-ES',
    planTitle: 'Mi suscripción',
    cardsTitle: 'Tarjetas guardadas',
    active: 'Activa',
    plan: 'SUSCRIPCIÓN',
    cancel: 'Cancelar renovación',
    upgrade: 'Mejorar el plan',
    addCard: 'Añadir tarjeta de crédito',
    makeDefault: 'Usar como predeterminada',
    loading: 'Cargando tu plan…',
    asOf: (date: string) =>
      `Estás sin conexión. Este es tu plan tal como estaba el ${date}; para cambiarlo necesitas conexión.`,
    cardsAsOf: (date: string) =>
      `Estás sin conexión. Estas son tus tarjetas tal como estaban el ${date}; para añadir o cambiar una tarjeta necesitas conexión.`,
    buying: 'Estás sin conexión: para comprar un plan necesitas conexión.',
    history: 'Historial de facturación',
    historyAsOf: (date: string) =>
      `Estás sin conexión. Estas son tus facturas tal como estaban el ${date}; sus PDF necesitan conexión.`,
    none: 'Estás sin conexión y este dispositivo no tiene una copia reciente de tu plan, así que no se puede mostrar aquí. Conéctate para verlo.',
  },
} as const

/**
 * Two cards and a running SUBSCRIPTION, through the calls My Account's screens make, so the
 * test is about what the page shows offline rather than about buying.
 */
async function subscribe(page: Page) {
  await addCard(page, '4242424242424242')
  await addCard(page, '5555555555554444')
  const { prices } = (await (await page.request.get('/api/billing/prices')).json()) as {
    prices: { id: string; plan: string }[]
  }
  const price = prices.find((candidate) => candidate.plan === 'subscription')
  const started = await page.request.post('/api/billing/plan/start', {
    data: { priceId: price?.id, attemptId: crypto.randomUUID() },
  })
  expect(started.ok(), 'plan started').toBe(true)
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get('/api/billing/plan')).json()) as {
            subscription: { status: string } | null
          }
        ).subscription?.status,
      { timeout: 30_000 },
    )
    .toBe('active')
}

/** A card saved as Add Credit Card saves it; the first is the default, or `makeDefault`. */
async function addCard(page: Page, number: string, makeDefault = false) {
  const card = await page.request.post('/api/billing/sandbox/cards', {
    data: { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvc: '123' },
  })
  expect(card.ok(), 'sandbox card').toBe(true)
  const { id } = (await card.json()) as { id: string }
  const saved = await page.request.post('/api/billing/cards', {
    data: { paymentMethodId: id, cardType: 'credit', ...(makeDefault ? { makeDefault } : {}) },
  })
  expect(saved.ok(), 'saved card').toBe(true)
}

/** The app shell comes from the service worker from now on. */
const workerReady = (page: Page) =>
  page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })

/** What the page's own Intl says for `at` (ms) in the test's locale: medium date, short time. */
const dateTimeOf = (page: Page, locale: string, at: number) =>
  page.evaluate(
    ([tag, ms]) =>
      new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(ms),
      ),
    [locale, at] as const,
  )

/** Exactly one of `texts`. */
const oneOf = (texts: string[]) =>
  new RegExp(`^(${texts.map((one) => one.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`)

for (const language of ['en', 'es'] as const) {
  const text = TEXTS[language]

  test.describe(`in ${language}`, () => {
    test.use({ locale: text.locale })

    test('offline, My Account shows the plan and cards last seen, dated, and what needs the network is disabled', async ({
      page,
      context,
    }) => {
      const member = await createUser(page.request, { language })
      await signInAs(page, member)
      await subscribe(page)

      const before = await page.evaluate(() => Date.now())
      await page.goto('/my-account/billing-history')
      await expect(page.getByTestId('invoice-row')).toHaveCount(1)
      await page.goto('/my-account')
      const summary = page.getByTestId('plan-summary')
      await expect(summary.getByTestId('plan-status')).toHaveText(text.active)
      await expect(page.getByTestId('saved-cards').getByRole('listitem')).toHaveCount(2)
      await expect(page.getByTestId('price-plans').getByRole('listitem').first()).toBeVisible()
      const after = await page.evaluate(() => Date.now())
      await workerReady(page)

      await context.setOffline(true)
      // A fresh start of the app with no network: the shell from the service worker, the
      // member's data from what this device kept.
      await page.reload()
      await expect(page.getByRole('heading', { name: text.planTitle })).toBeVisible()
      await expect(summary.getByTestId('plan-status')).toHaveText(text.active)
      await expect(summary).toContainText(text.plan)
      await expect(summary.getByText(text.loading)).toHaveCount(0)
      // Dated when it was fetched, in the member's language (the minute may have turned).
      const notice = summary.getByTestId('offline-notice')
      const dates = new Set([
        await dateTimeOf(page, text.locale, before),
        await dateTimeOf(page, text.locale, after),
      ])
      await expect(notice).toHaveText(oneOf([...dates].map(text.asOf)))
      const cancel = summary.getByRole('button', { name: text.cancel })
      await expect(cancel).toBeDisabled()
      const noticeId = await notice.getAttribute('id')
      await expect(cancel).toHaveAttribute('aria-describedby', noticeId ?? '')
      // Links to pages that need the network stay in place, disabled.
      await expect(summary.getByRole('button', { name: text.upgrade })).toBeDisabled()
      await expect(summary.getByRole('link', { name: text.upgrade })).toHaveCount(0)

      const cards = page.getByRole('region', { name: text.cardsTitle })
      await expect(cards.getByRole('listitem')).toHaveCount(2)
      await expect(cards.getByRole('button', { name: text.makeDefault })).toBeDisabled()
      await expect(cards.getByRole('button', { name: text.addCard })).toBeDisabled()
      await expect(cards.getByTestId('offline-notice')).toHaveText(
        oneOf([...dates].map(text.cardsAsOf)),
      )
      await expect(page.getByText(text.buying)).toBeVisible()
      await expect(page.getByTestId('price-plans').getByRole('link')).toHaveCount(0)

      // As a phone shows it, to be looked at.
      await page.setViewportSize({ width: 390, height: 844 })
      await page.screenshot({
        path: test.info().outputPath(`offline-my-account-${language}.png`),
        fullPage: true,
      })

      // The billing history seen before is there too, dated.
      await page.setViewportSize({ width: 1280, height: 720 })
      await page.getByRole('link', { name: text.history }).click()
      await expect(page.getByTestId('invoice-row')).toHaveCount(1)
      await expect(page.getByTestId('invoice-row')).toContainText(text.plan)
      await expect(page.getByTestId('offline-notice')).toHaveText(
        oneOf([...dates].map(text.historyAsOf)),
      )
      await page.goBack()

      // Back online, the page is the server's again.
      await context.setOffline(false)
      await expect(summary.getByTestId('offline-notice')).toHaveCount(0)
      await expect(summary.getByRole('button', { name: text.cancel })).toBeEnabled()
    })
  })
}

test("never another member's plan: offline, one who has no copy here is told it can't be shown, and Log Out forgets the copies", async ({
  page,
  context,
}) => {
  const first = await createUser(page.request)
  await signInAs(page, first)
  await subscribe(page)
  await page.goto('/my-account')
  await expect(page.getByTestId('plan-status')).toHaveText('Active')
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(localStorage).some((key) => key.startsWith('harmonize.cache.plan:')),
      ),
    )
    .toBe(true)

  // Another member signs in on this browser without the first one logging out (the first
  // session ended elsewhere): their pages are seen online, but never My Account.
  const second = await createUser(page.request)
  await signInAs(page, second)
  await page.goto('/support')
  await expect(page.getByTestId('header-title')).not.toHaveText('')
  await workerReady(page)

  await context.setOffline(true)
  await page.goto('/my-account')
  const summary = page.getByTestId('plan-summary')
  await expect(summary.getByTestId('offline-notice')).toHaveText(TEXTS.en.none)
  await expect(summary.getByTestId('plan-status')).toHaveCount(0)
  await expect(summary).not.toContainText('SUBSCRIPTION')
  await expect(summary.getByText(TEXTS.en.loading)).toHaveCount(0)
  await expect(page.getByTestId('account-email')).toHaveText(second.email)

  await context.setOffline(false)
  await page.goto('/logout')
  await expect(page).toHaveURL(/\/login$/)
  expect(
    await page.evaluate(() =>
      Object.keys(localStorage).filter((key) => key.startsWith('harmonize.cache.')),
    ),
  ).toEqual([])
})

test('offline, a reload shows the plan as the last change left it, not as it was fetched before the change', async ({
  page,
  context,
}) => {
  const member = await createUser(page.request)
  await signInAs(page, member)
  await subscribe(page)
  await page.goto('/my-account')
  const summary = page.getByTestId('plan-summary')
  const reminders = summary.getByRole('checkbox', {
    name: 'E-mail me 3 days before each monthly payment',
  })
  await expect(reminders).not.toBeChecked()
  await reminders.click()
  await expect(reminders).toBeChecked()
  // The change's answer is what this device keeps (the plan is not fetched again after it).
  await expect
    .poll(() =>
      page.evaluate(() => {
        const key = Object.keys(localStorage).find((one) => one.startsWith('harmonize.cache.plan:'))
        const kept = key ? JSON.parse(localStorage.getItem(key) ?? 'null') : null
        return kept?.value?.renewalReminders
      }),
    )
    .toBe(true)
  await workerReady(page)

  await context.setOffline(true)
  await page.reload()
  await expect(summary.getByTestId('offline-notice')).toBeVisible()
  await expect(reminders).toBeChecked()
})

test('offline, the failed-payment banner still says what is owed, and Pay now and Update card wait for the network', async ({
  page,
  context,
}) => {
  const member = await createUser(page.request)
  await signInAs(page, member)
  await subscribe(page)
  // Saved without complaint; the bank refuses the renewal's charge.
  await addCard(page, '4000000000000341', true)
  await advance(member.email, 31)
  await refusalSeen(page)
  await page.goto('/my-account')
  const banner = page.getByTestId('payment-failed-banner')
  await expect(banner.getByRole('button', { name: 'Pay US$15.00 now' })).toBeEnabled()
  await workerReady(page)

  await context.setOffline(true)
  await page.reload()
  await expect(banner).toContainText(
    'The payment of US$15.00 for SUBSCRIPTION was refused: the card was declined.',
  )
  const reason = banner.getByTestId('offline-notice')
  await expect(reason).toHaveText('You are offline: paying needs a connection.')
  const payNow = banner.getByRole('button', { name: 'Pay US$15.00 now' })
  await expect(payNow).toBeDisabled()
  await expect(payNow).toHaveAttribute('aria-describedby', (await reason.getAttribute('id')) ?? '')
  await expect(banner.getByRole('button', { name: 'Update card' })).toBeDisabled()
  await expect(banner.getByRole('link')).toHaveCount(0)

  await context.setOffline(false)
  await expect(payNow).toBeEnabled()
  await expect(banner.getByRole('link', { name: 'Update card' })).toBeVisible()
})
