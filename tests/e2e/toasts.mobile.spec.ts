import type { Page } from '@playwright/test'
import type { Language } from '../../domain/i18n'
import { ownClientAddress } from './support/accounts'
import { expectAccessible } from './support/axe'
import { PNG } from './support/clients'
import { pageSettled } from './support/every-page'
import { expect, test } from './support/test'

// On a phone a toast never covers the header, nor a button, link or field the member could see
// and press before it came: it is a row under the header, not a layer over the page. Checked
// with the page at its top and scrolled to its end, at 390 and 320 px, in English and Spanish.

test.use(ownClientAddress)

const TOAST = {
  en: {
    picture: 'Your picture has been updated.',
    offline: 'Sorry, it seems that you are offline',
  },
  es: {
    picture: 'Tu foto se ha actualizado.',
    offline: 'Lo sentimos, parece que no tienes conexión',
  },
} satisfies Record<Language, Record<string, string>>

const CONTROLS =
  'button, a[href], input, select, textarea, summary, [role="button"], [role="link"], [role="radio"], [role="checkbox"], [role="switch"], [tabindex="0"]'

/**
 * Marks the controls on screen now, wholly below the header (what the member can see and
 * press), so that the check after the toast came compares the toast with those. Called once
 * the page has settled: a section still loading (the redeem box waits for the access answer,
 * the leaving section for its code) would leave nothing to mark, or marks on what is replaced.
 */
async function markControlsOnScreen(page: Page) {
  await pageSettled(page)
  const marked = await page.evaluate((selector) => {
    const header = document.querySelector('header')?.getBoundingClientRect()
    if (!header) throw new Error('no header')
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const box = element.getBoundingClientRect()
      const style = getComputedStyle(element)
      // Visually hidden inputs (a card's radio, a file input behind its button) are 1 px or none.
      const shown =
        box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && style.opacity !== '0'
      const onScreen = box.top >= header.bottom && box.bottom <= window.innerHeight
      if (shown && onScreen && !element.closest('header')) element.dataset.onScreen = ''
    }
    return document.querySelectorAll('[data-on-screen]').length
  }, CONTROLS)
  expect(marked, 'controls on screen before the toast').toBeGreaterThan(0)
}

interface Box {
  top: number
  bottom: number
  left: number
  right: number
}
const apart = (a: Box, b: Box) =>
  a.bottom <= b.top + 0.5 ||
  b.bottom <= a.top + 0.5 ||
  a.right <= b.left + 0.5 ||
  b.right <= a.left + 0.5

async function expectToastClear(page: Page, text: string) {
  const toast = page.getByTestId('snackbar')
  await expect(toast).toHaveText(text)
  const { toastBox, headerBox, controls } = await page.evaluate(() => {
    const box = (element: Element) => {
      const { top, bottom, left, right } = element.getBoundingClientRect()
      return { top, bottom, left, right }
    }
    const toast = document.querySelector('[data-testid="snackbar"]')
    const header = document.querySelector('header')
    if (!toast || !header) throw new Error('no toast or no header')
    return {
      toastBox: box(toast),
      headerBox: box(header),
      controls: [...document.querySelectorAll<HTMLElement>('[data-on-screen]')].map((element) => ({
        name: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`,
        box: box(element),
      })),
    }
  })
  // Offline, a link that needs the network becomes a disabled button (a new element, unmarked);
  // the fields and buttons around it stay.
  expect(controls.length, 'controls on screen to compare with').toBeGreaterThan(0)
  expect(toastBox.top, 'the toast starts below the header').toBeGreaterThanOrEqual(
    headerBox.bottom - 0.5,
  )
  const covered = controls.filter(({ box }) => !apart(box, toastBox)).map(({ name }) => name)
  expect(covered, `controls under the toast "${text}"`).toEqual([])
  // And the toast is on screen at all.
  expect(toastBox.bottom).toBeLessThanOrEqual(page.viewportSize()?.height ?? 0)
}

for (const { width, height } of [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
]) {
  for (const [language, locale] of [
    ['en', 'en-US'],
    ['es', 'es-ES'],
  ] as const) {
    test.describe(`${width}×${height}, ${language}`, () => {
      test.use({
        viewport: { width, height },
        locale,
        memberOptions: { language },
      })

      test('a toast at the top of My Account covers neither the header nor a button', async ({
        page,
        member: _,
      }) => {
        await page.goto('/my-account')
        await expect(page.getByTestId('plan-summary')).toBeVisible()
        await markControlsOnScreen(page)
        await page
          .getByTestId('avatar-file-input')
          .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG })
        await expectToastClear(page, TOAST[language].picture)
        await expectAccessible(page, 'My Account with a toast')
      })

      test.describe('offline', () => {
        // What the page asks for while offline fails, as the browser reports (the service worker's
        // update check too).
        test.use({
          allowedConsoleErrors:
            /ERR_INTERNET_DISCONNECTED|Failed to fetch|error occurred when fetching the script/,
        })

        test('a toast raised with the page scrolled to its end covers no button either', async ({
          page,
          context,
          member: _,
        }) => {
          await page.goto('/my-account')
          await pageSettled(page)
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
          await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
          await markControlsOnScreen(page)
          await context.setOffline(true)
          await expectToastClear(page, TOAST[language].offline)
          await context.setOffline(false)
          await expect(page.getByTestId('snackbar')).toHaveCount(0)
        })
      })
    })
  }
}
