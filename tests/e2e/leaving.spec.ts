import { readFileSync } from 'node:fs'
import { unzipSync } from 'fflate'
import { completeHumanCheck, createUser, ownClientAddress, signInAs } from './support/accounts'
import { expectAccessible } from './support/axe'
import { mailTo, waitForCode } from './support/mailbox'
import { expect, test } from './support/test'

// Leaving with one's data (issue 29): My Account's "Download my data" and "Delete my account",
// as a member does them, with the keyboard where a person would use it.

test.use(ownClientAddress)

test('download my data: the steps while it is prepared, then a link to a ZIP of it', async ({
  page,
}) => {
  const member = await createUser(undefined, { name: 'Dana Download' })
  await signInAs(page, member)
  // The page asks again every second while the file is prepared: its clock is held, so the
  // steps stay on screen until the test lets time pass.
  await page.clock.install()
  await page.goto('/my-account')
  const section = page.getByRole('region', { name: 'Your data' })
  await section.getByRole('button', { name: 'Download my data' }).click()

  await expect(section.getByText('Preparing your data…')).toBeVisible()
  await expect(section.getByRole('progressbar', { name: 'Preparing your data…' })).toBeVisible()
  await expect(section.getByRole('listitem')).toHaveText([
    /Your account/,
    /Your sessions/,
    /Your clients, their scans and photos/,
    /Your invoices/,
    /The ZIP file/,
  ])
  await expect(page.getByTestId('snackbar')).toContainText('We are preparing your data.')

  const link = section.getByRole('link', { name: /^Download the ZIP \(.+\)$/ })
  await expect
    .poll(
      async () => {
        await page.clock.runFor(1000)
        return link.isVisible()
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  await expect(
    section.getByText(/You can download it until .+ \d{4}; then it is deleted\./),
  ).toBeVisible()
  await expectAccessible(page)

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  expect(download.suggestedFilename()).toMatch(/^harmonize-data-\d{4}-\d{2}-\d{2}\.zip$/)
  const files = unzipSync(readFileSync(await download.path()))
  expect(Object.keys(files)).toEqual(
    expect.arrayContaining(['account.json', 'sessions.json', 'clients.json', 'billing.json']),
  )
  const account = JSON.parse(new TextDecoder().decode(files['account.json']))
  expect(account.account).toMatchObject({ email: member.email, name: 'Dana Download' })

  await expect
    .poll(async () => (await mailTo(member.email)).map((mail) => mail.subject))
    .toContain('Your Harmonize data is ready to download')
})

test.describe('delete my account', () => {
  // The wrong password is refused by the API with a 400, which Chromium logs.
  test.use({ allowedConsoleErrors: /the server responded with a status of 40[01]/ })

  test('asks for the password and the word, signs out, and the address can sign up again', async ({
    page,
  }) => {
    const member = await createUser(undefined, { name: 'Lee Leaving' })
    await signInAs(page, member)
    await page.goto('/my-account')
    const opener = page.getByRole('button', { name: 'Delete my account' })
    await opener.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Delete my account' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('Nothing more is charged')
    await expect(dialog).toContainText('Your invoices are kept for 6 years')
    await expectAccessible(page, 'delete dialog')

    // Escape closes it and gives the focus back to its button.
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(opener).toBeFocused()
    await page.keyboard.press('Enter')

    const submit = dialog.getByRole('button', { name: 'Delete my account for good' })
    await dialog.getByLabel('Your password', { exact: true }).fill('Not-Her-Password-1!')
    await expect(submit).toBeDisabled()
    await dialog.getByLabel('Type DELETE to confirm').fill('delete')
    await expect(submit).toBeEnabled()
    await submit.click()
    await expect(dialog.getByRole('alert')).toHaveText('The current password is not correct.')

    await dialog.getByLabel('Your password', { exact: true }).fill(member.password)
    await dialog.getByLabel('Your password', { exact: true }).press('Enter')
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByTestId('snackbar')).toHaveText(
      'Your account has been deleted. We sent you a confirmation by e-mail.',
    )
    await expect
      .poll(async () => (await mailTo(member.email)).map((mail) => mail.subject))
      .toContain('Your Harmonize account has been deleted')

    // Signed out: My Account asks to sign in, and the password no longer opens anything.
    await page.goto('/my-account')
    await expect(page).toHaveURL(/\/login/)
    await page.getByLabel('Email').fill(member.email)
    await page.getByLabel('Password', { exact: true }).fill(member.password)
    await completeHumanCheck(page)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page.getByRole('alert')).toHaveText('Incorrect username or password.')

    // The same address signs up again, as someone new.
    await page.goto('/signup')
    await page.getByLabel('Full name').fill('Lee Again')
    await page.getByLabel('Email').fill(member.email)
    await page.getByLabel('Password', { exact: true }).fill(member.password)
    await page.getByLabel('Confirm password', { exact: true }).fill(member.password)
    await completeHumanCheck(page)
    const mails = (await mailTo(member.email)).length
    await page.getByRole('button', { name: 'Register Account' }).click()
    await expect(page).toHaveURL(/\/signup-confirm$/)
    await page.getByLabel('Confirmation code').fill(await waitForCode(member.email, mails))
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    await expect(page).toHaveURL(/\/signed$/)
  })
})
