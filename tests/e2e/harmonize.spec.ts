import { createAccessCode } from './support/access'
import { ownClientAddress } from './support/accounts'
import { expectAccessible } from './support/axe'
import { expect, test } from './support/test'

// Each test has a member of its own (the `member` fixture: made by the shared factories and
// signed in), with access where the test says so.

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
    await page.getByRole('link', { name: 'Go to My Account' }).click()
    await expect(page).toHaveURL(/\/my-account$/)

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
  await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(16)
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
      await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(16)
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await page.goto('/panel-info/03')
      await expect(page.getByTestId('header-title')).toHaveText('Sleep Panel')
      await page.goto('/harmonizing-screen/03')
      await expect(page.getByTestId('play')).toHaveText('Play')

      await context.setOffline(true)
      await page.goto('/home')
      await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(16)
      await page.getByRole('link', { name: /Sleep/ }).click()
      await expect(page.getByTestId('header-title')).toHaveText('Sleep Panel')
      await page.getByRole('link', { name: 'Start harmonizing' }).click()
      await page.getByTestId('play').click()
      await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
      await expect(page.getByTestId('affirmation')).not.toHaveText('')
      await expect(page.getByTestId('ingredient')).not.toHaveText('')
    })
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
