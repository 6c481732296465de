import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { makeWav } from '../support/media'
import { ownClientAddress } from './support/accounts'
import { harness } from './support/harness'
import { expect, test } from './support/test'

// Uploaded media, in My Account and in a session. Each test puts its own files on a panel lent
// to it alone (the media factory, through the harness port), so the session on that panel plays
// exactly them. My Account lists every file there is, so its checks look for the test's names.

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

/** `text` as a regular expression that matches it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

interface PanelMedia {
  panelId: string
  /** The names My Account shows: the keys without `medias/`. */
  backing: string
  video: string
}

const it = test.extend<
  {
    /** Puts a backing track (and a video, unless `video: false`) on a panel lent to this test. */
    addPanelMedia: (options?: { video?: boolean }) => Promise<PanelMedia>
  },
  { webm: Buffer }
>({
  // Recorded once per worker; each test uploads it under a name of its own.
  webm: [
    async ({ browser }, use) => {
      const page = await browser.newPage()
      const webm = await recordWebm(page)
      await page.close()
      await use(webm)
    },
    { scope: 'worker' },
  ],
  addPanelMedia: async ({ webm }, use) => {
    const leases: string[] = []
    await use(async ({ video = true } = {}) => {
      const id = randomBytes(4).toString('hex')
      const files = [
        // 5 s at 22.05 kHz: about 220 KB, enough for a throttled download to show its progress.
        { name: `e2e-${id}-calm.wav`, base64: makeWav(5, 432, 22_050).toString('base64') },
        ...(video ? [{ name: `e2e-${id}-clip.webm`, base64: webm.toString('base64') }] : []),
      ]
      const { lease, panelId, media } = await harness('media', { files })
      leases.push(lease)
      const nameOf = (kind: string) =>
        media.find((item) => item.kind === kind)?.key.replace(/^medias\//, '') ?? ''
      return { panelId, backing: nameOf('backing'), video: nameOf('video') }
    })
    for (const lease of leases) await harness('media-release', { lease })
  },
})

it.use({ ...ownClientAddress, memberOptions: { access: true } })

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

it('My Account saves a media file for offline use with a progress bar, and removes it', async ({
  page,
  member: _,
  addPanelMedia,
}) => {
  const { backing } = await addPanelMedia({ video: false })
  await page.goto('/my-account')
  const card = page.getByTestId('offline-media')
  await expect(card.getByRole('heading', { name: 'Media for offline use' })).toBeVisible()
  await expect(card.getByTestId('media-item').filter({ hasText: backing })).toHaveCount(1)
  await expect(card.getByText('Nothing saved on this device yet.')).toBeVisible()

  const progress = await watchProgress(page)
  const unthrottle = await throttle(page, 80 * 1024)
  await card.getByRole('button', { name: `Save ${backing}` }).click()
  await expect(card.getByRole('progressbar')).toBeVisible()
  await expect(card.getByTestId('saved-media')).toContainText(backing)
  await unthrottle()
  const values = (await progress()).map(([, value]) => value)
  // A real bar: several steps of 5 %, never going back, ending at 100 %.
  expect(values.at(-1)).toBe(100)
  expect(values.length).toBeGreaterThanOrEqual(5)
  for (const [index, value] of values.entries()) {
    expect(value % 5).toBe(0)
    if (index > 0) expect(value).toBeGreaterThanOrEqual(values[index - 1] ?? 0)
  }
  await expect(card.getByTestId('saved-media')).toContainText(/kB/)
  await expect(card.getByRole('progressbar')).toHaveCount(0)

  // The copy is in Cache Storage under its key, byte for byte.
  const cachedSize = await page.evaluate(async (key) => {
    const cache = await caches.open('harmonize-media')
    const response = await cache.match(`/offline-media/${key}`)
    return response ? (await response.arrayBuffer()).byteLength : 0
  }, `medias/${backing}`)
  expect(cachedSize).toBe(44 + 5 * 22_050 * 2)

  await card.getByRole('button', { name: `Remove ${backing}` }).click()
  await expect(card.getByText('Nothing saved on this device yet.')).toBeVisible()
})

it('Save all fetches the backing tracks first; the session then uses the saved copies', async ({
  page,
  member: _,
  addPanelMedia,
}) => {
  const media = await addPanelMedia()
  await page.goto('/my-account')
  const card = page.getByTestId('offline-media')
  await expect(card.getByTestId('media-item').filter({ hasText: media.video })).toHaveCount(1)
  const progress = await watchProgress(page)
  await card.getByRole('button', { name: 'Save all' }).click()
  // The saved list is read again once every download has ended.
  const saved = card.getByTestId('saved-media')
  await expect(saved).toContainText(media.backing)
  await expect(saved).toContainText(media.video)
  await expect(card.getByRole('progressbar')).toHaveCount(0)
  // Other tests' files may be in the list too; every backing track comes before every video.
  const labels = [...new Set((await progress()).map(([label]) => label))]
  expect(labels).toEqual(
    expect.arrayContaining([`Saving ${media.backing}`, `Saving ${media.video}`]),
  )
  const isBacking = (label: string) => label.includes('WH_BackingTrack')
  expect(labels.findLastIndex(isBacking)).toBeLessThan(
    labels.findIndex((label) => !isBacking(label)),
  )

  await page.goto(`/harmonizing-screen/${media.panelId}`)
  const video = page.getByTestId('media-video')
  await expect(video).toHaveAttribute('src', /^blob:/)
  await expect(video).toBeVisible()
})

it('a session with an uploaded video and backing track plays and stops both', async ({
  page,
  member: _,
  addPanelMedia,
}) => {
  const media = await addPanelMedia()
  const backingRequest = page.waitForRequest((request) =>
    request.url().includes(`/api/media/medias/${media.backing}?`),
  )
  await page.goto(`/harmonizing-screen/${media.panelId}`)
  const video = page.getByTestId('media-video')
  await expect(video).toBeVisible()
  await expect(page.getByTestId('fractal-canvas')).toHaveCount(0)
  await expect(video).toHaveAttribute(
    'src',
    new RegExp(`/api/media/medias/${escaped(media.video)}\\?expires=`),
  )
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

it('a session streams the video when the device is slow to look for a saved copy', async ({
  page,
  member: _,
  addPanelMedia,
}) => {
  const media = await addPanelMedia()
  // A device whose media copies never answer, as Cache Storage once took eight seconds to open
  // on a busy machine while the Play button said 'Loading'.
  await page.addInitScript(() => {
    const open = caches.open.bind(caches)
    caches.open = (name) => (name === 'harmonize-media' ? new Promise(() => {}) : open(name))
  })
  await page.goto(`/harmonizing-screen/${media.panelId}`)
  const video = page.getByTestId('media-video')
  await expect(video).toHaveAttribute(
    'src',
    new RegExp(`/api/media/medias/${escaped(media.video)}\\?expires=`),
  )
  await expect(page.getByTestId('play')).toBeEnabled()
})

it('calm motion replaces an uploaded video with the calm generated picture', async ({
  page,
  member: _,
  addPanelMedia,
}) => {
  // A small window: the generated picture is drawn by software WebGL, and at full desktop size
  // a busy machine spends so long on each frame that clicks wait for seconds.
  await page.setViewportSize({ width: 640, height: 400 })
  const media = await addPanelMedia()
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
  await page.goto(`/harmonizing-screen/${media.panelId}`)
  const video = page.getByTestId('media-video')
  const canvas = page.getByTestId('fractal-canvas')
  await expect(video).toBeVisible()
  await page.getByTestId('play').click()
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false)
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
  // loop draws many more. Software WebGL on a busy machine can draw only a few frames a second.
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
