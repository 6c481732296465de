import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSignedInUser } from '../../tests/support/accounts'
import { makeWav, makeWebmHeader } from '../../tests/support/media'
import { startTestS3, type TestS3 } from '../../tests/support/s3'
import { openStored } from '../../tests/support/storage'
import { createTestEnvironment, type TestEnvironment } from '../../tests/support/test-app'
import { loadConfig } from '../config'
import { createCodes } from '../features/access/public'
import { addMedia, signMediaUrl } from '../features/harmonize/public'
import { createStorage } from './plugin'
import { parseStorageUrl } from './s3'
import { InvalidStorageKeyError, type Storage } from './storage'

let s3: TestS3
let storage: Storage

beforeAll(async () => {
  s3 = await startTestS3()
  storage = await createStorage(loadConfig({ DATA_DIR: s3.directory, ...s3.env }))
})

afterAll(async () => {
  await s3?.close()
})

describe('S3 storage (STORAGE_URL)', () => {
  it('reads the bucket and key prefix from the URL', () => {
    expect(parseStorageUrl('s3://files')).toEqual({ bucket: 'files', prefix: '' })
    expect(parseStorageUrl('s3://files/harmonize/prod/')).toEqual({
      bucket: 'files',
      prefix: 'harmonize/prod/',
    })
  })

  it('stores, reads, lists and deletes objects with their content type, under its prefix', async () => {
    await storage.put('avatars/user-1', Buffer.from('first picture'), 'image/webp')
    await storage.put('avatars/user-2', Buffer.from('second'), 'image/png')
    await storage.put('medias/song.wav', Buffer.from('la la'), 'audio/wav')

    const stored = await storage.get('avatars/user-1')
    expect(stored?.data.toString()).toBe('first picture')
    expect(stored?.contentType).toBe('image/webp')
    expect(stored?.updatedAt).toBeInstanceOf(Date)
    expect((await storage.list('avatars/')).map(({ key, size }) => ({ key, size }))).toEqual([
      { key: 'avatars/user-1', size: 13 },
      { key: 'avatars/user-2', size: 6 },
    ])

    // Another installation sharing the bucket under another prefix sees none of it.
    const neighbour = await createStorage(
      loadConfig({ ...s3.env, DATA_DIR: s3.directory, STORAGE_URL: `s3://${s3.bucket}/other` }),
    )
    expect(await neighbour.list('')).toEqual([])
    expect(await neighbour.get('avatars/user-1')).toBeNull()

    await storage.put('avatars/user-1', Buffer.from('newer'), 'image/avif')
    expect(await storage.get('avatars/user-1')).toMatchObject({ contentType: 'image/avif' })
    await storage.delete('avatars/user-1')
    await storage.delete('avatars/user-1')
    expect(await storage.get('avatars/user-1')).toBeNull()
    expect(await storage.open('avatars/user-1')).toBeNull()
    expect((await storage.list('')).map((item) => item.key)).toEqual([
      'avatars/user-2',
      'medias/song.wav',
    ])
  })

  it('stores a stream in parts as it arrives, and keeps nothing of one that fails half-way', async () => {
    // Larger than one part (5 MB), so it goes up as a multipart upload.
    const part = Buffer.alloc(1024 * 1024, 7)
    async function* film(failAt?: number) {
      for (let i = 0; i < 12; i++) {
        if (i === failAt) throw new Error('the upload was cut')
        yield part
      }
    }
    await storage.put('medias/streamed.webm', Readable.from(film()), 'video/webm')
    const stored = await storage.get('medias/streamed.webm')
    expect(stored?.data.length).toBe(12 * part.length)
    expect(stored?.contentType).toBe('video/webm')

    // The SDK then aborts the multipart upload; the test server cannot (it answers that abort
    // with MethodNotAllowed, which is what surfaces here), but keeps no object either.
    await expect(
      storage.put('medias/cut.webm', Readable.from(film(7)), 'video/webm'),
    ).rejects.toThrow()
    expect(await storage.get('medias/cut.webm')).toBeNull()
    // What was there stays when its replacement fails.
    await expect(
      storage.put('medias/streamed.webm', Readable.from(film(3)), 'video/webm'),
    ).rejects.toThrow()
    expect((await storage.get('medias/streamed.webm'))?.data.length).toBe(12 * part.length)
  })

  it('streams an object whole or by byte range, and never mixes two versions', async () => {
    const film = Buffer.from(Array.from({ length: 400_000 }, (_, index) => index % 253))
    await storage.put('medias/film.webm', film, 'video/webm')

    const opened = (key: string) => openStored(storage, key)
    const reader = await opened('medias/film.webm')
    expect(reader).toMatchObject({ size: film.length, contentType: 'video/webm' })
    expect((await buffer(reader.stream())).equals(film)).toBe(true)
    const middle = await buffer(reader.stream({ start: 200_000, end: 200_099 }))
    expect(middle.equals(film.subarray(200_000, 200_100))).toBe(true)

    // Replaced after it was opened: the reader fails rather than sending the new bytes under
    // the old size.
    const stale = await opened('medias/film.webm')
    await storage.put('medias/film.webm', Buffer.from('replaced'), 'video/webm')
    await expect(buffer(stale.stream())).rejects.toThrow(/changed after it was opened/)
    const fresh = await opened('medias/film.webm')
    expect(fresh.version).not.toBe(stale.version)
    await fresh.close()
  })

  it('refuses keys that could leave its prefix', async () => {
    for (const key of ['../escape', '/etc/passwd', 'avatars/../../x', 'a\\b']) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(
        InvalidStorageKeyError,
      )
    }
    await expect(storage.list('../')).rejects.toBeInstanceOf(InvalidStorageKeyError)
  })
})

describe('the app on S3 storage', () => {
  let environment: TestEnvironment
  let app: FastifyInstance

  beforeAll(async () => {
    environment = await createTestEnvironment(s3.env)
    app = await environment.build()
  })

  afterAll(async () => {
    await app?.close()
    await environment?.destroy()
  })

  it('keeps media in the bucket and serves it through signed links with ranges', async () => {
    const user = await createSignedInUser(app)
    const [code] = await createCodes(app.db, 1)
    await app.inject({
      method: 'POST',
      url: '/api/account/access-code',
      payload: { code },
      headers: { cookie: user.cookie },
    })
    const wav = makeWav(0.25)
    const backing = await addMedia(app.db, app.storage, {
      name: 'tone.wav',
      data: wav,
      backing: true,
    })
    await addMedia(app.db, app.storage, { name: 'clip.webm', data: makeWebmHeader(12) })
    expect((await storage.list('medias/')).map((item) => item.key)).toContain(backing.key)

    const media = await app.inject({
      method: 'GET',
      url: '/api/harmonize/media?panelId=01',
      headers: { cookie: user.cookie },
    })
    expect(media.statusCode).toBe(200)
    expect(media.json().video.key).toBe('medias/clip.webm')

    const url = signMediaUrl(app.secrets.authSecret, backing.key)
    const whole = await app.inject({ method: 'GET', url })
    expect(whole.statusCode).toBe(200)
    expect(whole.headers['content-type']).toBe('audio/wav')
    expect(whole.rawPayload.equals(wav)).toBe(true)
    const part = await app.inject({ method: 'GET', url, headers: { range: 'bytes=44-99' } })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 44-99/${wav.length}`)
    expect(part.rawPayload.equals(wav.subarray(44, 100))).toBe(true)
  })
})
