import { expect, test } from './support/test'

test('on a phone the header fits and the menu opens over the page', async ({ page }) => {
  await page.goto('/login')
  const header = page.locator('header')
  const viewport = page.viewportSize()
  const box = await header.boundingBox()
  expect(box?.width).toBe(viewport?.width)
  await page.getByRole('button', { name: 'Open menu' }).click()
  const menu = page.getByTestId('side-menu')
  await expect(menu.getByRole('link', { name: 'Support' })).toBeInViewport()
  await menu.getByRole('link', { name: 'About' }).click()
  // /about is for signed-in users; the menu closes and the visitor is asked to sign in.
  await expect(menu).toBeHidden()
  await expect(page).toHaveURL(/\/login$/)
})
