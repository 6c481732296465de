import { ownClientAddress } from './support/accounts'
import { expect, test } from './support/test'

// The widget itself in a real browser, under the real CSP (any violation is a console error and
// fails the test). The account flows that submit its payload are in accounts.spec.ts.

const isChallenge = (url: string) => new URL(url).pathname === '/api/captcha/challenge'

test('passing the check unlocks Register, and unticking it locks it again', async ({ page }) => {
  await page.goto('/signup')
  await page.getByLabel('Full name').fill('Ada Lovelace')
  await page.getByLabel('Email').fill('ada@example.test')
  await page.getByLabel('Password', { exact: true }).fill('Sunny-Water-19!')
  await page.getByLabel('Confirm password', { exact: true }).fill('Sunny-Water-19!')
  const register = page.getByRole('button', { name: 'Register Account' })
  await expect(register).toBeDisabled()

  const challenge = page.waitForResponse((response) => isChallenge(response.url()))
  await page.getByRole('checkbox', { name: 'I am human' }).click()

  expect((await challenge).status()).toBe(200)
  const verified = page.getByRole('checkbox', { name: 'Verified' })
  await expect(verified).toBeChecked()
  await expect(register).toBeEnabled()

  // Unticking resets the widget, and the form must no longer hold a payload.
  await verified.click()
  await expect(page.getByRole('checkbox', { name: 'I am human' })).not.toBeChecked()
  await expect(register).toBeDisabled()
})

test('on the sign-in page it speaks Spanish and works from the keyboard', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByRole('checkbox', { name: 'I am human' })).toBeVisible()
  await page.getByLabel('Choose language').selectOption({ label: 'Español' })
  const check = page.getByRole('checkbox', { name: 'Soy humano' })
  await expect(check).toBeVisible()

  const challenge = page.waitForRequest((request) => isChallenge(request.url()))
  await check.focus()
  await page.keyboard.press('Space')

  await challenge
  await expect(page.getByRole('checkbox', { name: 'Verificado' })).toBeChecked()
})

test.describe('past the limit on challenges', () => {
  // A visitor of its own, whose limit no other test uses up.
  test.use(ownClientAddress)
  // The refused challenge is a 429, which Chromium logs as a failed resource.
  test.use({ allowedConsoleErrors: /the server responded with a status of 429/ })

  test('the box says how long to wait, in the page’s language', async ({ page }) => {
    await page.goto('/login')
    await page.getByLabel('Choose language').selectOption({ label: 'Español' })
    // The limit is 120 challenges in 10 minutes from one address.
    let status = 200
    for (let asked = 0; status === 200 && asked < 200; asked++) {
      status = (await page.request.get('/api/captcha/challenge')).status()
    }
    expect(status).toBe(429)
    await page.getByRole('checkbox', { name: 'Soy humano' }).click()
    await expect(
      page.getByRole('checkbox', {
        name: /^Demasiados intentos\. Vuelve a intentarlo dentro de (10|9) minutos\.$/,
      }),
    ).toBeVisible()
  })
})
