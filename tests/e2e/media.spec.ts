import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Page } from '@playwright/test'
import { makeWav } from '../support/media'
import { grantAccess } from './support/access'
import { createUser, ownClientAddress, signInAs } from './support/accounts'
import { e2eDataDir } from './support/data-dir'
import { expect, test } from './support/test'

const root = path.resolve(import.meta.dirname, '../..')
// Media belong to panel 16 only, which no other end-to-end test harmonizes with, so sessions
// elsewhere stay generative while this file runs.
const PANEL = '16'
const BACKING_KEY = 'medias/WH_BackingTrack-e2e-calm.wav'
const VIDEO_KEY = 'medias/e2e-clip.webm'

/** The operator command against the running end-to-end server. */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/cli.ts', ...args],
    { cwd: root, env: { ...process.env, DATA_DIR: e2eDataDir() } },
  )
  return stdout.trim()
}

/**
 * A real, playable WebM: a canvas animation recorded by the browser's MediaRecorder for about
 * 1.5 s (no binary fixture in the repository, and no ffmpeg needed).
 */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 160
    canvas.height = 120
    const context = canvas.getContext('2d')
    if (!context) throw new Error('no 2d context')
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' })
    const chunks: Blob[] = []
    recorder.ondataavailable = (event) => chunks.push(event.data)
    const stopped = new Promise((resolve) => {
      recorder.onstop = resolve
    })
    let frame = 0
    let enoughFrames: (value: unknown) => void = () => {}
    const recorded = new Promise((resolve) => {
      enoughFrames = resolve
    })
    const draw = () => {
      context.fillStyle = `hsl(${(frame * 7) % 360} 70% 50%)`
      context.fillRect(0, 0, 160, 120)
      frame++
      // About a second and a half of video at 25 frames a second.
      if (frame >= 38) enoughFrames(null)
    }
    draw()
    const timer = setInterval(draw, 40)
    recorder.start(250)
    await recorded
    recorder.stop()
    await stopped
    clearInterval(timer)
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer())
    let binary = ''
    for (const byte of bytes) binary += String.fromCharCode(byte)
    return btoa(binary)
  })
  return Buffer.from(base64, 'base64')
}

test.use(ownClientAddress)
test.describe.configure({ mode: 'serial' })

let folder = ''

test.beforeAll(async ({ browser }) => {
  folder = mkdtempSync(path.join(tmpdir(), 'harmonize-e2e-media-'))
  // 5 s at 22.05 kHz: about 220 KB, enough for a throttled download to show its progress.
  const wav = path.join(folder, 'e2e-calm.wav')
  writeFileSync(wav, makeWav(5, 432, 22_050))
  expect(await cli('media', 'add', wav, '--backing', '--panel', PANEL)).toBe(BACKING_KEY)

  const page = await browser.newPage()
  const video = path.join(folder, 'e2e-clip.webm')
  writeFileSync(video, await recordWebm(page))
  await page.close()
  expect(await cli('media', 'add', video, '--panel', PANEL)).toBe(VIDEO_KEY)
})

test.afterAll(async () => {
  for (const key of [BACKING_KEY, VIDEO_KEY]) await cli('media', 'remove', key).catch(() => '')
  rmSync(folder, { recursive: true, force: true })
})

async function signInWithAccess(page: Page) {
  const user = await createUser(page.request)
  await signInAs(page, user)
  await grantAccess(page.request)
}

/** Every aria-valuenow the progress bars show, with the bar's label, in order. */
async function watchProgress(page: Page) {
  await page.evaluate(() => {
    const seen: [string, number][] = []
    ;(window as unknown as { progressSeen: typeof seen }).progressSeen = seen
    const record = () => {
      // Only the media card's bars: a page-loading spinner is a progressbar too.
      for (const bar of document.querySelectorAll(
        '[data-testid="offline-media"] [role="progressbar"]',
      )) {
        const entry: [string, number] = [
          bar.getAttribute('aria-label') ?? '',
          Number(bar.getAttribute('aria-valuenow')),
        ]
        const last = seen.at(-1)
        if (!last || last[0] !== entry[0] || last[1] !== entry[1]) seen.push(entry)
      }
    }
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    })
  })
  return () =>
    page.evaluate(() => (window as unknown as { progressSeen: [string, number][] }).progressSeen)
}

async function throttle(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: -1,
  })
  return () =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    })
}

test('My Account saves a media file for offline use with a progress bar, and removes it', async ({
  page,
}) => {
  test.setTimeout(60_000)
  await signInWithAccess(page)
  await page.goto('/my-account')
  const card = page.getByTestId('offline-media')
  await expect(card.getByRole('heading', { name: 'Media for offline use' })).toBeVisible()
  await expect(card.getByTestId('media-item')).toHaveCount(2)
  await expect(card.getByText('Nothing saved on this device yet.')).toBeVisible()

  const progress = await watchProgress(page)
  const unthrottle = await throttle(page, 80 * 1024)
  await card.getByRole('button', { name: 'Save WH_BackingTrack-e2e-calm.wav' }).click()
  await expect(card.getByRole('progressbar')).toBeVisible()
  await expect(card.getByTestId('saved-media')).toContainText('WH_BackingTrack-e2e-calm.wav')
  await unthrottle()
  const values = (await progress()).map(([, value]) => value)
  // A real bar: several steps of 5 %, never going back, ending at 100 %.
  expect(values.at(-1)).toBe(100)
  expect(values.length).toBeGreaterThanOrEqual(5)
  for (const [index, value] of values.entries()) {
    expect(value % 5).toBe(0)
    if (index > 0) expect(value).toBeGreaterThanOrEqual(values[index - 1] ?? 0)
  }
  await expect(card.getByTestId('saved-media')).toContainText(/KB/)
  await expect(card.getByRole('progressbar')).toHaveCount(0)

  // The copy is in Cache Storage under its key, byte for byte.
  const cachedSize = await page.evaluate(async (key) => {
    const cache = await caches.open('harmonize-media')
    const response = await cache.match(`/offline-media/${key}`)
    return response ? (await response.arrayBuffer()).byteLength : 0
  }, BACKING_KEY)
  expect(cachedSize).toBe(44 + 5 * 22_050 * 2)

  await card.getByRole('button', { name: 'Remove WH_BackingTrack-e2e-calm.wav' }).click()
  await expect(card.getByText('Nothing saved on this device yet.')).toBeVisible()
})

test('Save all fetches the backing track first; the session then uses the saved copies', async ({
  page,
}) => {
  test.setTimeout(60_000)
  await signInWithAccess(page)
  await page.goto('/my-account')
  const card = page.getByTestId('offline-media')
  const progress = await watchProgress(page)
  await card.getByRole('button', { name: 'Save all' }).click()
  await expect(card.getByTestId('saved-media').getByRole('listitem')).toHaveCount(2)
  const labels = [...new Set((await progress()).map(([label]) => label))]
  expect(labels).toEqual(['Saving WH_BackingTrack-e2e-calm.wav', 'Saving e2e-clip.webm'])

  await page.goto(`/harmonizing-screen/${PANEL}`)
  const video = page.getByTestId('media-video')
  await expect(video).toBeVisible()
  await expect(video).toHaveAttribute('src', /^blob:/)
})

test('a session with an uploaded video and backing track plays and stops both', async ({
  page,
}) => {
  test.setTimeout(60_000)
  await signInWithAccess(page)
  const backingRequest = page.waitForRequest((request) =>
    request.url().includes(`/api/media/${BACKING_KEY}?`),
  )
  await page.goto(`/harmonizing-screen/${PANEL}`)
  const video = page.getByTestId('media-video')
  await expect(video).toBeVisible()
  await expect(page.getByTestId('fractal-canvas')).toHaveCount(0)
  await expect(video).toHaveAttribute('src', new RegExp(`/api/media/${VIDEO_KEY}\\?expires=`))
  await backingRequest

  const play = page.getByTestId('play')
  await expect(play).toHaveText('Play')
  await expect(play).toBeEnabled()
  await play.click()
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false)
  await expect(page.getByTestId('affirmation')).not.toHaveText('')

  await page.getByRole('button', { name: 'Stop' }).click()
  await expect(page.getByTestId('play')).toHaveText('Play')
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true)
})

test('calm motion replaces an uploaded video with the calm generated picture', async ({ page }) => {
  test.setTimeout(60_000)
  await signInWithAccess(page)
  // Calm motion runs the picture at 5 % speed, too slowly for screenshots a few seconds apart
  // to differ reliably; counting WebGL draws (only the renderer draws) shows its loop runs.
  await page.addInitScript(() => {
    const counted = window as unknown as { draws: number }
    counted.draws = 0
    const draw = WebGL2RenderingContext.prototype.drawArrays
    WebGL2RenderingContext.prototype.drawArrays = function (...args) {
      counted.draws++
      return draw.apply(this, args)
    }
  })
  const draws = () => page.evaluate(() => (window as unknown as { draws: number }).draws)
  await page.goto(`/harmonizing-screen/${PANEL}`)
  const video = page.getByTestId('media-video')
  const canvas = page.getByTestId('fractal-canvas')
  await expect(video).toBeVisible()
  await page.getByTestId('play').click()
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false)
  // Before the media list arrived the canvas was up for a moment and drew its first frame.
  const beforeSwap = await draws()

  // Turned on mid-session: the video goes, the generated picture takes over and keeps going.
  await page.getByRole('button', { name: 'Sound' }).click()
  const calm = page.getByRole('checkbox', { name: 'Calm motion' })
  await expect(calm).not.toBeChecked()
  await calm.check()
  await expect(video).toHaveCount(0)
  await expect(canvas).toBeVisible()
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
  // Without the loop the swap draws a first frame and one per resize (three here); a running
  // loop draws many more.
  // Software WebGL on a busy CI machine can draw only a few frames a second.
  await expect.poll(draws, { timeout: 15_000 }).toBeGreaterThan(beforeSwap + 10)

  // Off again: the video comes back and plays.
  await calm.uncheck()
  await expect(video).toBeVisible()
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false)

  // With the system asking for reduced motion, the video is never shown.
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.reload()
  await expect(canvas).toBeVisible()
  await expect(video).toHaveCount(0)
  await page.getByRole('button', { name: 'Sound' }).click()
  await expect(page.getByRole('checkbox', { name: 'Calm motion' })).toBeChecked()
})
