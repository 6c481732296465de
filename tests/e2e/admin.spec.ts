import { Secret, TOTP } from 'otpauth'
import { harness } from './support/harness'
import { expect, test } from './support/test'

// The operator's console at /admin: the second factor first (ADR 0029), then the audit log.

/** The authenticator app, from the key the page shows as text. */
const authenticatorOf = (key: string) =>
  new TOTP({ secret: Secret.fromBase32(key.replaceAll(' ', '')) })

test.describe('the console', () => {
  // The wrong password is answered 400, as it should be.
  test.use({ allowedConsoleErrors: /status of 400/ })

  test('an operator sets up the authenticator, keeps the recovery codes, and sees the audit log', async ({
    page,
    member,
  }) => {
    await harness('operator', { email: member.email })
    await page.goto('/admin')
    await expect(page.getByTestId('header-title')).toHaveText('Console')
    await expect(
      page.getByRole('heading', { name: 'Protect the console with your phone' }),
    ).toBeVisible()
    await page.getByRole('button', { name: 'Set up my authenticator' }).click()
    await page.getByLabel('Your password').fill('wrong password')
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(page.getByText('The current password is not correct.')).toBeVisible()
    await page.getByLabel('Your password').fill(member.password)
    await page.getByRole('button', { name: 'Continue' }).click()

    await expect(page.getByRole('img', { name: 'QR code of your authenticator key' })).toBeVisible()
    const key = (await page.getByTestId('factor-key').textContent()) ?? ''
    const code = page.getByLabel('The 6-digit code the app shows')
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code')
    await code.fill('12')
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect(
      page.getByText('Enter the 6-digit code from your authenticator, or a recovery code.'),
    ).toBeVisible()
    await code.fill(authenticatorOf(key).generate())
    await page.getByRole('button', { name: 'Confirm' }).click()

    await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible()
    await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10)
    await page.getByRole('button', { name: 'I have kept them: open the console' }).click()
    const log = page.getByTestId('audit-log')
    await expect(log.getByText('Set up the authenticator').first()).toBeVisible()
    await expect(log.getByText('Made an operator').first()).toBeVisible()
    await expect(log.getByText(member.email).first()).toBeVisible()
  })

  test.describe('for a member', () => {
    test.use({ allowedConsoleErrors: /status of 403/ })

    test('who opens /admin it says it is not for them', async ({ page, member: _ }) => {
      await page.goto('/admin')
      await expect(page.getByTestId('admin-refused')).toHaveText(
        'This is for the people who run Harmonize.',
      )
    })
  })
})
