import { expect, test } from './support/test'

test('on a phone the header fits and the menu opens over the page', async ({ page }) => {
  await page.goto('/login')
  const header = page.locator('header')
  const viewport = page.viewportSize()
  const box = await header.boundingBox()
  expect(box?.width).toBe(viewport?.width)
  await page.getByRole('button', { name: 'Open menu' }).click()
  const menu = page.getByTestId('side-menu')
  // A visitor's menu: the ways into an account, the last one still on the screen.
  await expect(menu.getByRole('link', { name: 'Forgot your password?' })).toBeInViewport()
  await menu.getByRole('link', { name: 'Create an Account' }).click()
  await expect(menu).toBeHidden()
  await expect(page).toHaveURL(/\/signup$/)
})
