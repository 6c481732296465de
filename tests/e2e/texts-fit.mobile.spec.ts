import type { Locator, Page } from '@playwright/test'
import { grantAccess } from './support/access'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expect, test } from './support/test'

// Long texts on a phone are shown whole, in English and Spanish: the header's title of a panel
// and of the session, and My Account's e-mail and summary rows (nothing cut short, no row
// overflowing). Pixel 7 (412 px), and 360 px, the narrowest common phone width.

test.use(ownClientAddress)

const LONG_EMAIL_LABEL = 'maximiliana.fernandez.delacruz'

/** Fails when any of the element's text is clipped (cut, or an ellipsis instead of its end). */
async function expectWhole(locator: Locator) {
  const box = await locator.evaluate((element) => ({
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
    scrollHeight: element.scrollHeight,
    clientHeight: element.clientHeight,
  }))
  expect(box.scrollWidth, 'text wider than its box').toBeLessThanOrEqual(box.clientWidth)
  expect(box.scrollHeight, 'text taller than its box').toBeLessThanOrEqual(box.clientHeight)
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }))
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
}

async function chooseSpanish(page: Page) {
  await page.getByLabel('Choose language').selectOption({ label: 'Español' })
  await expect(page.locator('html')).toHaveAttribute('lang', 'es')
}

for (const width of [412, 360]) {
  test.describe(`${width} px wide`, () => {
    test.use({ viewport: { width, height: 800 } })

    test('the header shows the whole title of a panel and of the session', async ({ page }) => {
      const user = await createUser(page.request)
      await signInAs(page, user)
      await grantAccess(page.request)
      const title = page.getByTestId('header-title')
      const header = page.locator('header')

      for (const [path, english, spanish] of [
        ['/panel-info/04', 'Morning Energy Panel', null],
        ['/harmonizing-screen/04', 'Harmonizing Screen', 'Pantalla de armonización'],
      ] as const) {
        await page.goto(path)
        await expect(title).toHaveText(english)
        await expectWhole(title)
        // The session page fills the screen below a 56 px bar; a taller bar would push it.
        expect((await header.boundingBox())?.height).toBe(56)
        if (spanish) {
          await chooseSpanish(page)
          await expect(title).toHaveText(spanish)
          await expectWhole(title)
          expect((await header.boundingBox())?.height).toBe(56)
          await page.getByLabel('Elegir idioma').selectOption({ label: 'English' })
          await expect(title).toHaveText(english)
        }
      }
      await expectNoSidewaysScroll(page)
    })

    test('My Account shows the whole e-mail, and every row fits, in Spanish too', async ({
      page,
    }) => {
      const user = await createUser(page.request, {
        name: 'Maximiliana Fernández de la Cruz',
        email: `${LONG_EMAIL_LABEL}-${Date.now().toString(36)}@example-longdomain.test`,
      })
      await signInAs(page, user)
      await page.goto('/my-account')
      const email = page.getByTestId('account-email')
      await expect(email).toHaveText(user.email)

      for (const language of ['en', 'es'] as const) {
        if (language === 'es') {
          await chooseSpanish(page)
          await expect(page.getByTestId('header-title')).toHaveText('Mi cuenta')
        }
        await expectWhole(email)
        await expectWhole(page.getByTestId('member-name'))
        await expectNoSidewaysScroll(page)
        // Every label, value and button of the summary stays inside its row, and none covers
        // another (the Spanish 'Cambiar contraseña' used to push into the password row).
        for (const row of await page.locator('dl > div').all()) {
          const rowBox = await row.boundingBox()
          const parts = await row.locator('dt, dd').all()
          const boxes = []
          for (const part of parts) {
            await expectWhole(part)
            const box = await part.boundingBox()
            if (!box || !rowBox) throw new Error('a summary row is not laid out')
            expect(box.x).toBeGreaterThanOrEqual(rowBox.x)
            expect(box.x + box.width).toBeLessThanOrEqual(rowBox.x + rowBox.width + 0.5)
            boxes.push(box)
          }
          for (const [i, a] of boxes.entries()) {
            for (const b of boxes.slice(i + 1)) {
              const apart =
                a.x + a.width <= b.x + 0.5 ||
                b.x + b.width <= a.x + 0.5 ||
                a.y + a.height <= b.y + 0.5 ||
                b.y + b.height <= a.y + 0.5
              expect(apart, 'two parts of a summary row overlap').toBe(true)
            }
          }
        }
      }
    })
  })
}
