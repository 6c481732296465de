import type { Page } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { saveClient } from './support/clients'
import { expect, test } from './support/test'

// The aura scan's trays (issue 11): panels moved with the keyboard and dragged with the mouse to
// 'Balance Rx' (one panel) or 'Multi Layer Rx' (several), a time, and START running a
// harmonizing session of those panels for that time.

test.use({ memberOptions: { access: true } })

/** A saved client of the signed-in member, chosen for the scan through its form's 'Start'. */
async function scanForNewClient(page: Page, start: string, no: string) {
  // Tall enough for the list and the trays without scrolling: a page scrolled in the middle of
  // a drag would start it from whatever panel then lies under the pointer.
  await page.setViewportSize({ width: 1280, height: 1500 })
  const id = await saveClient(page, { firstName: 'Iris', lastName: 'Vidal' })
  await page.goto(`/user-details#${id}`)
  await page.getByRole('button', { name: start }).click()
  await expect(page).toHaveURL(/\/aura-scan$/)
  await page.getByRole('dialog').getByRole('button', { name: no, exact: true }).click()
  await expect(page.getByTestId('scan-item')).toHaveCount(16)
}

/** The scan list's panels as shown: id (from the session each one starts) is not on screen. */
const panelNames = (page: Page) =>
  page.getByTestId('scan-item').locator('span.flex-1').allTextContents()

test('keyboard and mouse fill the trays; START runs a Multi Layer Rx for its time', async ({
  page,
  member: _,
}) => {
  await page.clock.install()
  await scanForNewClient(page, 'Start', 'No')
  const [first = '', second = '', third = '', fourth = '', fifth = ''] = await panelNames(page)
  const balance = page.getByTestId('tray-balance')
  const multi = page.getByTestId('tray-multi')
  await expect(balance).toContainText('Drag a panel here, or use its button.')
  await expect(balance.getByRole('button', { name: 'START' })).toBeDisabled()

  // Balance Rx holds one panel: the keyboard puts one in, then another in its place.
  const inBalance = (name: string) => page.getByRole('button', { name: `${name} in Balance Rx` })
  await inBalance(first).focus()
  await page.keyboard.press('Enter')
  await expect(inBalance(first)).toHaveAttribute('aria-pressed', 'true')
  await expect(balance.getByTestId('tray-item')).toHaveText([first])
  await inBalance(second).focus()
  await page.keyboard.press('Space')
  await expect(balance.getByTestId('tray-item')).toHaveText([second])
  await expect(inBalance(first)).toHaveAttribute('aria-pressed', 'false')

  // Multi Layer Rx gathers several: two by keyboard, one dragged in, one taken out again.
  for (const name of [third, fourth]) {
    await page.getByRole('button', { name: `${name} in Multi Layer Rx` }).focus()
    await page.keyboard.press('Enter')
  }
  await page.getByTestId('scan-item').nth(4).dragTo(multi)
  await expect(multi.getByTestId('tray-item')).toHaveText([third, fourth, fifth])
  await page.getByRole('button', { name: `Remove ${fourth} from Multi Layer Rx` }).focus()
  await page.keyboard.press('Enter')
  await expect(multi.getByTestId('tray-item')).toHaveText([third, fifth])
  // The keyboard stays in the tray, not thrown back to the top of the page.
  await expect(multi.getByRole('heading', { name: 'Multi Layer Rx' })).toBeFocused()
  // Dropping a panel the tray holds already changes nothing.
  await page.getByTestId('scan-item').nth(2).dragTo(multi)
  await expect(multi.getByTestId('tray-item')).toHaveText([third, fifth])

  await multi.getByLabel('Time').selectOption('10')
  await expectAccessible(page, 'the aura scan with filled trays')
  await page.screenshot({ path: test.info().outputPath('trays.png'), fullPage: true })

  // A small window from here: every frame of the session is drawn by software WebGL.
  await page.setViewportSize({ width: 640, height: 400 })
  await multi.getByRole('button', { name: 'START' }).focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/harmonizing-screen\/\d{2}\?minutes=10&with=\d{2}$/)
  await expect(page.getByTestId('header-subtitle')).toHaveText(`${third} + ${fifth}`)
  await expect(page.getByTestId('countdown')).toHaveText('10:00')
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
  await page.getByTestId('play').click()
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
  await page.clock.fastForward(180_000)
  await expect(page.getByTestId('countdown')).toHaveText('7:00')
  await page.clock.fastForward(420_500)
  await page.clock.resume()
  await expect(page.getByRole('heading', { name: 'Complete' })).toBeVisible()

  // Each panel of the tray is in the member's history, completed.
  const leadId = new URL(page.url()).pathname.split('/').pop()
  const layeredId = new URL(page.url()).searchParams.get('with')
  await expect
    .poll(async () => {
      const { sessions } = await (await page.request.get('/api/harmonize/sessions')).json()
      return sessions
        .map((session: { panelId: string; completedAt: string | null }) =>
          session.completedAt ? session.panelId : null,
        )
        .sort()
    })
    .toEqual([leadId, layeredId].sort())

  // The completion screen at its own address brings the same tray session back.
  const trayUrl = new URL(page.url())
  trayUrl.hash = 'harmonizing'
  await page.goto('/harmonized-complete')
  await page.getByRole('button', { name: 'Harmonize Again' }).click()
  await expect(page).toHaveURL(trayUrl.href)
  await expect(page.getByTestId('countdown')).toHaveText('10:00')
})

test('a Balance Rx runs its one panel for the ritual’s 3:00 unless another time is chosen', async ({
  page,
  member: _,
}) => {
  await scanForNewClient(page, 'Start', 'No')
  const [first = ''] = await panelNames(page)
  await page.getByTestId('scan-item').first().dragTo(page.getByTestId('tray-balance'))
  const balance = page.getByTestId('tray-balance')
  await expect(balance.getByTestId('tray-item')).toHaveText([first])
  await expect(balance.getByLabel('Time')).toHaveValue('3')
  await balance.getByRole('button', { name: 'START' }).click()
  await expect(page).toHaveURL(/\/harmonizing-screen\/\d{2}\?minutes=3$/)
  await expect(page.getByTestId('header-subtitle')).toHaveText(first)
  await expect(page.getByTestId('countdown')).toHaveText('3:00')
})
