import { createUser, ownClientAddress, signInAs } from './support/accounts'
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

test('on a phone each recent session keeps its time and AM/PM on one line', async ({ page }) => {
  const user = await createUser(page.request, { access: true })
  await signInAs(page, user)
  // Long panel names leave the least room for the time beside them.
  for (const panelId of ['04', '15', '13']) {
    const response = await page.request.post('/api/harmonize/sessions', { data: { panelId } })
    expect(response.ok(), await response.text()).toBe(true)
  }
  await page.goto('/home')
  const items = page.getByTestId('recent-sessions').getByRole('listitem')
  await expect(items).toHaveCount(3)

  for (const item of await items.all()) {
    const time = await item.evaluate((element) => {
      const whole = element.textContent ?? ''
      const match = /\d{1,2}:\d{2}\s?[AP]M/.exec(whole)
      if (!match) return { text: whole, lines: 0 }
      // A range over exactly the time's characters, across however many text nodes hold them;
      // each line it sits on gives it a rectangle of its own.
      const start = match.index
      const end = start + match[0].length
      const range = document.createRange()
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
      let offset = 0
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const length = (node as Text).data.length
        if (start >= offset && start < offset + length) range.setStart(node, start - offset)
        if (end > offset && end <= offset + length) range.setEnd(node, end - offset)
        offset += length
      }
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)))
      return { text: match[0], lines: tops.size }
    })
    expect(time.text).toMatch(/[AP]M$/)
    expect(time.lines, `"${time.text}" is split across lines`).toBe(1)
  }
})
