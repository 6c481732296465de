import { expectPanelsOpen } from './support/access'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expectAccessible } from './support/axe'
import { advance, nextYear, renewalRefused, saveCard, startFromMyAccount } from './support/billing'
import { builtChunkPath } from './support/build-manifest'
import { expect, test } from './support/test'

// The monthly plans in the browser: FOUR PAYMENTS and the SUBSCRIPTION started from My Account,
// the member's sandbox clock moved on as the provider's test clocks do, and the account actions.

test.use(ownClientAddress)

test('FOUR PAYMENTS: four charges a month apart, then paid for good, with four invoices and their PDFs', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await saveCard(page, '4242 4242 4242 4242')
  await startFromMyAccount(page, /FOUR PAYMENTS/)
  const summary = page.getByTestId('plan-summary')
  await expect(summary).toContainText('1 of 4 payments made.')
  await expectAccessible(page)

  for (const paid of [2, 3]) {
    await advance(member.email, 31)
    await page.reload()
    await expect(summary).toContainText(`${paid} of 4 payments made.`, { timeout: 30_000 })
  }
  // The fourth payment makes it paid for good at once: no 'next one' after the last.
  await advance(member.email, 31)
  await page.reload()
  await expect(summary).toContainText('Paid — access for good', { timeout: 30_000 })
  await expect(summary).not.toContainText('The next one')
  await advance(member.email, 31)
  await page.reload()
  await expect(summary).toContainText('Paid — access for good')
  await page.screenshot({ path: test.info().outputPath('four-payments-paid.png'), fullPage: true })

  await summary.page().getByRole('link', { name: 'Billing history' }).click()
  await expect(page.getByTestId('header-title')).toHaveText('My Subscription')
  await expect(
    page.getByText(
      'The invoice will be generated about 24 hours after we have received your payment.',
    ),
  ).toBeVisible()
  const rows = page.getByRole('table').getByRole('row')
  // A header row and one per installment.
  await expect(rows).toHaveCount(5)
  await expect(rows.nth(1)).toContainText('US$39.00')
  await expect(rows.nth(1)).toContainText('Paid')
  await expect(rows.nth(1)).toContainText('FOUR PAYMENTS, payment 4 of 4')
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('invoices.png'), fullPage: true })
  const links = page.getByRole('table').getByRole('link', { name: /^PDF of invoice / })
  await expect(links).toHaveCount(4)
  for (const href of await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))) {
    const pdf = await page.request.get(href ?? '')
    expect(pdf.headers()['content-type']).toBe('application/pdf')
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-')
  }
  await page.goto('/home')
  await expectPanelsOpen(page)
})

test('SUBSCRIPTION: cancelled with YES, access lasts to the period end, then Reactivate starts it again', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await saveCard(page, '4242 4242 4242 4242')
  await startFromMyAccount(page, /SUBSCRIPTION/)
  const summary = page.getByTestId('plan-summary')

  await summary.getByRole('button', { name: 'Cancel Renewal' }).click()
  const dialog = page.getByRole('dialog', { name: 'Cancel the renewal?' })
  await expect(dialog).toContainText('Your plan will not renew. You keep access until')
  await expectAccessible(page)
  await dialog.getByRole('button', { name: 'NO' }).click()
  await expect(summary.getByRole('button', { name: 'Cancel Renewal' })).toBeVisible()
  await summary.getByRole('button', { name: 'Cancel Renewal' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'YES' }).click()
  await expect(summary).toContainText('Renewal cancelled: your access lasts until')
  await expect(summary.getByRole('button', { name: 'Cancel Renewal' })).toHaveCount(0)
  // Its button gone, the focus is on the plan's next action rather than the page.
  await expect(summary.getByRole('button', { name: 'Reactivate Subscription' })).toBeFocused()
  await page.goto('/home')
  await expectPanelsOpen(page)

  await advance(member.email, 31)
  await page.goto('/my-account')
  await expect(summary.getByTestId('plan-status')).toHaveText('Canceled')
  await page.goto('/home')
  await expect(page.getByTestId('no-payment')).toBeVisible()

  await page.goto('/my-account')
  await summary.getByRole('button', { name: 'Reactivate Subscription' }).click()
  await expect(summary.getByRole('alert')).toHaveText('*Select a Price Plan first')
  await summary.getByRole('radio', { name: /SUBSCRIPTION/ }).check()
  await summary.getByRole('button', { name: 'Reactivate Subscription' }).click()
  await expect(summary.getByTestId('plan-status')).toHaveText('Active', { timeout: 30_000 })
  await page.goto('/home')
  await expectPanelsOpen(page)
})

test('SUBSCRIPTION: Pause asks first, saying what becomes of the month paid for; NO changes nothing, YES closes the panels', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await saveCard(page, '4242 4242 4242 4242')
  await startFromMyAccount(page, /SUBSCRIPTION/)
  const summary = page.getByTestId('plan-summary')
  const pause = summary.getByRole('button', { name: 'Pause (no charges, no sessions)' })

  await pause.click()
  const dialog = page.getByRole('dialog', { name: 'Pause your subscription?' })
  await expect(dialog).toContainText(
    'The panels close now, and nothing is charged while it is paused. The days already paid for, up to',
  )
  await expect(dialog).toContainText('resume later and a new month starts that day')
  await expect(dialog.getByRole('button', { name: 'NO' })).toBeVisible()
  await expect
    .poll(() => dialog.evaluate((element) => element.contains(document.activeElement)))
    .toBe(true)
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('pause-dialog.png'), fullPage: true })
  await dialog.getByRole('button', { name: 'NO' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(pause).toBeFocused()
  await expect(summary.getByTestId('plan-status')).toHaveText('Active')
  await expect(summary).toContainText('Renews on')

  await pause.click()
  await dialog.getByRole('button', { name: 'YES' }).click()
  await expect(summary.getByTestId('plan-status')).toHaveText('Paused')
  // Pause is gone with the dialog: the keyboard is on what comes next, not back at the top.
  const resume = summary.getByRole('button', { name: 'Resume' })
  await expect(resume).toBeFocused()
  await page.goto('/home')
  await expect(page.getByTestId('paused-banner')).toBeVisible({ timeout: 30_000 })

  // Resumed from the keyboard: Resume goes, and the focus moves to the plan's first action.
  await page.goto('/my-account')
  await resume.focus()
  await page.keyboard.press('Enter')
  await expect(summary.getByTestId('plan-status')).toHaveText('Active')
  await expect(resume).toHaveCount(0)
  await expect(summary.getByRole('link', { name: 'Upgrade plan' })).toBeFocused()
})

test("/home does not download billing's screens for a member whose payments are fine", async ({
  page,
}) => {
  const member = await createUser(undefined, { access: true })
  await signInAs(page, member)
  const requested: string[] = []
  page.on('request', (request) => requested.push(new URL(request.url()).pathname))
  await page.goto('/home')
  await expectPanelsOpen(page)
  // The plan decides about the banner; whatever it would have made the page load has been
  // asked for once the network is quiet.
  await expect.poll(() => requested.includes('/api/billing/plan')).toBe(true)
  await page.waitForLoadState('networkidle')
  await expect(page.getByTestId('payment-failed-banner')).toHaveCount(0)
  // The chunk of billing's public module (the banner, dialogs, cards, plans), which /home loads
  // with import() only for a failed payment, never came.
  const billing = builtChunkPath({ lazyFrom: 'features/panels/routes/home-page.tsx' })
  expect(requested.filter((url) => url.endsWith('.js')).length).toBeGreaterThan(0)
  expect(requested).not.toContain(billing)
})

test('a failed renewal shows the banner on /home and My Account, and is paid from the open invoice with a new card', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  // 0341 can be saved, but the bank refuses its charges after the first month. The bank
  // answers the renewal's charge a moment later, as Stripe's webhook would; until then the
  // member still has access, and a page opened meanwhile starts keeping the media for offline
  // use, which the refusal then interrupts (a 402 in the console): so the helper waits for it.
  await renewalRefused(page, member.email, '4000 0000 0000 0341')
  await page.goto('/home')
  const banner = page.getByTestId('payment-failed-banner')
  await expect(banner).toContainText('Sorry, it seems that a payment failed', { timeout: 30_000 })
  await expect(banner).toContainText(
    'The payment of US$15.00 for SUBSCRIPTION was refused: the card was declined.',
  )
  await expect(banner).toContainText('We will try the card again on')
  // While the card is tried again, the panels stay open.
  await expectPanelsOpen(page)
  await page.screenshot({ path: test.info().outputPath('failed-banner-home.png'), fullPage: true })

  // Update card: the card added from the banner becomes the one that pays, and pays at once.
  await banner.getByRole('link', { name: 'Update card' }).click()
  await expect(page.getByRole('heading', { name: 'Add Credit Card' })).toBeVisible()
  await expect(page.getByTestId('card-pays-invoice')).toContainText(
    'this card becomes your default and pays the open invoice',
  )
  await page.getByLabel('Card number').fill('5555 5555 5555 4444')
  await page.getByLabel('Expiry date').fill(`12 / ${nextYear}`)
  await page.getByLabel('Security code').fill('123')
  await page.getByRole('button', { name: 'Save card' }).click()
  await expect(page.getByTestId('invoice-payment')).toContainText(
    /^Paid: invoice HZ-\d+ is settled/,
    {
      timeout: 30_000,
    },
  )
  await expect(page.getByRole('link', { name: /^PDF of invoice HZ-\d+$/ })).toBeVisible()
  await page.getByRole('link', { name: 'Back to My Account' }).click()
  await expect(page).toHaveURL(/\/my-account$/)
  await expect(
    page.getByTestId('saved-cards').getByRole('listitem').filter({ hasText: '4444' }),
  ).toContainText('Default')
  await expect(page.getByTestId('payment-failed-banner')).toHaveCount(0)
  await expect(page.getByTestId('plan-status')).toHaveText('Active')
  await page.goto('/home')
  await expectPanelsOpen(page)
})

test('Pay now on the banner with the refused card still the default says why the bank refused it, there, and access stays', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  // 9995 is saved without complaint; every charge to it is refused for insufficient funds.
  await renewalRefused(page, member.email, '4000 0000 0000 9995')
  await page.goto('/my-account')
  const banner = page.getByTestId('payment-failed-banner')
  await expect(banner).toContainText(
    'The payment of US$15.00 for SUBSCRIPTION was refused: the card has insufficient funds.',
    { timeout: 30_000 },
  )
  const retry = banner.getByTestId('payment-failed-details')
  const nextTry = await retry.textContent()
  expect(nextTry).toMatch(/We will try the card again on /)

  await banner.getByRole('button', { name: 'Pay US$15.00 now' }).click()
  // Said beside the button that was pressed, not in a passing toast, and it stays said.
  const outcome = banner.getByTestId('invoice-payment')
  await expect(outcome).toHaveText(
    'Payment refused: the card has insufficient funds. Try again or update your card.',
    { timeout: 30_000 },
  )
  await expect(outcome).toHaveAttribute('role', 'alert')
  // The invoice is still open: the banner stays with its Pay now, and the next try is unchanged.
  await expect(banner.getByRole('button', { name: 'Pay US$15.00 now' })).toBeEnabled()
  await expect(banner.getByRole('link', { name: 'Update card' })).toBeVisible()
  await expect(retry).toHaveText(nextTry ?? '')
  // Unpaid, as the spec words any status but active, trialing and canceled: not a green Active
  // beside the red banner.
  await expect(page.getByTestId('plan-status')).toHaveText('Unpaid')
  await expectAccessible(page)
  // During the retries the member keeps access.
  await page.goto('/home')
  await expect(page.getByTestId('payment-failed-banner')).toBeVisible({ timeout: 30_000 })
  await expectPanelsOpen(page)
})

test('a card whose bank checks each payment: the first month waits for the bank’s check, which the member can run later from My Account', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await page.goto('/my-account/add-credit-card')
  await page.getByLabel('Card number').fill('4000 0025 0000 3155')
  await page.getByLabel('Expiry date').fill(`12 / ${nextYear}`)
  await page.getByLabel('Security code').fill('123')
  await page.getByRole('button', { name: 'Save card' }).click()
  await page
    .getByRole('dialog', { name: 'Confirm this card with your bank' })
    .getByRole('button', { name: 'Confirm' })
    .click()
  await expect(page).toHaveURL(/\/my-account$/)

  const summary = page.getByTestId('plan-summary')
  await summary.getByRole('radio', { name: /^SUBSCRIPTION/ }).check()
  await summary.getByRole('button', { name: 'Start Now' }).click()
  const check = page.getByRole('dialog', { name: 'Confirm this payment with your bank' })
  await expect(check).toBeVisible()
  // The member leaves the bank's page unanswered: the payment waits, uncharged.
  await page.reload()
  const banner = page.getByTestId('bank-check-banner')
  await expect(banner).toContainText(
    'Your bank asks you to confirm the payment of US$15.00 (3-D Secure). Until then it is not charged.',
  )
  await expect(summary).toContainText('Waiting for you to confirm the payment with your bank.')
  await expect(summary.getByRole('button', { name: 'Pay Actual Invoice' })).toHaveCount(0)
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('bank-check-waiting.png'), fullPage: true })
  await banner.getByRole('button', { name: 'Confirm with your bank' }).click()
  await check.getByRole('button', { name: 'Confirm' }).click()
  await expect(summary.getByTestId('plan-status')).toHaveText('Active', { timeout: 30_000 })
  await expect(banner).toHaveCount(0)
  await page.goto('/home')
  await expectPanelsOpen(page)
})
