import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { MEDIA_PART_BYTES } from '../../domain/media-uploads'
import type { TestUser } from '../support/factories'
import { makeWebmHeader } from '../support/media'
import { expectPanelsLocked, expectPanelsOpen } from './support/access'
import { completeHumanCheck, createUser, ownClientAddress, signInAs } from './support/accounts'
import { advance, saveCard, startFromMyAccount } from './support/billing'
import { addSessionCookies, harness } from './support/harness'
import { expect, test } from './support/test'

// The operator's console at /admin: the second factor first (ADR 0029), then the members and the
// audit log.

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
    await expect(page.getByTestId('overview')).toBeVisible()
    await page.getByRole('link', { name: 'Audit log' }).click()
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

/** Makes `operator` an operator and passes the second factor in `page`, as a first visit does. */
async function openConsole(page: Page, operator: TestUser) {
  await harness('operator', { email: operator.email })
  await page.goto('/admin')
  await page.getByRole('button', { name: 'Set up my authenticator' }).click()
  await page.getByLabel('Your password').fill(operator.password)
  await page.getByRole('button', { name: 'Continue' }).click()
  const key = (await page.getByTestId('factor-key').textContent()) ?? ''
  await page.getByLabel('The 6-digit code the app shows').fill(authenticatorOf(key).generate())
  await page.getByRole('button', { name: 'Confirm' }).click()
  await page.getByRole('button', { name: 'I have kept them: open the console' }).click()
  await expect(page.getByTestId('overview')).toBeVisible()
}

test('an operator finds a member without access and grants complimentary access: the member’s panels open', async ({
  page,
  member: operator,
  browser,
}) => {
  const { user: member, session } = await harness('user', { name: 'Rosa Lemaître' })
  if (!session) throw new Error('no session')
  const memberContext = await browser.newContext()
  await addSessionCookies(memberContext, session)
  const memberPage = await memberContext.newPage()
  await memberPage.goto('/home')
  await expectPanelsLocked(memberPage)

  await openConsole(page, operator)
  await page.getByRole('link', { name: 'Members', exact: true }).click()
  // By part of the name, and only those without access.
  await page.getByLabel('E-mail or name').fill('lemaître')
  await page.getByLabel('Access', { exact: true }).selectOption({ label: 'No access' })
  // The list follows the search once typing pauses; the address keeps it.
  await expect(page).toHaveURL(/[?&]q=lema%C3%AEtre/)
  const found = page.getByTestId('members').getByRole('link', { name: member.email })
  await expect(found).toBeVisible()
  await found.click()
  await expect(page.getByTestId('member-email')).toHaveText(member.email)
  await expect(page.getByTestId('member-access')).toHaveText('No access')

  await page.getByRole('button', { name: 'Grant complimentary access' }).click()
  const dialog = page.getByRole('dialog', { name: 'Grant complimentary access' })
  await dialog.getByRole('button', { name: 'Grant access' }).click()
  await expect(dialog.getByText('Say why, in a few words: the audit log keeps it.')).toBeVisible()
  await dialog.getByLabel('Reason').fill('Renewal failed while travelling')
  await expect(dialog.getByTestId('grant-effect')).toHaveText(
    `${member.email} will be able to play sessions until an operator ends it, whatever their plan or payments say.`,
  )
  await dialog.getByRole('button', { name: 'Grant access' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('member-access')).toHaveText('Yes, through: Complimentary access')
  await expect(
    page.getByTestId('audit-log').getByText('Granted complimentary access'),
  ).toBeVisible()
  await expect(page.getByText('Renewal failed while travelling').first()).toBeVisible()
  // The log says what changed in words, not as data.
  await expect(page.getByTestId('audit-before').first()).toHaveText('Complimentary access: —')
  await expect(page.getByTestId('audit-after').first()).toHaveText('Complimentary access: ends: —')

  // The member's own page, opened again, lets them play.
  await memberPage.reload()
  await expectPanelsOpen(memberPage)

  // Back to the list as it was: the search and the filter are still there.
  await page.getByRole('link', { name: 'Members' }).first().click()
  await expect(page.getByLabel('E-mail or name')).toHaveValue('lemaître')
  await expect(page.getByTestId('members').getByRole('link', { name: member.email })).toHaveCount(0)
  await memberContext.close()
})

test.describe('a failed renewal', () => {
  // Card tries are counted per address: this member's come from a visitor of their own.
  test.use(ownClientAddress)

  test('an operator finds the member whose renewal failed, refunds their last payment and grants complimentary access: the member’s /home opens', async ({
    page,
    member: operator,
    browser,
  }) => {
    const member = await createUser(undefined, { name: 'Tomás Renewal' })
    const memberContext = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '10.250.0.7' },
    })
    const memberPage = await memberContext.newPage()
    await signInAs(memberPage, member)
    await saveCard(memberPage, '4242 4242 4242 4242')
    await startFromMyAccount(memberPage, /SUBSCRIPTION/)
    // This card is saved, but its bank refuses every charge: the renewal fails.
    await saveCard(memberPage, '4000 0000 0000 0341')
    await memberPage
      .getByTestId('saved-cards')
      .getByRole('listitem')
      .filter({ hasText: '0341' })
      .getByRole('button', { name: 'Make default' })
      .click()
    await expect(
      memberPage.getByTestId('saved-cards').getByRole('listitem').filter({ hasText: '0341' }),
    ).toContainText('Default')
    await advance(member.email, 31)
    await expect
      .poll(
        async () =>
          (await (await memberPage.request.get('/api/billing/plan')).json()).paymentFailed,
        { timeout: 30_000 },
      )
      .toBe(true)
    // While the card is tried again, the panels stay open.
    await memberPage.goto('/home')
    await expectPanelsOpen(memberPage)

    await openConsole(page, operator)
    await page.getByRole('link', { name: 'See these members' }).click()
    await expect(page.getByLabel('Plan status')).toHaveValue('past_due')
    await page.getByLabel('E-mail or name').fill(member.email)
    await page.getByTestId('members').getByRole('link', { name: member.email }).click()
    await expect(page.getByTestId('member-email')).toHaveText(member.email)

    // The renewal's invoice is open; the first month's is paid, and is the one to refund.
    const invoices = page.getByTestId('member-invoices').getByRole('listitem')
    await expect(invoices).toHaveCount(2)
    const paid = invoices.filter({ hasText: 'Paid' })
    await paid.getByRole('button', { name: /^Refund invoice / }).click()
    const dialog = page.getByRole('dialog', { name: /^Refund invoice / })
    await expect(dialog.getByLabel('Amount to give back (USD)')).toHaveValue('15.00')
    await dialog.getByLabel('Reason').fill('Charged while the app would not play')
    await expect(dialog.getByTestId('action-effect')).toContainText(
      `US$15.00 goes back to the card that paid this invoice; the bank shows it to ${member.email}`,
    )
    await page.screenshot({ path: test.info().outputPath('refund-dialog.png') })
    await dialog.getByRole('button', { name: 'Give it back' }).click()
    await expect(page.getByText('Refund made: US$15.00.')).toBeVisible()
    await expect(dialog).toHaveCount(0)
    await expect(paid.getByTestId('member-invoice-refunded')).toHaveText('US$15.00 refunded')
    await expect(paid.getByRole('button', { name: /^Refund invoice / })).toHaveCount(0)
    await expect(page.getByTestId('audit-log').getByText('Refunded a payment')).toBeVisible()
    await page.screenshot({ path: test.info().outputPath('refunded.png'), fullPage: true })

    await page.getByRole('button', { name: 'Grant complimentary access' }).click()
    const grant = page.getByRole('dialog', { name: 'Grant complimentary access' })
    await grant.getByLabel('Reason').fill('Renewal failed; refunded and given access meanwhile')
    await grant.getByRole('button', { name: 'Grant access' }).click()
    await expect(grant).toHaveCount(0)
    await expect(page.getByTestId('member-access')).toHaveText('Yes, through: Complimentary access')

    await memberPage.goto('/home')
    await expectPanelsOpen(memberPage)
    // The member sees the money that came back on their own invoice history.
    await memberPage.goto('/billing-history')
    await expect(memberPage.getByTestId('invoice-refunded')).toHaveText('Refunded in full')
    await memberContext.close()
  })
})

test.describe('media', () => {
  // The part the test drops on purpose is logged by the browser as a reset connection.
  test.use({ allowedConsoleErrors: /ERR_CONNECTION_RESET/ })

  test('an operator uploads a panel’s video in parts and sees its progress; an upload stopped keeps nothing, a part lost on the way is sent again', async ({
    page,
    member: operator,
  }) => {
    // A panel lent to this test alone, holding one file of this name, which the upload replaces.
    const name = `console-${randomBytes(4).toString('hex')}.webm`
    const { lease, panelId } = await harness('media', {
      files: [{ name, base64: makeWebmHeader(100).toString('base64') }],
    })
    try {
      await openConsole(page, operator)
      await page.getByRole('link', { name: 'Media' }).click()
      const row = page.getByTestId('media-list').getByRole('listitem').filter({ hasText: name })
      await expect(row).toContainText('136 byte')

      // Two parts: the second is held at the server's door, so the upload shows its progress
      // after the first, and can be stopped.
      const video = makeWebmHeader(MEDIA_PART_BYTES + 400_000)
      let secondPart: 'hold' | 'drop' | 'pass' = 'hold'
      let letThrough = () => {}
      const held = new Promise<void>((resolve) => {
        letThrough = resolve
      })
      await page.route('**/api/admin/media/uploads/*/parts/1', async (route) => {
        if (secondPart === 'hold') await held
        if (secondPart === 'drop') {
          // The link drops once: the page sends the part again by itself.
          secondPart = 'pass'
          return route.abort('connectionreset')
        }
        await route.continue().catch(() => undefined)
      })
      await page.getByLabel('File').setInputFiles({ name, mimeType: 'video/webm', buffer: video })
      await expect(
        page.getByText(/A video \(4\.6 MB\): choose the panel that plays it\./),
      ).toBeVisible()
      await page.getByLabel('Panel').selectOption(panelId)
      await page.getByRole('button', { name: 'Upload' }).click()
      const progress = page.getByTestId('upload-progress')
      await expect(progress.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible()
      await expect(progress).toContainText(/\d+% — \d\.\d MB of 4\.6 MB/)
      await page.screenshot({ path: test.info().outputPath('media-uploading.png') })
      await page.getByRole('button', { name: 'Stop the upload' }).click()
      await expect(page.getByText('Upload stopped: nothing was kept.')).toBeVisible()
      await expect(progress).toHaveCount(0)
      await expect(row).toContainText('136 byte')

      // Sent again, its second part lost once on the way, it is put together (which cannot be
      // stopped) and replaces the file on that panel.
      secondPart = 'drop'
      letThrough()
      let finish = () => {}
      const finishing = new Promise<void>((resolve) => {
        finish = resolve
      })
      await page.route('**/api/admin/media/uploads/*/complete', async (route) => {
        await finishing
        await route.continue()
      })
      await page.getByLabel('File').setInputFiles({ name, mimeType: 'video/webm', buffer: video })
      await page.getByLabel('Panel').selectOption(panelId)
      await page.getByRole('button', { name: 'Upload' }).click()
      await expect(progress).toContainText('Putting the file together…')
      await expect(page.getByRole('button', { name: 'Stop the upload' })).toHaveCount(0)
      finish()
      await expect(page.getByText(`${name} is uploaded.`)).toBeVisible()
      await expect(progress).toHaveCount(0)
      await expect(row).toContainText('4.6 MB')
      await expect(row).toContainText('Video')
      await page.getByRole('link', { name: 'Audit log' }).click()
      await expect(
        page.getByTestId('audit-log').getByText('Uploaded a media file').first(),
      ).toBeVisible()
    } finally {
      await harness('media-release', { lease })
    }
  })
})

test.describe('blocking', () => {
  // The blocked member's sign-in is refused (403), as it should be.
  test.use({ allowedConsoleErrors: /status of 403/ })

  test('an operator blocks a member: signed out at once, told why at sign-in; unblocked, they sign in', async ({
    page,
    member: operator,
    browser,
  }) => {
    const { user: member, session } = await harness('user', { access: true })
    if (!session) throw new Error('no session')
    const memberContext = await browser.newContext()
    await addSessionCookies(memberContext, session)
    const memberPage = await memberContext.newPage()
    await memberPage.goto('/home')
    await expectPanelsOpen(memberPage)

    await openConsole(page, operator)
    await page.goto(`/admin?view=members&q=${encodeURIComponent(member.email)}`)
    await page.getByTestId('members').getByRole('link', { name: member.email }).click()
    await page.getByRole('button', { name: 'Block account' }).click()
    const dialog = page.getByRole('dialog', { name: 'Block account' })
    await expect(dialog.getByTestId('action-effect')).toHaveText(
      `${member.email} will be signed out on every device and will not be able to sign in until an operator unblocks the account. Their plan is not changed.`,
    )
    await dialog.getByLabel('Reason').fill('Card testing from this account')
    await dialog.getByRole('button', { name: 'Block', exact: true }).click()
    await expect(dialog).toHaveCount(0)
    await expect(page.getByTestId('member-blocked')).toContainText('Card testing from this account')

    // The member's next page finds no session; signing in says why, and no more.
    await memberPage.reload()
    await expect(memberPage).toHaveURL(/\/login$/)
    await memberPage.getByLabel('Email').fill(member.email)
    await memberPage.getByLabel('Password', { exact: true }).fill(member.password)
    await completeHumanCheck(memberPage)
    await memberPage.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(
      memberPage.getByText(
        'This account has been blocked. If you think this is a mistake, write to our support team.',
      ),
    ).toBeVisible()

    await page.getByRole('button', { name: 'Unblock account' }).click()
    const unblock = page.getByRole('dialog', { name: 'Unblock account' })
    await unblock.getByLabel('Reason').fill('The bank confirmed the cards')
    await unblock.getByRole('button', { name: 'Unblock', exact: true }).click()
    await expect(page.getByTestId('member-blocked')).toHaveCount(0)
    await expect(page.getByTestId('audit-log').getByText('Unblocked the account')).toBeVisible()

    await completeHumanCheck(memberPage)
    await memberPage.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(memberPage).toHaveURL(/\/home$/)
    await memberContext.close()
  })
})

test('an operator makes access codes with a note, finds them by it, and revokes one', async ({
  page,
  member: operator,
}) => {
  await openConsole(page, operator)
  await page.getByRole('link', { name: 'Codes', exact: true }).click()
  await page.getByLabel('How many').fill('600')
  await page.getByRole('button', { name: 'Make codes' }).click()
  await expect(page.getByText('Enter a number from 1 to 500.')).toBeVisible()
  const note = `Retreat ${Date.now()}`
  await page.getByLabel('How many').fill('2')
  await page.getByLabel('Note (optional)').fill(note)
  await page.getByRole('button', { name: 'Make codes' }).click()
  await expect(page.getByText('2 new codes: give them out as they are.')).toBeVisible()
  const made = await page.getByTestId('made-codes').getByRole('listitem').allTextContents()
  expect(made).toHaveLength(2)
  // Found among everyone's codes by their note.
  await page.getByLabel('Find a code').fill(note)
  await expect(page.getByTestId('codes').getByRole('listitem')).toHaveCount(2)
  await page.getByLabel('Find a code').fill(`${note}-none`)
  await expect(page.getByText('No code matches this search.')).toBeVisible()
  await page.getByLabel('Find a code').fill(made[0] ?? '')

  const row = page
    .getByTestId('codes')
    .getByRole('listitem')
    .filter({ hasText: made[0] ?? '' })
  await expect(row).toContainText('Not used yet')
  await expect(row).toContainText(note)
  await row.getByRole('button', { name: 'Revoke' }).click()
  const dialog = page.getByRole('dialog', { name: 'Revoke this code' })
  await expect(dialog).toContainText(`${made[0]} will no longer work for anyone.`)
  await dialog.getByRole('button', { name: 'Revoke the code' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(row).toContainText('Revoked')
  await expect(row.getByRole('button', { name: 'Revoke' })).toHaveCount(0)
})

test.describe('prices', () => {
  // The refused price is answered 400, as it should be.
  test.use({ allowedConsoleErrors: /status of 400/ })

  test('an operator sees the prices on sale, and a price the gateway cannot sell is refused in place', async ({
    page,
    member: operator,
  }) => {
    // Putting a price on sale is tested against the server (admin.int.test.ts): here it would
    // offer every member of the shared test server a new plan while other tests run.
    await openConsole(page, operator)
    await page.getByRole('link', { name: 'Prices', exact: true }).click()
    const prices = page.getByTestId('prices').getByRole('listitem')
    await expect(prices.filter({ hasText: 'On sale' }).first()).toBeVisible()
    await page.getByLabel('Name').fill('Spring!')
    await page.getByLabel('Amount (USD)').fill('twenty')
    await page.getByRole('button', { name: 'Put on sale' }).click()
    await expect(page.getByText('Enter an amount such as 49 or 49.50.')).toBeVisible()
    await page.getByLabel('Amount (USD)').fill('25')
    await page.getByRole('button', { name: 'Put on sale' }).click()
    // The server's own word on the name, under the field.
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
  })
})

test('an operator signed in afresh finds the console in the menu; a member does not', async ({
  page,
  member: operator,
  browser,
}) => {
  await page.goto('/home')
  await page.getByRole('button', { name: 'Open menu' }).click()
  await expect(
    page.getByTestId('side-menu').getByRole('link', { name: 'My Account' }),
  ).toBeVisible()
  await expect(page.getByTestId('side-menu').getByRole('link', { name: 'Console' })).toHaveCount(0)

  await harness('operator', { email: operator.email })
  const context = await browser.newContext()
  await signInAs(context, operator)
  const operatorPage = await context.newPage()
  await operatorPage.goto('/home')
  await operatorPage.getByRole('button', { name: 'Open menu' }).click()
  await operatorPage.getByTestId('side-menu').getByRole('link', { name: 'Console' }).click()
  await expect(operatorPage).toHaveURL(/\/admin$/)
  await expect(
    operatorPage.getByRole('heading', { name: 'Protect the console with your phone' }),
  ).toBeVisible()
  await context.close()
})
