import { expectPanelsOpen } from './support/access'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expectAccessible } from './support/axe'
import { expect, test } from './support/test'

// Saving a card in the browser, through the sandbox's card field: the way a member would.

test.use(ownClientAddress)
// The bank's refusal is a 402 answer, which Chromium logs as a failed resource.
test.use({ allowedConsoleErrors: /the server responded with a status of 402/ })

const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')

test('a member saves a card from My Account; a declined one is refused in red', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await page.goto('/my-account')
  await expect(page.getByText('No card saved yet.')).toBeVisible()
  // One notice for the whole page, however many of its sections show money.
  await expect(page.getByTestId('sandbox-notice')).toHaveText(['Sandbox — no real charges'])
  await page.getByRole('link', { name: 'Add Credit Card' }).click()

  await expect(page.getByRole('heading', { name: 'Add Credit Card' })).toBeVisible()
  await expect(page.getByTestId('header-title')).toHaveText('My Subscription')
  await expectAccessible(page)
  await page.getByLabel('Card number').fill('4000 0000 0000 0002')
  await page.getByLabel('Expiry date').fill(`12 / ${nextYear}`)
  await page.getByLabel('Security code').fill('123')
  await page.getByRole('button', { name: 'Save card' }).click()
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.')
  await page.screenshot({ path: test.info().outputPath('declined.png'), fullPage: true })

  await page.getByLabel('Card type').selectOption('debit')
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByRole('button', { name: 'Save card' }).click()
  await expect(page).toHaveURL(/\/my-account$/)
  await expect(page.getByTestId('saved-cards')).toContainText('Visa ending in 4242')
  await expect(page.getByTestId('saved-cards')).toContainText('Default')
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('my-account.png'), fullPage: true })
})

test('a member fills in the billing information, which My Account then shows', async ({ page }) => {
  const member = await createUser()
  await signInAs(page, member)
  await page.goto('/my-account')
  await page.getByRole('link', { name: 'Modify Billing Info' }).click()
  await expect(page.getByTestId('header-title')).toHaveText('Modify Billing Info')
  await expect(page.getByLabel('Customer Name')).toHaveValue(member.name)
  await expectAccessible(page)
  await page.getByLabel('Address line 1').fill('221B Baker Street')
  await page.getByLabel('City').fill('London')
  await page.getByLabel('Postal code').fill('NW1 6XE')
  await page.getByLabel('Country').selectOption('GB')
  await page.getByLabel('State or province').selectOption('Westminster')
  await page.screenshot({ path: test.info().outputPath('billing-info.png'), fullPage: true })
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/my-account$/)
  await expect(page.getByTestId('billing-info')).toContainText('221B Baker Street')
  await expect(page.getByTestId('billing-info')).toContainText('NW1 6XE London')
  await expect(page.getByTestId('billing-info')).toContainText('Westminster, United Kingdom')
})

test('a member buys ONE PAYMENT with a test card, and the panels open for harmonizing', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await page.goto('/home')
  await expect(page.getByTestId('no-payment')).toBeVisible()

  await page.goto('/my-account')
  await expect(page.getByTestId('price-plans')).toContainText('ONE PAYMENTUS$149.00')
  await expect(page.getByTestId('price-plans')).toContainText('FOUR PAYMENTSUS$39.00 × 4 months')
  await expect(page.getByTestId('price-plans')).toContainText('SUBSCRIPTIONUS$15.00 a month')
  // Each link says what it does out of context (Lighthouse's SEO audit refused a bare 'Start').
  await expect(
    page.getByTestId('price-plans').getByRole('link', { name: 'Start this plan' }),
  ).toHaveCount(2)
  await page.getByTestId('price-plans').getByRole('link', { name: 'Pay now' }).click()
  await expect(page.getByTestId('header-title')).toHaveText('My Subscription')
  // The plan clicked is the plan chosen.
  await expect(page.getByRole('radio', { name: /ONE PAYMENT/ })).toBeChecked()
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry date').fill(`12 / ${nextYear}`)
  await page.getByLabel('Security code').fill('123')
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Pay now' }).click()
  await expect(page.getByTestId('payment-status')).toHaveText('Payment Status: in progress...')
  await page.screenshot({ path: test.info().outputPath('in-progress.png'), fullPage: true })
  await expect(page.getByTestId('payment-paid')).toContainText('Paid.', { timeout: 30_000 })
  await page.getByRole('link', { name: 'Go to the panels' }).click()

  await expect(page).toHaveURL(/\/home$/)
  await expect(page.getByTestId('no-payment')).toHaveCount(0)
  await expectPanelsOpen(page)
  await page.getByRole('link', { name: /Digestion/ }).click()
  await page.getByRole('link', { name: 'Start harmonizing' }).click()
  await expect(page).toHaveURL(/\/harmonizing-screen\/01$/)
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled()

  // Paid for good, and My Account says so rather than what a plan would.
  await page.goto('/my-account')
  await expect(page.getByTestId('plan-lifetime')).toContainText('Paid — access for good')
  await expect(page.getByTestId('plan-summary')).not.toContainText(/Canceled|Renews|next one/)
})

test('a declined card shows Payment failed with the bank’s reason, and a good card then pays', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await page.goto('/my-account/single-payment')
  await page.getByRole('radio', { name: /ONE PAYMENT/ }).check()
  await page.getByLabel('Card number').fill('4000 0000 0000 9995')
  await page.getByLabel('Expiry date').fill(`12 / ${nextYear}`)
  await page.getByLabel('Security code').fill('123')
  await page.getByRole('button', { name: 'Pay now' }).click()
  // This card's refusal comes from the bank a moment later, as with a real provider.
  await expect(page.getByRole('alert')).toHaveText(
    'Payment failed. Your card has insufficient funds.',
    { timeout: 30_000 },
  )
  await page.screenshot({ path: test.info().outputPath('payment-failed.png'), fullPage: true })
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByRole('button', { name: 'Pay now' }).click()
  await expect(page.getByTestId('payment-paid')).toContainText('Paid.', { timeout: 30_000 })
})

test('a card whose bank checks each payment (3-D Secure): the member confirms the card, then the payment, and it is paid', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await page.goto('/my-account/single-payment')
  await page.getByRole('radio', { name: /ONE PAYMENT/ }).check()
  await page.getByLabel('Card number').fill('4000 0025 0000 3155')
  await page.getByLabel('Expiry date').fill(`12 / ${nextYear}`)
  await page.getByLabel('Security code').fill('123')
  await page.getByRole('button', { name: 'Pay now' }).click()

  // The bank checks the card as it is saved…
  const cardCheck = page.getByRole('dialog', { name: 'Confirm this card with your bank' })
  await expect(cardCheck).toBeVisible()
  await cardCheck.getByRole('button', { name: 'Confirm' }).click()
  // …then the payment: failed, nothing is charged, and the page says so.
  const paymentCheck = page.getByRole('dialog', { name: 'Confirm this payment with your bank' })
  await expect(paymentCheck).toBeVisible()
  await expect(paymentCheck).toContainText(
    'Your bank asks you to confirm this payment before it is charged (3-D Secure).',
  )
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('payment-check.png'), fullPage: true })
  await paymentCheck.getByRole('button', { name: 'Fail the check' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Payment failed. Your bank could not confirm this payment, so nothing was charged. Try again or use another card.',
  )
  await expect(page.getByTestId('payment-paid')).toHaveCount(0)

  // Again, confirmed at the bank both times: with the bank, then paid.
  await page.getByRole('button', { name: 'Pay now' }).click()
  await cardCheck.getByRole('button', { name: 'Confirm' }).click()
  await paymentCheck.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByTestId('payment-paid')).toContainText('Paid.', { timeout: 30_000 })
  await page.goto('/home')
  await expectPanelsOpen(page)
})
