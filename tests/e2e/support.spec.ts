import { randomBytes } from 'node:crypto'
import { expectAccessible } from './support/axe'
import { type Mail, mailTo } from './support/mailbox'
import { expect, test } from './support/test'

// Support (issue 12): the help page, writing to the support team and the page after it, with
// the message read from the harness's SMTP server as the team and the member receive it.

/** The e2e server leaves SUPPORT_EMAIL at its default. */
const SUPPORT_EMAIL = 'support@harmonize.local'

/** What the harness's SMTP server keeps beyond `Mail`: the message as it arrived. */
type RawMail = Mail & { raw: string }

/** The one message to `address` with this subject, once it has arrived. */
async function delivered(address: string, subject: string): Promise<RawMail> {
  let found: RawMail | undefined
  await expect
    .poll(
      async () => {
        const messages = (await mailTo(address)) as RawMail[]
        found = messages.find((message) => message.subject === subject)
        return Boolean(found)
      },
      { message: `"${subject}" delivered to ${address}`, timeout: 20_000 },
    )
    .toBe(true)
  if (!found) throw new Error('unreachable')
  return found
}

function replyTo(mail: RawMail): string {
  const head = mail.raw.replace(/\r\n/g, '\n').split('\n\n')[0] ?? ''
  return (
    head
      .replace(/\n[ \t]+/g, ' ')
      .split('\n')
      .find((line) => /^reply-to:/i.test(line)) ?? ''
  )
}

test.describe('in English', () => {
  test.use({ memberOptions: { name: 'Eve Helpwanted' } })

  test('support page, send mail, mail sent: the team and the member get it', async ({
    page,
    member,
  }) => {
    await page.goto('/support')
    await expect(page.getByTestId('header-title')).toHaveText('Support')
    await expect(page.getByRole('heading', { name: 'How can we help you?' })).toBeVisible()
    await expect(page.getByRole('link', { name: /Can't remember login details/ })).toHaveAttribute(
      'href',
      '/my-account',
    )
    await expect(
      page.getByRole('main').getByRole('link', { name: /^Privacy Policy/ }),
    ).toHaveAttribute('href', '/privacy-policy')
    await expect(
      page.getByText('Write to us: a person from our team answers every e-mail within 24 hours.'),
    ).toBeVisible()
    await expectAccessible(page)
    await page.screenshot({ path: test.info().outputPath('support.png'), fullPage: true })

    // The password dialog of My Account, opened from here.
    await page.getByRole('button', { name: /Change password/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Change password' })
    await expect(dialog.getByLabel('Current password')).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()

    await page.getByRole('link', { name: 'Send Email' }).click()
    await expect(page).toHaveURL(/\/send-mail$/)
    await expect(page.getByTestId('header-title')).toHaveText('Send Email')
    await expect(page.getByText(`We will answer at ${member.email}.`)).toBeVisible()
    const send = page.getByRole('button', { name: 'Send Mail' })
    await expect(send).toBeDisabled()
    const subject = `Where is my invoice? ${randomBytes(4).toString('hex')}`
    await page.getByLabel('Subject').fill(subject)
    await expect(send).toBeDisabled()
    await page.getByLabel('Message').fill('   ')
    await expect(send).toBeDisabled()
    await page.getByLabel('Message').fill('I paid yesterday.\nThe invoice is not in my history.')
    await expect(send).toBeEnabled()
    await expectAccessible(page)
    await page.screenshot({ path: test.info().outputPath('send-mail.png'), fullPage: true })

    await send.click()
    await expect(page).toHaveURL(/\/mail-sent$/)
    await expect(page.getByTestId('header-title')).toHaveText('Mail Sent')
    await expect(page.getByRole('heading', { name: 'Mail sent successfully' })).toBeVisible()
    await expect(page.getByText('We will contact you in 24 hours')).toBeVisible()
    await expectAccessible(page)
    await page.screenshot({ path: test.info().outputPath('mail-sent.png'), fullPage: true })

    const toTeam = await delivered(SUPPORT_EMAIL, subject)
    expect(toTeam.text).toMatch(
      /^Name: Eve Helpwanted\nE-mail: \S+\nLanguage: en\nAccount: \S+\n\nI paid yesterday\.\nThe invoice is not in my history\./,
    )
    expect(toTeam.text).toContain(`E-mail: ${member.email}\n`)
    expect(replyTo(toTeam)).toContain(`<${member.email}>`)
    const copy = await delivered(member.email, `We received your message: ${subject}`)
    expect(copy.text).toContain('within 24 hours')
    expect(copy.text).toContain('    I paid yesterday.')

    await page.getByRole('button', { name: 'Go to Home' }).click()
    await expect(page).not.toHaveURL(/\/mail-sent$/)
    await expect(page.getByTestId('header-title')).not.toHaveText('Mail Sent')
  })

  test("'Can't remember login details' leads to My Account", async ({ page, member }) => {
    await page.goto('/support')
    await page.getByRole('link', { name: /Can't remember login details/ }).click()
    await expect(page).toHaveURL(/\/my-account$/)
    await expect(page.getByTestId('account-email')).toHaveText(member.email)
  })

  test('a refused message stays on the form with the reason', async ({ page, member: _ }) => {
    await page.goto('/send-mail')
    await page.getByLabel('Subject').fill('x'.repeat(151))
    await page.getByLabel('Message').fill('Hello')
    await page.getByRole('button', { name: 'Send Mail' }).click()
    await expect(page.getByText('The subject can be up to 150 characters long.')).toBeVisible()
    await expect(page).toHaveURL(/\/send-mail$/)
  })
})

test.describe('in Spanish', () => {
  test.use({ memberOptions: { name: 'Lucía Ayuda', language: 'es' } })

  test('the same way through, and the copy comes in Spanish', async ({ page, member }) => {
    await page.goto('/support')
    await page.getByTestId('language-select').selectOption('es')
    await expect(page.getByRole('heading', { name: '¿Cómo podemos ayudarte?' })).toBeVisible()
    await expect(page.getByRole('link', { name: /No recuerdo mis datos de acceso/ })).toBeVisible()
    await expect(page.getByRole('button', { name: /Cambiar contraseña/ })).toBeVisible()
    await expect(
      page.getByRole('main').getByRole('link', { name: /^Política de privacidad/ }),
    ).toBeVisible()
    await expect(page.getByText(/responde a cada correo en menos de 24 horas/)).toBeVisible()

    await page.getByRole('link', { name: 'Enviar correo' }).click()
    await expect(page).toHaveURL(/\/send-mail$/)
    const send = page.getByRole('button', { name: 'Enviar correo' })
    await expect(send).toBeDisabled()
    await expect(
      page.getByText('Escribe el asunto y el mensaje para poder enviarlos.'),
    ).toBeVisible()
    const subject = `No encuentro mi factura ${randomBytes(4).toString('hex')}`
    await page.getByLabel('Asunto').fill(subject)
    await page.getByLabel('Mensaje').fill('Pagué ayer y la factura no aparece.')
    await send.click()

    await expect(page).toHaveURL(/\/mail-sent$/)
    await expect(page.getByRole('heading', { name: 'Correo enviado correctamente' })).toBeVisible()
    await expect(page.getByText('Nos pondremos en contacto contigo en 24 horas')).toBeVisible()
    await page.screenshot({ path: test.info().outputPath('correo-enviado.png'), fullPage: true })

    const toTeam = await delivered(SUPPORT_EMAIL, subject)
    expect(toTeam.text).toMatch(/^Name: Lucía Ayuda\n/)
    expect(toTeam.text).toContain('Language: es')
    const copy = await delivered(member.email, `Hemos recibido tu mensaje: ${subject}`)
    expect(copy.text).toMatch(/^Hola, Lucía Ayuda:/)
    expect(copy.text).toContain('    Pagué ayer y la factura no aparece.')

    await page.getByRole('button', { name: 'Ir al inicio' }).click()
    await expect(page).not.toHaveURL(/\/mail-sent$/)
  })
})
