import type { Page } from '@playwright/test'
import { expectPanelsOpen } from './access'
import { harness } from './harness'
import { expect } from './test'

// A member's billing as the screens do it: cards saved through Add Credit Card, a plan started
// from My Account, and the member's sandbox clock moved on as the provider's test clocks do.

/** Two digits of next year: a card's expiry that stays in the future. */
export const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')

/** Saves a card through Add Credit Card; the first becomes the default. */
export async function saveCard(page: Page, number: string) {
  await page.goto('/my-account/add-credit-card')
  await page.getByLabel('Card number').fill(number)
  await page.getByLabel('Expiry date').fill(`12 / ${nextYear}`)
  await page.getByLabel('Security code').fill('123')
  await page.getByRole('button', { name: 'Save card' }).click()
  await expect(page).toHaveURL(/\/my-account$/)
}

/** Start Now on My Account with the chosen price: the panels once the bank said yes. */
export async function startFromMyAccount(page: Page, plan: RegExp) {
  await page.goto('/my-account')
  const summary = page.getByTestId('plan-summary')
  await summary.getByRole('radio', { name: plan }).check()
  await summary.getByRole('button', { name: 'Start Now' }).click()
  await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 })
  await expectPanelsOpen(page)
  await page.goto('/my-account')
  await expect(summary.getByTestId('plan-status')).toHaveText('Active')
}

/** Moves the member's sandbox billing clock on: renewals and installments that fall due run. */
export const advance = (email: string, days: number) => harness('billing-advance', { email, days })

/** Until the plan says the bank refused the open invoice's last charge (its answer comes later). */
export async function refusalSeen(page: Page) {
  await expect
    .poll(async () => (await (await page.request.get('/api/billing/plan')).json()).paymentFailed, {
      timeout: 30_000,
    })
    .toBe(true)
}

/**
 * A SUBSCRIPTION paid with the card that always pays, then `refusing` made the default and the
 * clock moved a month on: the renewal is refused, once the bank has answered.
 */
export async function renewalRefused(page: Page, email: string, refusing: string) {
  await saveCard(page, '4242 4242 4242 4242')
  await startFromMyAccount(page, /SUBSCRIPTION/)
  await saveCard(page, refusing)
  const last4 = refusing.replace(/\D/g, '').slice(-4)
  const card = page.getByTestId('saved-cards').getByRole('listitem').filter({ hasText: last4 })
  await card.getByRole('button', { name: 'Make default' }).click()
  await expect(card).toContainText('Default')
  await advance(email, 31)
  await refusalSeen(page)
}
