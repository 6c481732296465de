import type { Route } from '@playwright/test'
import { ownClientAddress } from './support/accounts'
import { saveCard, startFromMyAccount } from './support/billing'
import { expect, test } from './support/test'

// Upgrade plan: the amount due now is on screen before anything can be charged, and what is
// charged is that amount.

test.use(ownClientAddress)

test('an upgrade to ONE PAYMENT charges the amount due it showed, and only once it showed it', async ({
  page,
  member: _,
}) => {
  await saveCard(page, '4242 4242 4242 4242')
  await startFromMyAccount(page, /SUBSCRIPTION/)
  // The preview held back, as on a slow network: Upgrade waits for it.
  const held: Route[] = []
  await page.route('**/api/billing/plan/upgrade?*', (route) => {
    held.push(route)
  })
  await page.getByTestId('plan-summary').getByRole('link', { name: 'Upgrade plan' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Upgrade plan' })).toBeVisible()
  const upgrade = page.getByRole('button', { name: 'Upgrade' })
  await page.getByRole('radio', { name: /^ONE PAYMENT/ }).check()
  await expect(page.getByText('Working out the credit…')).toBeVisible()
  await expect(upgrade).toBeDisabled()
  await expect.poll(() => held.length).toBeGreaterThan(0)
  for (const route of held) await route.continue()
  await page.unroute('**/api/billing/plan/upgrade?*')

  const preview = page.getByTestId('upgrade-preview')
  const dueNow = preview.getByText('Due now').locator('xpath=following-sibling::dd[1]')
  await expect(dueNow).toHaveText(/^US\$1[34]\d\.\d{2}$/)
  const due = await dueNow.textContent()
  await expect(upgrade).toBeEnabled()
  await upgrade.click()
  await expect(page.getByTestId('snackbar')).toHaveText('Your plan has changed.', {
    timeout: 30_000,
  })
  await expect(page).toHaveURL(/\/my-account$/)
  await expect(page.getByTestId('plan-summary')).toContainText('Paid — access for good')

  await page.goto('/my-account/billing-history')
  const row = page.getByTestId('invoice-row').filter({ hasText: 'ONE PAYMENT' })
  await expect(row).toContainText(due ?? 'no amount')
})
