import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expect, test } from './support/test'

test.use(ownClientAddress)

const TEXTS = {
  en: {
    section: 'Your data',
    download: 'Download my data',
    preparing: 'Preparing your data…',
    ready: /^Download the ZIP/,
    delete: 'Delete my account',
    word: 'Type DELETE to confirm',
  },
  es: {
    section: 'Tus datos',
    download: 'Descargar mis datos',
    preparing: 'Preparando tus datos…',
    ready: /^Descargar el ZIP/,
    delete: 'Eliminar mi cuenta',
    word: 'Escribe ELIMINAR para confirmar',
  },
} as const

const overflow = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

for (const language of ['en', 'es'] as const) {
  test(`on a phone "${TEXTS[language].section}" and its dialog fit the width (${language})`, async ({
    page,
  }) => {
    const texts = TEXTS[language]
    const member = await createUser(undefined, { language })
    await signInAs(page, member)
    await page.clock.install()
    await page.goto('/my-account')
    await page.getByTestId('language-select').selectOption(language)
    const section = page.getByRole('region', { name: texts.section })
    await section.getByRole('button', { name: texts.download }).click()
    await expect(section.getByText(texts.preparing)).toBeVisible()
    await section.scrollIntoViewIfNeeded()
    expect(await overflow(page)).toBe(0)
    await section.screenshot({ path: test.info().outputPath(`data-preparing-${language}.png`) })

    const link = section.getByRole('link', { name: texts.ready })
    await expect
      .poll(
        async () => {
          await page.clock.runFor(1000)
          return link.isVisible()
        },
        { timeout: 30_000 },
      )
      .toBe(true)
    expect(await overflow(page)).toBe(0)
    await section.screenshot({ path: test.info().outputPath(`data-ready-${language}.png`) })

    await section.getByRole('button', { name: texts.delete }).click()
    const dialog = page.getByRole('dialog', { name: texts.delete })
    await expect(dialog.getByLabel(texts.word)).toBeVisible()
    // Full screen on a phone: nothing of it is cut off sideways.
    const box = await dialog.boundingBox()
    expect(box?.width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0)
    await page.screenshot({ path: test.info().outputPath(`delete-dialog-${language}.png`) })
  })
}
