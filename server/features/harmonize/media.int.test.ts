import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BACKING_TRACK_MARKER } from '../../../domain/harmonize'
import { createSignedInUser } from '../../../tests/support/accounts'
import { makeWav, makeWebmHeader } from '../../../tests/support/media'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import { createCodes } from '../access/public'
import { addMedia, removeMedia, signMediaUrl } from './media'

let environment: TestEnvironment
let app: FastifyInstance
let cookie: string
const wav = makeWav(0.5)

beforeAll(async () => {
  environment = await createTestEnvironment()
  app = await environment.build()
  const user = await createSignedInUser(app)
  cookie = user.cookie
  const [code] = await createCodes(app.db, 1)
  const redeemed = await app.inject({
    method: 'POST',
    url: '/api/account/access-code',
    payload: { code },
    headers: { cookie },
  })
  expect(redeemed.statusCode).toBe(200)
  // The same service the operator command calls.
  await addMedia(app.db, app.storage, { name: 'tone.wav', data: wav, backing: true })
  await addMedia(app.db, app.storage, { name: 'shared.webm', data: makeWebmHeader(10) })
  await addMedia(app.db, app.storage, {
    name: 'digestion.webm',
    data: makeWebmHeader(20),
    panelId: '01',
  })
  await addMedia(app.db, app.storage, {
    name: 'sleep.webm',
    data: makeWebmHeader(30),
    panelId: '02',
  })
})

afterAll(async () => {
  await app.close()
  await environment.destroy()
})

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { 'accept-language': 'en', ...headers } })

interface Item {
  key: string
  url: string
  size: number
  contentType: string
}

async function sessionMedia(panelId: string) {
  const response = await get(`/api/harmonize/media?panelId=${panelId}`, { cookie })
  expect(response.statusCode).toBe(200)
  return response.json() as { video: Item | null; backing: Item | null; all: Item[] }
}

describe('media for a session', () => {
  it('needs a signed-in user with access (402 with the spec message)', async () => {
    expect((await get('/api/harmonize/media?panelId=01')).statusCode).toBe(401)
    const other = await createSignedInUser(app)
    const response = await get('/api/harmonize/media?panelId=01', { cookie: other.cookie })
    expect(response.statusCode).toBe(402)
    expect(response.json().message).toBe('Sorry, no payment found yet.')
  })

  it('gives the backing track (by its key marker), a video for the panel and every file', async () => {
    const media = await sessionMedia('01')
    expect(media.backing?.key).toBe(`medias/${BACKING_TRACK_MARKER}-tone.wav`)
    expect(media.backing).toMatchObject({ size: wav.length, contentType: 'audio/wav' })
    expect(media.all.map((item) => item.key).sort()).toEqual([
      `medias/${BACKING_TRACK_MARKER}-tone.wav`,
      'medias/digestion.webm',
      'medias/shared.webm',
      'medias/sleep.webm',
    ])
    // Panel 01 may get its own video or the shared one, never panel 02's; both come up.
    const picked = new Set<string>()
    for (let round = 0; round < 40; round++) picked.add((await sessionMedia('01')).video?.key ?? '')
    expect([...picked].sort()).toEqual(['medias/digestion.webm', 'medias/shared.webm'])
    const forThree = await sessionMedia('03')
    expect(forThree.video?.key).toBe('medias/shared.webm')
  })

  it('serves the bytes through a signed link, with ranges', async () => {
    const { backing } = await sessionMedia('01')
    const url = backing?.url ?? ''
    expect(url).toMatch(/^\/api\/media\/medias\/WH_BackingTrack-tone\.wav\?expires=\d+&signature=/)

    const whole = await get(url)
    expect(whole.statusCode).toBe(200)
    expect(whole.headers['content-type']).toBe('audio/wav')
    expect(whole.headers['accept-ranges']).toBe('bytes')
    expect(whole.headers['cache-control']).toBe('private, max-age=3600')
    expect(whole.rawPayload.equals(wav)).toBe(true)

    const part = await get(url, { range: 'bytes=0-9' })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 0-9/${wav.length}`)
    expect(part.rawPayload.equals(wav.subarray(0, 10))).toBe(true)

    const tail = await get(url, { range: 'bytes=-4' })
    expect(tail.statusCode).toBe(206)
    expect(tail.rawPayload.equals(wav.subarray(wav.length - 4))).toBe(true)

    const beyond = await get(url, { range: `bytes=${wav.length}-` })
    expect(beyond.statusCode).toBe(416)
    expect(beyond.headers['content-range']).toBe(`bytes */${wav.length}`)
  })

  it('streams a large file, with validators for caches and resumed downloads', async () => {
    const film = Buffer.concat([makeWebmHeader(40), Buffer.alloc(6 * 1024 * 1024, 7)])
    film.writeUInt32BE(0xdeadbeef, 5_000_000)
    const added = await addMedia(app.db, app.storage, { name: 'long.webm', data: film })
    const url = signMediaUrl(app.secrets.authSecret, added.key)

    const whole = await get(url)
    expect(whole.statusCode).toBe(200)
    expect(whole.headers['content-length']).toBe(String(film.length))
    expect(whole.rawPayload.equals(film)).toBe(true)
    const etag = String(whole.headers.etag)
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/)

    const middle = await get(url, { range: 'bytes=5000000-5000003' })
    expect(middle.statusCode).toBe(206)
    expect(middle.headers['content-length']).toBe('4')
    expect(middle.rawPayload.readUInt32BE(0)).toBe(0xdeadbeef)

    // A browser revalidating its copy gets no bytes; a changed file is sent again.
    const unchanged = await get(url, { 'if-none-match': `W/${etag}` })
    expect(unchanged.statusCode).toBe(304)
    expect(unchanged.rawPayload.length).toBe(0)
    expect((await get(url, { 'if-none-match': '"older"' })).statusCode).toBe(200)

    // Resuming a download: the range is honoured only for the same version of the file.
    const resumed = await get(url, { range: 'bytes=10-19', 'if-range': etag })
    expect(resumed.statusCode).toBe(206)
    const stale = await get(url, { range: 'bytes=10-19', 'if-range': '"older"' })
    expect(stale.statusCode).toBe(200)
    expect(stale.rawPayload.length).toBe(film.length)

    await removeMedia(app.db, app.storage, added.key)
  })

  it('refuses expired, tampered and unsigned links with 403', async () => {
    const key = `medias/${BACKING_TRACK_MARKER}-tone.wav`
    const past = Math.floor(Date.now() / 1000) - 1
    const expired = await get(signMediaUrl(app.secrets.authSecret, key, past))
    expect(expired.statusCode).toBe(403)
    expect(expired.json().message).toBe('This media link is not valid or has expired.')

    const url = signMediaUrl(app.secrets.authSecret, key)
    const tampered = url.replace(
      /signature=(.)/,
      (_, first) => `signature=${first === 'A' ? 'B' : 'A'}`,
    )
    expect((await get(tampered)).statusCode).toBe(403)
    // A signature for one file does not open another.
    expect((await get(url.replace('WH_BackingTrack-tone.wav', 'shared.webm'))).statusCode).toBe(403)
    expect((await get(`/api/media/${key}`)).statusCode).toBe(403)
    // A later expiry with the old signature is refused too.
    expect((await get(url.replace(/expires=\d+/, 'expires=9999999999'))).statusCode).toBe(403)
  })

  it('a link stops working after an hour', async () => {
    const { backing } = await sessionMedia('01')
    expect((await get(backing?.url ?? '')).statusCode).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 3601 * 1000)
      expect((await get(backing?.url ?? '')).statusCode).toBe(403)
    } finally {
      vi.useRealTimers()
    }
  })

  it('with no media files a session stays generative (nulls), and removed files are gone', async () => {
    const { all } = await sessionMedia('01')
    for (const item of all) expect(await removeMedia(app.db, app.storage, item.key)).toBe(true)
    expect(await sessionMedia('01')).toEqual({ video: null, backing: null, all: [] })
    expect(await app.storage.list('medias/')).toEqual([])
    const stale = all[0]?.url ?? ''
    expect((await get(stale)).statusCode).toBe(404)
  })
})

describe('adding media', () => {
  it('refuses files that are not a supported video or audio type', async () => {
    await expect(
      addMedia(app.db, app.storage, { name: 'notes.txt', data: Buffer.from('hello there') }),
    ).rejects.toMatchObject({ statusCode: 415, messageKey: 'media.unsupportedType' })
    await expect(
      addMedia(app.db, app.storage, { name: 'a.webm', data: makeWebmHeader(), backing: true }),
    ).rejects.toMatchObject({ messageKey: 'media.backingMustBeAudio' })
    await expect(
      addMedia(app.db, app.storage, { name: 'a.wav', data: wav, panelId: '99' }),
    ).rejects.toMatchObject({ statusCode: 404 })
  })

  it('makes unsafe names safe and keeps the marker once', async () => {
    const media = await addMedia(app.db, app.storage, {
      name: '../../My Song WH_BackingTrack.wav',
      data: wav,
    })
    expect(media.key).toBe('medias/My-Song-WH_BackingTrack.wav')
    expect(media.kind).toBe('backing')
    await removeMedia(app.db, app.storage, media.key)
  })
})
