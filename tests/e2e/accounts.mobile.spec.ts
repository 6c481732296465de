import { ownClientAddress } from './support/accounts'
import { expect, test } from './support/test'

// Account screens on a phone (core §2: the account dialogs are full-screen under 800 px).

test.use(ownClientAddress)

test('on a phone the change-password dialog fills the screen', async ({ page, member: _ }) => {
  const viewport = page.viewportSize()
  expect(viewport?.width).toBeLessThan(800)
  await page.goto('/my-account')
  await page.getByRole('button', { name: 'Change password' }).click()

  const dialog = page.getByRole('dialog', { name: 'Change password' })
  await expect(dialog).toBeVisible()
  expect(await dialog.boundingBox()).toEqual({
    x: 0,
    y: 0,
    width: viewport?.width,
    height: viewport?.height,
  })
  await expect(dialog.getByRole('button', { name: 'Change password' })).toBeInViewport()

  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()
})

test('on a phone the sign-in form fits the width without scrolling sideways', async ({ page }) => {
  await page.goto('/login')
  const signIn = page.getByRole('button', { name: 'Sign In', exact: true })
  await expect(signIn).toBeVisible()
  await expect(page.getByTestId('human-check').getByRole('checkbox')).toBeVisible()

  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }))
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth)

  const width = page.viewportSize()?.width ?? 0
  const form = page.locator('form')
  for (const element of [form, page.getByLabel('Email'), page.getByTestId('human-check'), signIn]) {
    const box = await element.boundingBox()
    expect(box?.x).toBeGreaterThanOrEqual(0)
    expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(width)
  }
})
