import { grantAccess } from './support/access'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { expect, test } from './support/test'

test.use(ownClientAddress)

test.describe('without access', () => {
  test.use({ allowedConsoleErrors: /status of 402/ })

  test('panels are greyed with the spec message, and the API refuses a session', async ({
    page,
  }) => {
    const user = await createUser(page.request)
    await signInAs(page, user)
    await page.goto('/home')
    await expect(page.getByTestId('no-payment')).toHaveText('Sorry, no payment found yet.')
    await expect(page.getByTestId('panel-card-locked')).toHaveCount(16)
    await expect(page.getByTestId('panel-grid').getByRole('link')).toHaveCount(0)
    await page.getByRole('link', { name: 'Go to My Account' }).click()
    await expect(page).toHaveURL(/\/my-account$/)

    const response = await page.request.post('/api/harmonize/sessions', { data: { panelId: '01' } })
    expect(response.status()).toBe(402)
    expect((await response.json()).message).toBe('Sorry, no payment found yet.')
  })
})

test('a redeemed code opens the panels; a panel page shows its info', async ({ page }) => {
  const user = await createUser(page.request)
  await signInAs(page, user)
  await page.goto('/my-account')
  const { createAccessCode } = await import('./support/access')
  await page.getByLabel('Access code').fill(await createAccessCode())
  await page.getByRole('button', { name: 'Redeem' }).click()
  await expect(page.getByTestId('snackbar')).toHaveText(
    'Your access code is active. Enjoy harmonizing!',
  )
  await page.goto('/home')
  await expect(page.getByTestId('no-payment')).toHaveCount(0)
  await page.getByRole('link', { name: /Digestion/ }).click()
  await expect(page).toHaveURL(/\/panel-info\/01$/)
  await expect(page.getByTestId('header-title')).toHaveText('Digestion Panel')
  await expect(page.getByTestId('header-subtitle')).toHaveText('Digestion')
  await page.getByRole('button', { name: 'More Info' }).click()
  await expect(page.getByText('Ingredients')).toBeVisible()
  await page.getByRole('button', { name: 'Hide Info' }).click()
  await expect(page.getByText('Ingredients')).toBeHidden()
  await page.getByRole('link', { name: 'Start harmonizing' }).click()
  await expect(page).toHaveURL(/\/harmonizing-screen\/01$/)
})

test('a session runs for 3:00 with rotating words, completes, and can start again', async ({
  page,
}) => {
  // Every fast-forwarded second draws ~60 fractal frames in software rendering: a small window
  // and a longer budget keep this honest without making it slow.
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 640, height: 400 })
  const user = await createUser(page.request)
  await signInAs(page, user)
  await grantAccess(page.request)
  await page.clock.install()
  await page.goto('/harmonizing-screen/07')
  await expect(page.getByTestId('header-title')).toHaveText('Harmonizing Screen')
  await expect(page.getByTestId('countdown')).toHaveText('3:00')
  const play = page.getByTestId('play')
  await expect(play).toHaveText('Play')
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
  await play.click()
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()

  // Affirmations change every 7 s, ingredients every 4 s.
  const affirmation = page.getByTestId('affirmation')
  const ingredient = page.getByTestId('ingredient')
  await expect(affirmation).not.toHaveText('')
  const firstWords = await affirmation.textContent()
  const firstIngredient = await ingredient.textContent()
  await page.clock.runFor(3_500)
  await expect(affirmation).toHaveText(firstWords ?? '')
  await expect(ingredient).toHaveText(firstIngredient ?? '')
  await page.clock.runFor(1_000)
  await expect(ingredient).not.toHaveText(firstIngredient ?? '')
  await expect(affirmation).toHaveText(firstWords ?? '')
  await page.clock.runFor(3_000)
  await expect(affirmation).not.toHaveText(firstWords ?? '')
  await expect(page.getByTestId('countdown')).toHaveText('2:53')

  // The picture moves.
  const canvas = page.getByTestId('fractal-canvas')
  const before = await canvas.screenshot()
  await page.clock.runFor(2_000)
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
  // Let time run normally again: the next page's data arrives through timers.
  await page.clock.resume()
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
  }) => {
    test.setTimeout(90_000)
    await page.setViewportSize({ width: 640, height: 400 })
    const user = await createUser(page.request)
    await signInAs(page, user)
    await grantAccess(page.request)
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

test('the sound settings open and close from the keyboard', async ({ page }) => {
  const user = await createUser(page.request)
  await signInAs(page, user)
  await grantAccess(page.request)
  await page.goto('/harmonizing-screen/01')
  const sound = page.getByRole('button', { name: 'Sound' })
  await sound.focus()
  await page.keyboard.press('Enter')
  await expect(sound).toHaveAttribute('aria-expanded', 'true')
  const panelId = await sound.getAttribute('aria-controls')
  const panel = page.locator(`[id="${panelId}"]`)
  await expect(panel.getByRole('checkbox', { name: 'Calm motion' })).toBeVisible()

  // Into the settings, then Escape: they close and focus returns to the button.
  await page.keyboard.press('Tab')
  await expect(panel.getByRole('slider').first()).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(panel).toHaveCount(0)
  await expect(sound).toHaveAttribute('aria-expanded', 'false')
  await expect(sound).toBeFocused()
})
