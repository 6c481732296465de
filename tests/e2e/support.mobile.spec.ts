import { expectAccessible } from './support/axe'
import { expect, test } from './support/test'

// Support on a phone (issue 12): the pages fit the screen, and the password dialog opens.

test.use({ viewport: { width: 390, height: 844 } })

async function expectNoSidewaysScroll(page: import('@playwright/test').Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBe(0)
}

test('on a phone, in both languages: support, send mail and mail sent fit the screen', async ({
  page,
  member: _,
}) => {
  // A long walk through several screens: about 40 s alone, over 60 s on a busy machine.
  test.setTimeout(120_000)
  for (const language of ['en', 'es'] as const) {
    await page.goto('/support')
    await page.getByTestId('language-select').selectOption(language)
    const heading = language === 'en' ? 'How can we help you?' : '¿Cómo podemos ayudarte?'
    await expect(page.getByRole('heading', { name: heading })).toBeVisible()
    await expectNoSidewaysScroll(page)
    await page.screenshot({
      path: test.info().outputPath(`support-${language}.png`),
      fullPage: true,
    })

    await page
      .getByRole('button', { name: language === 'en' ? /Change password/ : /Cambiar contraseña/ })
      .click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    await page.screenshot({ path: test.info().outputPath(`password-dialog-${language}.png`) })
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()

    await page
      .getByRole('link', { name: language === 'en' ? 'Send Email' : 'Enviar correo' })
      .click()
    await expect(page).toHaveURL(/\/send-mail$/)
    await page.getByLabel(language === 'en' ? 'Subject' : 'Asunto').fill(`Phone ${language}`)
    await page.getByLabel(language === 'en' ? 'Message' : 'Mensaje').fill('Written on a phone.')
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await page.screenshot({
      path: test.info().outputPath(`send-mail-${language}.png`),
      fullPage: true,
    })
    await page
      .getByRole('button', { name: language === 'en' ? 'Send Mail' : 'Enviar correo' })
      .click()

    await expect(page).toHaveURL(/\/mail-sent$/)
    await expect(
      page.getByText(
        language === 'en'
          ? 'We will contact you in 24 hours'
          : 'Nos pondremos en contacto contigo en 24 horas',
      ),
    ).toBeVisible()
    await expectNoSidewaysScroll(page)
    await page.screenshot({
      path: test.info().outputPath(`mail-sent-${language}.png`),
      fullPage: true,
    })
  }
})
