import type { APIRequestContext, Page } from '@playwright/test'
import { expect } from '@playwright/test'
import { harness } from './harness'

/** A new access code, made by the access service in the running e2e server. */
export async function createAccessCode(): Promise<string> {
  return (await harness('access-code', {})).code
}

/**
 * Gives the signed-in user of `request` access: a fresh code redeemed through the API. (A test
 * that knows its user can ask for `createUser(…, { access: true })` instead.)
 */
export async function grantAccess(request: APIRequestContext): Promise<void> {
  const response = await request.post('/api/account/access-code', {
    data: { code: await createAccessCode() },
  })
  expect(response.ok(), await response.text()).toBe(true)
}

/**
 * /home once the app knows the member's access: the grid is busy until then, its cards links
 * as the HTML has them whatever the access (ADR 0028), so counting links alone proves nothing.
 */
async function panelsSettled(page: Page) {
  await expect(page.getByTestId('panel-grid')).toHaveAttribute('aria-busy', 'false')
}

/** /home shows every panel open: the app knows the member has access. */
export async function expectPanelsOpen(page: Page) {
  await panelsSettled(page)
  await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(16)
  await expect(page.getByTestId('panel-card-locked')).toHaveCount(0)
  await expect(page.getByTestId('no-payment')).toHaveCount(0)
}

/** /home shows every panel locked: the app knows the member has no access. */
export async function expectPanelsLocked(page: Page) {
  await panelsSettled(page)
  await expect(page.getByTestId('panel-card-locked')).toHaveCount(16)
  await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(0)
}
