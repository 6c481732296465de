import { expectAccessible } from './support/axe'
import { CHROMIUM_ARGS } from './support/chromium'
import { PNG, saveClient } from './support/clients'
import { expect, test } from './support/test'

// Client records (issue 11): the client form with a photo from Chromium's fake camera, the
// records list, reopening, editing and deleting a client.

test.use({
  memberOptions: { access: true },
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH,
    // A fake camera that is allowed without asking: Chromium draws a moving test pattern.
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
})

test('a new client with a captured photo is saved, listed, reopened, edited and deleted', async ({
  page,
  member: _,
}) => {
  await page.clock.install()
  await page.goto('/user-details')
  await expect(page.getByRole('heading', { name: 'New client' })).toBeVisible()

  // Start with nothing filled: the spec's messages, in its order.
  await page.getByRole('button', { name: 'Start' }).click()
  for (const message of [
    'First Name is required',
    'Last Name is required',
    'Email is required',
    'Phone Number is required',
    'Affirmation is required',
    'Please select Aura Image',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible()
  }
  await page.screenshot({ path: test.info().outputPath('user-details-errors.png'), fullPage: true })

  await page.getByRole('button', { name: 'Analyze Client Image' }).click()
  const dialog = page.getByRole('dialog', { name: 'Analyze Client Image' })
  await expect(dialog.getByRole('button', { name: 'Scan' })).toBeDisabled()
  await dialog.getByRole('button', { name: 'Open Camera' }).click()
  await expect(dialog.getByTestId('camera-preview')).toBeVisible()
  await expect
    .poll(() =>
      dialog.getByTestId('camera-preview').evaluate((video: HTMLVideoElement) => video.videoWidth),
    )
    .toBeGreaterThan(0)
  await dialog.getByRole('button', { name: 'Capture' }).click()
  await expect(dialog.getByTestId('photo-preview')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Open Camera' })).toBeVisible()
  await expectAccessible(page, 'the photo dialog')

  // Frozen, so only runFor() moves the scan's 6 seconds.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
  await dialog.getByRole('button', { name: 'Scan' }).click()
  await expect(dialog.getByText('Scanning…').first()).toBeVisible()
  await page.clock.runFor(5_900)
  await expect(dialog.getByText('Energy Scan Complete')).toBeHidden()
  await page.clock.runFor(200)
  await expect(dialog.getByText('Energy Scan Complete')).toBeVisible()
  await page.clock.resume()
  await page.screenshot({ path: test.info().outputPath('photo-dialog.png') })
  await dialog.getByRole('button', { name: 'Close' }).first().click()
  await expect(page.getByTestId('form-photo')).toBeVisible()
  await expect(page.getByText('Please select Aura Image')).toBeHidden()

  await page.getByLabel('First name').fill('Lucía')
  await page.getByLabel('Last name').fill('Martín')
  await page.getByLabel('Email').fill('lucia@example.com')
  await page.getByLabel('Phone number').fill('+34 600 123 456')
  await page.getByLabel('Birth date (optional)').fill('04/23/1985')
  await page.getByLabel('Positive affirmation').fill('I am calm and clear.')
  await page.getByRole('button', { name: 'Start' }).click()
  await expect(
    page.getByText('Please confirm that your client agreed to their photo and details being kept.'),
  ).toBeVisible()
  await page.getByRole('checkbox').check()
  await expectAccessible(page, 'the filled client form')
  await page.screenshot({ path: test.info().outputPath('user-details-filled.png'), fullPage: true })
  await page.getByRole('button', { name: 'Start' }).click()
  await expect(page).toHaveURL(/\/aura-scan$/)

  await page.goto('/aura-user-record')
  const row = page.getByTestId('client-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Lucía Martín')
  await expectAccessible(page, 'the records list')
  await page.screenshot({ path: test.info().outputPath('user-records.png'), fullPage: true })
  await row.getByRole('link', { name: 'Open Lucía Martín' }).click()
  await expect(page).toHaveURL(/\/user-details#[0-9a-f-]{36}$/)
  await expect(page.getByLabel('Birth date (optional)')).toHaveValue('04/23/1985')
  await expect(page.getByLabel('Phone number')).toHaveValue('+34600123456')
  await page.getByLabel('Last name').fill('Martín Ruiz')
  await page.getByRole('button', { name: 'Start' }).click()
  await expect(page).toHaveURL(/\/aura-scan$/)

  await page.goto('/aura-user-record')
  await page.getByTestId('client-search').fill('ruiz')
  await expect(row).toContainText('Lucía Martín Ruiz')
  await page.getByTestId('client-search').fill('nobody')
  await expect(page.getByTestId('records-empty')).toHaveText("No client's name contains “nobody”.")
  await page.getByTestId('client-search').fill('')
  const downloading = page.waitForEvent('download')
  await row.getByRole('link', { name: 'Export: Lucía Martín Ruiz' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('harmonize-client-lucia-martin-ruiz.json')
  await row.getByRole('button', { name: 'Delete: Lucía Martín Ruiz' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete Lucía Martín Ruiz?' })
  await confirm.getByRole('button', { name: 'Delete for good' }).click()
  await expect(page.getByTestId('records-empty')).toHaveText('No Records found')
})

test.describe('a refused camera', () => {
  // The refused text file is answered 415, which the browser logs.
  test.use({ allowedConsoleErrors: /status of 415/ })

  test('a refused camera says how to allow it, and a photo file still works', async ({
    page,
    member: _,
  }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
    })
    await page.goto('/user-details')
    await page.getByRole('button', { name: 'Analyze Client Image' }).click()
    const dialog = page.getByRole('dialog', { name: 'Analyze Client Image' })
    await dialog.getByRole('button', { name: 'Open Camera' }).click()
    await expect(dialog.getByRole('alert')).toContainText('The camera was not allowed.')

    await dialog.getByTestId('photo-file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'image/png',
      buffer: Buffer.from('not a picture'),
    })
    await expect(dialog.getByRole('alert')).toHaveText(
      'Please choose an image file (JPEG, PNG, WebP, GIF or AVIF).',
    )
    await dialog
      .getByTestId('photo-file')
      .setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: PNG })
    await expect(dialog.getByTestId('photo-preview')).toBeVisible()
    await expect(dialog.getByRole('alert')).toHaveCount(0)
  })
})

test('aura and chakra scans of a saved client, with a signature and the guides', async ({
  page,
  member: _,
}) => {
  const id = await saveClient(page, { firstName: 'Bea', lastName: 'Ortiz' })

  await page.clock.install()
  await page.goto(`/user-details#${id}`)
  await page.getByRole('button', { name: 'Start' }).click()
  await expect(page).toHaveURL(/\/aura-scan$/)
  const question = page.getByRole('dialog', {
    name: 'Would you like to add a personalized energetic signature using text?',
  })
  await question.getByRole('button', { name: 'Yes' }).click()
  const entry = page.getByRole('dialog', { name: 'Energetic signature' })
  await entry.getByRole('textbox').fill('Morning light')
  await entry.getByRole('button', { name: 'OK' }).click()
  await page
    .getByRole('dialog', { name: 'Energy Signature Added' })
    .getByRole('button', { name: 'OK' })
    .click()
  await expect(page.getByTestId('scan-client')).toHaveText('Scan for Bea Ortiz')
  await expect(page.getByTestId('scan-item')).toHaveCount(16)
  for (const item of await page.getByTestId('scan-item').all()) {
    const number = Number((await item.locator('.font-mono').textContent())?.match(/\d+/)?.[0])
    expect(number).toBeGreaterThanOrEqual(100)
    expect(number).toBeLessThanOrEqual(999)
    expect(await item.getAttribute('data-high')).toBe(number >= 650 ? 'true' : null)
  }
  await expectAccessible(page, 'the aura scan')
  await page.screenshot({ path: test.info().outputPath('aura-scan.png'), fullPage: true })

  await page.getByRole('button', { name: 'Aura' }).click()
  await expect(page).toHaveURL(/\/aura-screen$/)
  await expect(page.getByText('Scanning...')).toBeVisible()
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
  await page.getByRole('button', { name: 'Scan' }).click()
  await expect(page.getByRole('dialog', { name: 'EnergyScan in progress' })).toBeVisible()
  await page.clock.runFor(5_900)
  await expect(page.getByTestId('aura-picture')).toHaveCount(0)
  await page.clock.runFor(200)
  const picture = page.getByTestId('aura-picture')
  await expect(picture).toBeVisible()
  await page.clock.resume()
  const number = Number(await picture.getAttribute('data-picture'))
  expect(number).toBeGreaterThanOrEqual(1)
  expect(number).toBeLessThanOrEqual(98)
  await page.screenshot({ path: test.info().outputPath('aura-screen.png'), fullPage: true })

  const history = await (await page.request.get(`/api/clients/${id}/scans`)).json()
  expect(history.scans[0]).toMatchObject({
    kind: 'aura',
    auraPicture: number,
    signature: 'Morning light',
  })
  const guide = await page.request.get(
    (await page.getByTestId('scan-guide').getAttribute('href')) ?? '',
  )
  expect(guide.headers()['content-type']).toBe('application/pdf')
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page).toHaveURL(/\/home$/)

  await page.goto('/chakra-scan')
  await page
    .getByRole('dialog', {
      name: 'Would you like to add a personalized energetic signature using text?',
    })
    .getByRole('button', { name: 'No' })
    .click()
  await page.getByRole('button', { name: 'Chakra' }).click()
  await expect(page).toHaveURL(/\/chakra-screen$/)
  await expect(page.getByTestId('chakra')).toHaveText([
    /Crown/,
    /Brow/,
    /Throat/,
    /Heart/,
    /Solar/,
    /Sacral/,
    /Root/,
  ])
  await page.getByRole('button', { name: 'Scan' }).click()
  await page.clock.runFor(6_100)
  await expect(page.getByRole('button', { name: 'Done' })).toBeVisible()
  const readings = await page.getByTestId('chakra').locator('.font-mono').allTextContents()
  const values = readings.map((text) => Number(text.match(/\d+/)?.[0]))
  for (const value of values) expect(value).toBeGreaterThanOrEqual(100)
  await expect(page.locator('[data-testid="chakra"][data-high]')).toHaveCount(3)
  await expectAccessible(page, 'the chakra screen')
  await page.screenshot({ path: test.info().outputPath('chakra-screen.png'), fullPage: true })
  const chakraGuide = await page.request.get('/api/guides/chakra')
  expect(chakraGuide.headers()['content-type']).toBe('application/pdf')

  // The client's page keeps the history; two chakra scans make the chart.
  await page.request.post(`/api/clients/${id}/scans/chakra`, { data: { signature: null } })
  await page.goto(`/user-details#${id}`)
  const entries = page.getByTestId('history-entry')
  await expect(entries).toHaveCount(3)
  await expect(entries.first()).toContainText('Chakra reading: Crown')
  // 'No' on the chakra scan's question: no signature, not the aura scan's.
  await expect(entries.nth(1)).not.toContainText('Morning light')
  await expect(entries.last()).toContainText(`Aura picture ${number}`)
  await expect(entries.last()).toContainText('“Morning light”')
  await expect(page.getByTestId('chakra-chart')).toBeVisible()
  await expectAccessible(page, 'a client with scans')
  await page.getByTestId('scan-history').screenshot({ path: test.info().outputPath('history.png') })
})
