import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expect, test } from './support/test'

test.use(ownClientAddress)

test('on a phone the card form fits the width, in Spanish too', async ({ page }) => {
  const member = await createUser(undefined, { language: 'es' })
  await signInAs(page, member)
  for (const language of ['en', 'es'] as const) {
    await page.goto('/my-account/add-credit-card')
    await page.getByTestId('language-select').selectOption(language)
    const heading = language === 'en' ? 'Add Credit Card' : 'Añadir tarjeta de crédito'
    await expect(page.getByRole('heading', { name: heading })).toBeVisible()
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBe(0)
    await page.screenshot({
      path: test.info().outputPath(`card-form-${language}.png`),
      fullPage: true,
    })
  }
})
