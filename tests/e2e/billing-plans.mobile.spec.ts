import type { Page } from '@playwright/test'
import { expectPanelsOpen } from './support/access'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expectAccessible } from './support/axe'
import { expect, test } from './support/test'

// Paying on a phone, in Spanish: the forms fit the screen and every step reads in Spanish.

test.use(ownClientAddress)

const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

async function typeCard(page: Page, number: string) {
  await page.getByLabel('Número de tarjeta').fill(number)
  await page.getByLabel('Fecha de caducidad').fill(`12 / ${nextYear}`)
  await page.getByLabel('Código de seguridad').fill('123')
}

test('en español y en un teléfono: PAGO ÚNICO con una tarjeta de prueba, y a armonizar', async ({
  page,
}) => {
  const member = await createUser(undefined, { language: 'es' })
  await signInAs(page, member)
  await page.goto('/my-account/single-payment')
  await page.getByTestId('language-select').selectOption('es')
  await expect(page.getByRole('heading', { name: 'Pago único' })).toBeVisible()
  await page.getByRole('radio', { name: /PAGO ÚNICO/ }).check()
  await typeCard(page, '4242 4242 4242 4242')
  expect(await overflow(page)).toBe(0)
  await page.getByRole('button', { name: 'Pagar ahora' }).click()
  await expect(page.getByTestId('payment-paid')).toContainText('Pagado.', { timeout: 30_000 })
  await page.getByRole('link', { name: 'Ir a los paneles' }).click()
  await expect(page).toHaveURL(/\/home$/)
  await page.getByTestId('panel-grid').getByRole('link').first().click()
  await page.getByRole('link', { name: 'Empezar a armonizar' }).click()
  await expect(page).toHaveURL(/\/harmonizing-screen\/\d{2}$/)
  await expect(page.getByRole('button', { name: 'Reproducir' })).toBeEnabled()
})

test('en español y en un teléfono: la SUSCRIPCIÓN desde su página, y Mi suscripción en Mi cuenta', async ({
  page,
}) => {
  const member = await createUser(undefined, { language: 'es' })
  await signInAs(page, member)
  await page.goto('/my-account/add-credit-card')
  await page.getByTestId('language-select').selectOption('es')
  await typeCard(page, '4242 4242 4242 4242')
  await page.getByRole('button', { name: 'Guardar tarjeta' }).click()
  await expect(page).toHaveURL(/\/my-account$/)

  await page.goto('/my-account/subscribe-payment')
  await expect(page.getByRole('heading', { name: 'Empezar un plan' })).toBeVisible()
  await page.getByRole('button', { name: 'Empezar ahora' }).click()
  await expect(page.getByRole('alert')).toHaveText('*Selecciona primero un plan de precios')
  await page.getByRole('radio', { name: /SUSCRIPCIÓN/ }).check()
  await expect(page.getByTestId('plan-card')).toHaveText('Se cobra a Visa terminada en 4242')
  expect(await overflow(page)).toBe(0)
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('subscribe-es.png'), fullPage: true })
  await page.getByRole('button', { name: 'Empezar ahora' }).click()
  await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 })
  await expectPanelsOpen(page)

  await page.goto('/my-account')
  const summary = page.getByTestId('plan-summary')
  await expect(summary.getByTestId('plan-status')).toHaveText('Activa')
  await expect(summary).toContainText('Se renueva el')
  await expect(summary.getByRole('button', { name: 'Cancelar renovación' })).toBeVisible()
  expect(await overflow(page)).toBe(0)
  await page.screenshot({ path: test.info().outputPath('my-account-es.png'), fullPage: true })
})

test('en español y en un teléfono: el banco pide confirmar el primer pago de la SUSCRIPCIÓN (3-D Secure)', async ({
  page,
}) => {
  const member = await createUser(undefined, { language: 'es' })
  await signInAs(page, member)
  await page.goto('/my-account/add-credit-card')
  await page.getByTestId('language-select').selectOption('es')
  await typeCard(page, '4000 0025 0000 3155')
  await page.getByRole('button', { name: 'Guardar tarjeta' }).click()
  await page
    .getByRole('dialog', { name: 'Confirma esta tarjeta con tu banco' })
    .getByRole('button', { name: 'Confirmar' })
    .click()
  await expect(page).toHaveURL(/\/my-account$/)

  await page.goto('/my-account/subscribe-payment')
  await page.getByRole('radio', { name: /SUSCRIPCIÓN/ }).check()
  await page.getByRole('button', { name: 'Empezar ahora' }).click()
  const check = page.getByRole('dialog', { name: 'Confirma este pago con tu banco' })
  await expect(check).toContainText(
    'Tu banco te pide confirmar este pago antes de cobrarlo (3-D Secure).',
  )
  expect(await overflow(page)).toBe(0)
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('payment-check-es.png'), fullPage: true })
  await check.getByRole('button', { name: 'Confirmar' }).click()
  await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 })
  await expectPanelsOpen(page)
})
