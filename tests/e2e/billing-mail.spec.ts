import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expectAccessible } from './support/axe'
import { advance, saveCard, startFromMyAccount } from './support/billing'
import { mailTo } from './support/mailbox'
import { expect, test } from './support/test'

// The billing mail a member asks for on My Account, sent as the sandbox's clock passes its
// moment (`billing advance`), and delivered by SMTP.

test.use(ownClientAddress)

test('the reminder before each monthly payment is off until ticked; ticked, it is mailed 3 days before the renewal', async ({
  page,
}) => {
  const member = await createUser()
  await signInAs(page, member)
  await saveCard(page, '4242 4242 4242 4242')
  await startFromMyAccount(page, /^SUBSCRIPTION/)
  const summary = page.getByTestId('plan-summary')
  const box = summary.getByRole('checkbox', {
    name: 'E-mail me 3 days before each monthly payment',
  })
  await expect(box).not.toBeChecked()
  await expectAccessible(page)

  // With the keyboard, as any setting.
  await box.focus()
  await page.keyboard.press('Space')
  await expect(box).toBeChecked()
  await expect(box).toBeEnabled()
  // Saved, and the keyboard is still where it was.
  await expect(box).toBeFocused()
  await page.reload()
  await expect(box).toBeChecked()

  await advance(member.email, 31)
  await expect
    .poll(async () => (await mailTo(member.email)).map((mail) => mail.subject), {
      timeout: 30_000,
    })
    .toContainEqual(expect.stringMatching(/^Your next Harmonize payment, US\$15\.00, is on /))
  const reminder = (await mailTo(member.email)).find((mail) =>
    mail.subject.startsWith('Your next Harmonize payment'),
  )
  expect(reminder?.text).toContain('/my-account')
})
