import type { Page } from '@playwright/test'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expect, test } from './support/test'

// What a new member tripped over on the session screen, each with the check that would have
// caught it: full screen that could not be left and hid the countdown, and offline first that
// only held for panels already opened.

test.use(ownClientAddress)

const TEXTS = {
  en: {
    locale: 'en-US',
    enter: 'Click To View full Screen',
    leave: 'Click To Exit full Screen',
    play: 'Play',
    stop: 'Stop',
    harmonize: 'Start harmonizing',
    offline: 'Sorry, it seems that you are offline',
    panelTitle: (name: string) => `${name} Panel`,
  },
  es: {
    locale: 'es-ES',
    enter: 'Haz clic para ver a pantalla completa',
    leave: 'Haz clic para salir de pantalla completa',
    play: 'Reproducir',
    stop: 'Detener',
    harmonize: 'Empezar a armonizar',
    offline: 'Lo sentimos, parece que no tienes conexión',
    panelTitle: (name: string) => `Panel ${name}`,
  },
} as const

type Language = keyof typeof TEXTS

const fullScreenElement = (page: Page) =>
  page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? null)

/** The panels' names in `language`, as the API gives them. */
async function panelNames(page: Page, language: Language): Promise<Map<string, string>> {
  const response = await page.request.get('/api/panels', {
    headers: { 'accept-language': language },
  })
  const { panels } = (await response.json()) as { panels: { id: string; name: string }[] }
  return new Map(panels.map((panel) => [panel.id, panel.name]))
}

for (const language of ['en', 'es'] as const) {
  const text = TEXTS[language]

  test.describe(`in ${language}`, () => {
    test.use({ locale: text.locale })

    test('full screen can be left with the same button, and the countdown comes along', async ({
      page,
    }) => {
      // Each fast-forwarded second draws ~60 frames in software WebGL: a small screen keeps
      // that quick.
      test.setTimeout(120_000)
      await page.setViewportSize({ width: 640, height: 400 })
      const user = await createUser(page.request, { access: true, language })
      await signInAs(page, user)
      await page.clock.install()
      await page.goto('/harmonizing-screen/02')
      const play = page.getByTestId('play')
      await expect(play).toHaveText(text.play)
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
      await play.click()
      await expect(page.getByRole('button', { name: text.stop })).toBeVisible()

      const stage = page.getByTestId('harmonize-stage')
      await page.getByRole('button', { name: text.enter }).click()
      await expect.poll(() => fullScreenElement(page)).toBe('harmonize-stage')
      // Only the stage is on screen now: the countdown must be inside it, and keep counting.
      const timer = stage.getByRole('timer')
      await expect(timer).toBeVisible()
      await expect(timer).toHaveText('3:00')
      await page.clock.runFor(1_000)
      await expect(timer).toHaveText('2:59')
      await expect(page.getByTestId('countdown')).toHaveCount(1)

      const leave = stage.getByRole('button', { name: text.leave })
      await expect(leave).toBeVisible()
      await expect(stage.getByRole('button', { name: text.enter })).toHaveCount(0)
      await leave.click()
      await expect.poll(() => fullScreenElement(page)).toBeNull()
      await expect(page.getByRole('button', { name: text.enter })).toBeVisible()
      // Back in the header, still one countdown, and the session never stopped.
      await expect(stage.getByRole('timer')).toHaveCount(0)
      await expect(page.getByTestId('countdown')).toHaveText('2:59')
      await expect(page.getByRole('button', { name: text.stop })).toBeVisible()
    })

    test.describe('offline', () => {
      test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED/ })

      test('after one visit to the panels, a panel never opened shows and plays offline', async ({
        page,
        context,
      }) => {
        test.setTimeout(90_000)
        await page.setViewportSize({ width: 640, height: 480 })
        const user = await createUser(page.request, { access: true, language })
        await signInAs(page, user)
        const names = await panelNames(page, language)
        await page.goto('/home')
        await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(16)
        await page.evaluate(async () => {
          await navigator.serviceWorker.ready
        })
        // Every panel's texts are kept on the device once the member has access.
        await expect
          .poll(() =>
            page.evaluate(
              (lang) =>
                Object.keys(localStorage).filter((key) =>
                  new RegExp(`^harmonize\\.cache\\.panel:\\d{2}:${lang}$`).test(key),
                ).length,
              language,
            ),
          )
          .toBe(16)

        // The network goes while the app is open: moving around it must not wait for ever.
        await context.setOffline(true)
        await page
          .getByTestId('panel-grid')
          .getByRole('link', { name: new RegExp(`^${names.get('06')}`) })
          .click()
        await expect(page.getByTestId('header-title')).toHaveText(
          text.panelTitle(names.get('06') ?? ''),
        )
        await page.getByRole('link', { name: text.harmonize }).click()
        await expect(page.getByTestId('play')).toHaveText(text.play)
        await page.getByTestId('play').click()
        await expect(page.getByRole('button', { name: text.stop })).toBeVisible()
        await expect(page.getByTestId('affirmation')).not.toHaveText('')
        await page.getByRole('button', { name: text.stop }).click()

        // A fresh start of the app with no network, straight onto other unopened panels.
        await page.goto('/harmonizing-screen/10')
        await expect(page.getByTestId('header-subtitle')).toHaveText(names.get('10') ?? '')
        await expect(page.getByTestId('play')).toHaveText(text.play)
        await page.getByTestId('play').click()
        await expect(page.getByRole('button', { name: text.stop })).toBeVisible()
        await expect(page.getByTestId('affirmation')).not.toHaveText('')
        await expect(page.getByTestId('ingredient')).not.toHaveText('')

        await page.goto('/panel-info/08')
        await expect(page.getByTestId('header-title')).toHaveText(
          text.panelTitle(names.get('08') ?? ''),
        )
        await expect(page.getByRole('link', { name: text.harmonize })).toBeVisible()
        await expect(page.getByText('Failed to fetch')).toHaveCount(0)
      })

      test('what was never kept says the member is offline, never the raw error', async ({
        page,
        context,
      }) => {
        // Without access nothing is prepared for offline use; the app shell still is.
        const user = await createUser(page.request, { language })
        await signInAs(page, user)
        await page.goto('/home')
        await expect(page.getByTestId('no-payment')).toBeVisible()
        await page.evaluate(async () => {
          await navigator.serviceWorker.ready
        })

        await context.setOffline(true)
        await page.goto('/harmonizing-screen/10')
        await expect(page.locator('main')).toContainText(text.offline)
        await expect(page.getByText('Failed to fetch')).toHaveCount(0)
        await page.goto('/panel-info/08')
        await expect(page.locator('main')).toContainText(text.offline)
        await expect(page.getByText('Failed to fetch')).toHaveCount(0)
      })
    })
  })
}
