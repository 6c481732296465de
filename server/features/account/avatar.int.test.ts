import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { users } from '../../../db/schema/auth'
import { avatarUrl } from '../../../domain/avatar'
import { IMAGE_MAX_BYTES } from '../../../domain/images'
import { messageText } from '../../../domain/messages'
import { createSignedInUser } from '../../../tests/support/accounts'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import { translate } from '../../i18n'

const AVATAR = '/api/account/avatar'

/** A solid picture of the given colour and size. */
function solid(width: number, height: number, background: string) {
  return sharp({ create: { width, height, channels: 3, background } })
}

/**
 * An 800×600 photo, left half red and right half blue, whose EXIF says "turn me 90° clockwise"
 * and which carries a camera make and copyright line: after upload, red must be on top and
 * no metadata may be left.
 */
async function photoWithExif(): Promise<Buffer> {
  const left = await solid(400, 600, '#ff0000').png().toBuffer()
  return solid(800, 600, '#0000ff')
    .composite([{ input: left, left: 0, top: 0 }])
    .withMetadata({
      orientation: 6,
      exif: { IFD0: { Make: 'TestCam', Copyright: 'Secret Owner' } },
    })
    .png()
    .toBuffer()
}

async function pixel(image: Buffer, x: number, y: number) {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * info.channels
  return { r: data[at] ?? 0, g: data[at + 1] ?? 0, b: data[at + 2] ?? 0 }
}

describe('member avatar', () => {
  let env: TestEnvironment
  let app: FastifyInstance

  beforeAll(async () => {
    env = await createTestEnvironment()
    app = await env.build()
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  const upload = (cookie: string | undefined, payload: Buffer, contentType = 'image/png') =>
    app.inject({
      method: 'PUT',
      url: AVATAR,
      payload,
      headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) },
    })

  const download = (cookie: string | undefined, url = AVATAR) =>
    app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })

  it('stores an upload as a clean, upright 512×512 WebP and shows it in the session', async () => {
    const { user, cookie } = await createSignedInUser(app, { name: 'Ada Lovelace' })
    const photo = await photoWithExif()
    expect((await sharp(photo).metadata()).exif).toBeDefined()

    const before = Date.now()
    const response = await upload(cookie, photo)
    expect(response.statusCode).toBe(200)
    const { avatarUpdatedAt } = response.json()
    expect(new Date(avatarUpdatedAt).getTime()).toBeGreaterThanOrEqual(before)

    const session = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })
    expect(session.json().user).toMatchObject({ id: user.id, avatarUpdatedAt })
    const [row] = await app.db.select().from(users).where(eq(users.id, user.id))
    expect(row?.avatarKey).toBe(`avatars/${user.id}`)

    const picture = await download(cookie, avatarUrl(avatarUpdatedAt))
    expect(picture.statusCode).toBe(200)
    expect(picture.headers['content-type']).toBe('image/webp')
    expect(picture.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    const metadata = await sharp(picture.rawPayload).metadata()
    expect(metadata).toMatchObject({ format: 'webp', width: 512, height: 512 })
    expect(metadata.exif).toBeUndefined()
    expect(metadata.xmp).toBeUndefined()
    expect(metadata.icc).toBeUndefined()
    expect(metadata.orientation).toBeUndefined()
    expect(picture.rawPayload.includes('Secret Owner')).toBe(false)
    expect(picture.rawPayload.includes('TestCam')).toBe(false)

    // Turned upright by its EXIF: the left (red) half is now the top.
    const top = await pixel(picture.rawPayload, 256, 20)
    const bottom = await pixel(picture.rawPayload, 256, 490)
    expect(top.r).toBeGreaterThan(200)
    expect(top.b).toBeLessThan(60)
    expect(bottom.b).toBeGreaterThan(200)
    expect(bottom.r).toBeLessThan(60)
  })

  it('caches a version for good only when it is the current one', async () => {
    const { cookie } = await createSignedInUser(app)
    const { avatarUpdatedAt } = (
      await upload(cookie, await solid(64, 64, '#00ff00').png().toBuffer())
    ).json()

    expect((await download(cookie)).headers['cache-control']).toBe('private, no-cache')
    const stale = await download(cookie, avatarUrl('2001-01-01T00:00:00.000Z'))
    expect(stale.statusCode).toBe(200)
    expect(stale.headers['cache-control']).toBe('private, no-cache')
    expect((await download(cookie, avatarUrl(avatarUpdatedAt))).headers['cache-control']).toBe(
      'private, max-age=31536000, immutable',
    )
  })

  it('accepts JPEG, WebP, GIF and AVIF sent as application/octet-stream', async () => {
    const { cookie } = await createSignedInUser(app)
    for (const image of [
      await solid(300, 200, '#123456').jpeg().toBuffer(),
      await solid(300, 200, '#123456').webp().toBuffer(),
      await solid(300, 200, '#123456').gif().toBuffer(),
      await solid(300, 200, '#123456').avif().toBuffer(),
    ]) {
      const response = await upload(cookie, image, 'application/octet-stream')
      expect(response.statusCode).toBe(200)
    }
  })

  it('replaces the previous picture with the newest upload', async () => {
    const { cookie } = await createSignedInUser(app)
    const first = (await upload(cookie, await solid(100, 100, '#ff0000').png().toBuffer())).json()
    // Timestamps have milliseconds: the next upload must come after the clock has moved on.
    await vi.waitUntil(() => Date.now() > Date.parse(first.avatarUpdatedAt), { interval: 1 })
    const second = (await upload(cookie, await solid(100, 100, '#0000ff').png().toBuffer())).json()
    expect(second.avatarUpdatedAt > first.avatarUpdatedAt).toBe(true)

    const session = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })
    expect(session.json().user.avatarUpdatedAt).toBe(second.avatarUpdatedAt)
    const picture = await download(cookie, avatarUrl(second.avatarUpdatedAt))
    const centre = await pixel(picture.rawPayload, 256, 256)
    expect(centre.b).toBeGreaterThan(200)
    expect(centre.r).toBeLessThan(60)
    expect((await app.storage.list('avatars/')).length).toBeGreaterThan(0)
  })

  it('refuses a text file sent as an image, in the user’s language', async () => {
    const { cookie } = await createSignedInUser(app)
    const text = Buffer.from('just some notes, renamed to picture.png\n'.repeat(20))
    const response = await upload(cookie, text, 'image/png')
    expect(response.statusCode).toBe(415)
    expect(response.json()).toMatchObject({
      statusCode: 415,
      message: 'Please choose an image file (JPEG, PNG, WebP, GIF or AVIF).',
    })

    const spanish = await app.inject({
      method: 'PUT',
      url: AVATAR,
      payload: text,
      headers: { 'content-type': 'image/png', 'accept-language': 'es', cookie },
    })
    expect(spanish.statusCode).toBe(415)
    expect(spanish.json().message).toBe(messageText('image.unsupportedType', 'es'))
  })

  it('refuses a PDF, SVG, an empty body and non-image content types', async () => {
    const { cookie } = await createSignedInUser(app)
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    )
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    )
    const expected = translate('image.unsupportedType', 'en')
    for (const [payload, type] of [
      [pdf, 'image/png'],
      [pdf, 'application/pdf'],
      [svg, 'image/svg+xml'],
      [Buffer.alloc(0), 'image/png'],
      [Buffer.from('{"a":1}'), 'application/json'],
      [Buffer.from('hello'), 'text/plain'],
    ] as const) {
      const response = await upload(cookie, payload, type)
      expect(response.statusCode, `${type}: ${payload.subarray(0, 8)}`).toBe(415)
      expect(response.json().message).toBe(expected)
    }
    const session = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })
    expect(session.json().user.avatarUpdatedAt).toBeNull()

    // Only this route lost its JSON parser: the rest of the API still reads JSON bodies.
    const language = await app.inject({
      method: 'PUT',
      url: '/api/account/language',
      payload: { language: 'es' },
      headers: { cookie },
    })
    expect(language.statusCode).toBe(200)
  })

  it('refuses a body over 5 MB with a clear message', async () => {
    const { cookie } = await createSignedInUser(app)
    const huge = Buffer.alloc(IMAGE_MAX_BYTES + 1, 0)
    // A real PNG signature, so only the size can be the reason.
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(huge)
    const response = await upload(cookie, huge)
    expect(response.statusCode).toBe(413)
    expect(response.json()).toMatchObject({
      statusCode: 413,
      message: translate('image.tooLarge', 'en'),
    })
  })

  it('refuses a picture wider than 10000 px with a clear message', async () => {
    const { cookie } = await createSignedInUser(app)
    const wide = await solid(12_000, 10, '#ffffff').png().toBuffer()
    const response = await upload(cookie, wide)
    expect(response.statusCode).toBe(422)
    expect(response.json().message).toBe(translate('image.tooManyPixels', 'en'))
  })

  it('refuses a damaged picture', async () => {
    const { cookie } = await createSignedInUser(app)
    const png = await solid(200, 200, '#ff00ff').png().toBuffer()
    const response = await upload(cookie, png.subarray(0, 60))
    expect(response.statusCode).toBe(422)
    expect(response.json().message).toBe(translate('image.unreadable', 'en'))
  })

  it('asks a visitor to sign in on both routes', async () => {
    const png = await solid(10, 10, '#000000').png().toBuffer()
    const put = await upload(undefined, png)
    expect(put.statusCode).toBe(401)
    expect(put.json().message).toBe(translate('auth.signInRequired', 'en'))
    const get = await download(undefined)
    expect(get.statusCode).toBe(401)
    expect(get.json().message).toBe(translate('auth.signInRequired', 'en'))
  })

  it('never shows one member’s picture to another', async () => {
    const a = await createSignedInUser(app)
    const b = await createSignedInUser(app)
    const aPicture = await solid(100, 100, '#ff0000').png().toBuffer()
    const { avatarUpdatedAt } = (await upload(a.cookie, aPicture)).json()

    // B has none yet: B's own 404, whatever version is asked for.
    const none = await download(b.cookie, avatarUrl(avatarUpdatedAt))
    expect(none.statusCode).toBe(404)
    expect(none.json()).toMatchObject({
      statusCode: 404,
      message: translate('errors.notFound', 'en'),
    })

    // Once B has one, B gets B's own.
    await upload(b.cookie, await solid(100, 100, '#0000ff').png().toBuffer())
    const own = await download(b.cookie, avatarUrl(avatarUpdatedAt))
    expect(own.statusCode).toBe(200)
    const aBytes = (await download(a.cookie)).rawPayload
    expect(own.rawPayload.equals(aBytes)).toBe(false)
    expect((await pixel(own.rawPayload, 256, 256)).b).toBeGreaterThan(200)

    // The user id in the query or path reaches nothing.
    const byId = await app.inject({
      method: 'GET',
      url: `${AVATAR}/${a.user.id}`,
      headers: { cookie: b.cookie },
    })
    expect(byId.statusCode).toBe(404)
  })

  it('limits uploads to 20 an hour per member', async () => {
    const { cookie } = await createSignedInUser(app)
    const junk = Buffer.from('not a picture')
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await upload(cookie, junk)).statusCode).toBe(415)
    }
    const refused = await upload(cookie, await solid(10, 10, '#000000').png().toBuffer())
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
  })
})
