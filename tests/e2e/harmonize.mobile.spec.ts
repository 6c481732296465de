import { ownClientAddress } from './support/accounts'
import { expect, test } from './support/test'

test.use({ ...ownClientAddress, memberOptions: { access: true } })

test('on a phone the open sound settings leave Stop visible and usable', async ({
  page,
  member: _,
}) => {
  await page.goto('/harmonizing-screen/01')
  await page.getByTestId('play').click()
  const stop = page.getByRole('button', { name: 'Stop' })
  await expect(stop).toBeVisible()

  await page.getByRole('button', { name: 'Sound' }).click()
  const calm = page.getByRole('checkbox', { name: 'Calm motion' })
  await expect(calm).toBeVisible()
  const settings = await calm.locator('xpath=../..').boundingBox()
  const button = await stop.boundingBox()
  const viewport = page.viewportSize()
  if (!settings || !button || !viewport) throw new Error('nothing laid out')
  expect(settings.y + settings.height).toBeLessThanOrEqual(button.y)
  expect(settings.x + settings.width).toBeLessThanOrEqual(viewport.width)

  // Playwright clicks only what is really on top at that point.
  await stop.click()
  await expect(page.getByTestId('play')).toHaveText('Play')
})
