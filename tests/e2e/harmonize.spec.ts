import type { Page } from '@playwright/test'
import { createAccessCode, expectPanelsOpen } from './support/access'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expectAccessible } from './support/axe'
import { expect, test } from './support/test'

// Each test has a member of its own (the `member` fixture: made by the shared factories and
// signed in), with access where the test says so. The tests in both languages, at the end,
// make theirs with the language they run in.

test.use(ownClientAddress)

test.describe('without access', () => {
  test.use({ allowedConsoleErrors: /status of 402/ })

  test('panels are greyed with the spec message, and the API refuses a session', async ({
    page,
    member: _,
  }) => {
    await page.goto('/home')
    await expect(page.getByTestId('no-payment')).toHaveText('Sorry, no payment found yet.')
    await expect(page.getByTestId('panel-card-locked')).toHaveCount(16)
    await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(0)
    await expectAccessible(page, '/home without access')
    // Nothing bought yet: the notice leads to the plans.
    await page.getByRole('link', { name: 'See the plans' }).click()
    await expect(page).toHaveURL(/\/my-account#plans$/)

    const response = await page.request.post('/api/harmonize/sessions', { data: { panelId: '01' } })
    expect(response.status()).toBe(402)
    expect((await response.json()).message).toBe('Sorry, no payment found yet.')
  })
})

test('a redeemed code opens the panels; a panel page shows its info', async ({
  page,
  member: _,
}) => {
  await page.goto('/my-account')
  await page.getByRole('textbox', { name: 'Access code' }).fill(await createAccessCode())
  await page.getByRole('button', { name: 'Redeem' }).click()
  await expect(page.getByTestId('snackbar')).toHaveText(
    'Your access code is active. Enjoy harmonizing!',
  )
  await page.goto('/home')
  await expect(page.getByTestId('no-payment')).toHaveCount(0)
  await expectPanelsOpen(page)
  await expectAccessible(page)
  await page.getByRole('link', { name: /Digestion/ }).click()
  await expect(page).toHaveURL(/\/panel-info\/01$/)
  await expect(page.getByTestId('header-title')).toHaveText('Digestion Panel')
  await expect(page.getByTestId('header-subtitle')).toHaveText('Digestion')
  await page.getByRole('button', { name: 'More Info' }).click()
  await expect(page.getByText('Ingredients')).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Hide Info' }).click()
  await expect(page.getByText('Ingredients')).toBeHidden()
  await page.getByRole('link', { name: 'Start harmonizing' }).click()
  await expect(page).toHaveURL(/\/harmonizing-screen\/01$/)
})

test.describe(() => {
  // The API answers 404 for the unknown panel, which Chromium reports in the console.
  test.use({ allowedConsoleErrors: /status of 404/ })

  test('an unknown panel shows the 404 page', async ({ page, member: _ }) => {
    await page.goto('/panel-info/99')
    await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible()
    await expect(page.getByTestId('header-title')).toHaveText('404 Not Found')
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Go Home' }).click()
    await expect(page).toHaveURL(/\/home$/)
  })
})

test.describe('with access', () => {
  test.use({ memberOptions: { access: true } })

  test('/harmonized-complete: Harmonize Again goes back to the latest session’s panel', async ({
    page,
    member: _,
  }) => {
    const started = await page.request.post('/api/harmonize/sessions', {
      data: { panelId: '05' },
    })
    expect(started.ok()).toBe(true)
    await page.goto('/harmonized-complete')
    await page.getByRole('button', { name: 'Harmonize Again' }).click()
    await expect(page).toHaveURL(/\/harmonizing-screen\/05#harmonizing$/)
    await expect(page.getByTestId('countdown')).toHaveText('3:00')
  })

  test('a session runs for 3:00 with rotating words, completes, and can start again', async ({
    page,
    member: _,
  }) => {
    // A small window: every frame is drawn by software WebGL.
    await page.setViewportSize({ width: 640, height: 400 })
    await page.clock.install()
    await page.goto('/harmonizing-screen/07')
    await expect(page.getByTestId('header-title')).toHaveText('Harmonizing Screen')
    await expect(page.getByTestId('countdown')).toHaveText('3:00')
    const play = page.getByTestId('play')
    await expect(play).toHaveText('Play')
    await expectAccessible(page)
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
    await play.click()
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()

    // Affirmations change every 7 s, ingredients every 4 s. What shows is worked out from the
    // time played, so jumping ahead (fastForward fires each due timer once) shows the same as
    // living through every frame in between, without drawing hundreds of them in software.
    const affirmation = page.getByTestId('affirmation')
    const ingredient = page.getByTestId('ingredient')
    await expect(affirmation).not.toHaveText('')
    const firstWords = await affirmation.textContent()
    const firstIngredient = await ingredient.textContent()
    await page.clock.fastForward(3_500)
    await expect(page.getByTestId('countdown')).toHaveText('2:57')
    await expect(affirmation).toHaveText(firstWords ?? '')
    await expect(ingredient).toHaveText(firstIngredient ?? '')
    await page.clock.fastForward(1_000)
    await expect(ingredient).not.toHaveText(firstIngredient ?? '')
    await expect(affirmation).toHaveText(firstWords ?? '')
    await page.clock.fastForward(3_000)
    await expect(affirmation).not.toHaveText(firstWords ?? '')
    await expect(page.getByTestId('countdown')).toHaveText('2:53')

    // The picture moves: half a second of frames, each one drawn.
    const canvas = page.getByTestId('fractal-canvas')
    const before = await canvas.screenshot()
    await page.clock.runFor(500)
    expect(Buffer.compare(before, await canvas.screenshot())).not.toBe(0)

    // Jump to the end: timers due meanwhile fire once, as after a long sleep of the device.
    await page.clock.fastForward(180_000)
    await expect(page.getByRole('heading', { name: 'Complete' })).toBeVisible()
    await expect(page.getByText('Your water is ready to drink')).toBeVisible()
    await expect
      .poll(
        async () => (await (await page.request.get('/api/harmonize/sessions')).json()).sessions[0],
      )
      .toMatchObject({ panelId: '07', completedAt: expect.any(String) })

    await page.getByRole('button', { name: 'Harmonize Again' }).click()
    await expect(page).toHaveURL(/\/harmonizing-screen\/07#harmonizing$/)
    await expect(page.getByTestId('countdown')).toHaveText('3:00')
    await expect(page.getByTestId('play')).toHaveText('Play')

    await page.getByTestId('play').click()
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
    await page.clock.fastForward(181_000)
    // Let time run normally again: the next page's data arrives through timers (and axe-core
    // waits on timers too).
    await page.clock.resume()
    await expect(page.getByRole('heading', { name: 'Complete' })).toBeVisible()
    await expectAccessible(page, 'the harmonize-complete screen')
    await page.getByRole('button', { name: 'Back To Main Screen' }).click()
    await expect(page).toHaveURL(/\/home$/)
    // Both sessions are listed for the user, the newest first.
    const recent = page.getByTestId('recent-sessions').getByRole('listitem')
    await expect(recent).toHaveCount(2)
    await expect(recent.first()).toContainText('Love')
    await expect(recent.first()).toContainText('Completed')
  })

  test.describe('offline', () => {
    test.use({ allowedConsoleErrors: /ERR_INTERNET_DISCONNECTED/ })

    test('after one visit, home, a panel and a session work with no network', async ({
      page,
      context,
      member: _,
    }) => {
      await page.setViewportSize({ width: 640, height: 400 })
      await page.goto('/home')
      await expectPanelsOpen(page)
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await page.goto('/panel-info/03')
      await expect(page.getByTestId('header-title')).toHaveText('Sleep Panel')
      await page.goto('/harmonizing-screen/03')
      await expect(page.getByTestId('play')).toHaveText('Play')

      await context.setOffline(true)
      await page.goto('/home')
      await expectPanelsOpen(page)
      await page.getByRole('link', { name: /Sleep/ }).click()
      await expect(page.getByTestId('header-title')).toHaveText('Sleep Panel')
      await page.getByRole('link', { name: 'Start harmonizing' }).click()
      await page.getByTestId('play').click()
      await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
      await expect(page.getByTestId('affirmation')).not.toHaveText('')
      await expect(page.getByTestId('ingredient')).not.toHaveText('')
    })
  })

  test('from the keyboard, Play leaves the focus on Stop, Stop on Play, the end on its heading', async ({
    page,
    member: _,
  }) => {
    await page.setViewportSize({ width: 640, height: 400 })
    await page.clock.install()
    await page.goto('/harmonizing-screen/03')
    const play = page.getByTestId('play')
    const stop = page.getByRole('button', { name: 'Stop' })
    await expect(play).toHaveText('Play')
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)

    await play.focus()
    await page.keyboard.press('Enter')
    await expect(stop).toBeFocused()
    // Space on Stop: Play comes back in its place, with the focus.
    await page.keyboard.press('Space')
    await expect(play).toHaveText('Play')
    await expect(play).toBeFocused()
    await page.keyboard.press('Space')
    await expect(stop).toBeFocused()

    await page.clock.fastForward(181_000)
    await page.clock.resume()
    const complete = page.getByRole('heading', { name: 'Complete' })
    await expect(complete).toBeFocused()
    // On from the heading: Harmonize Again, and Play is focused again once it can be pressed.
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Harmonize Again' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(play).toHaveText('Play')
    await expect(play).toBeFocused()
  })

  test('the sound settings open and close from the keyboard', async ({ page, member: _ }) => {
    await page.goto('/harmonizing-screen/01')
    const sound = page.getByRole('button', { name: 'Sound' })
    await sound.focus()
    await page.keyboard.press('Enter')
    await expect(sound).toHaveAttribute('aria-expanded', 'true')
    const panelId = await sound.getAttribute('aria-controls')
    const panel = page.locator(`[id="${panelId}"]`)
    await expect(panel.getByRole('checkbox', { name: 'Calm motion' })).toBeVisible()
    await expectAccessible(page, 'the session with its sound settings open')

    // Into the settings, then Escape: they close and focus returns to the button.
    await page.keyboard.press('Tab')
    await expect(panel.getByRole('slider').first()).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(panel).toHaveCount(0)
    await expect(sound).toHaveAttribute('aria-expanded', 'false')
    await expect(sound).toBeFocused()
  })
})

// In English and in Spanish: full screen is left with the button that entered it, and the
// countdown comes along; once the panels were visited, every panel works offline, not only
// those already opened; what was never kept says the member is offline.

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
        await expectPanelsOpen(page)
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
