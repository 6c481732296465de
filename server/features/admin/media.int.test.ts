import { createHash, randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { mediaUploads } from '../../../db/schema/admin'
import type { OperatorMedia } from '../../../domain/harmonize'
import { MEDIA_PART_BYTES, type MediaUpload } from '../../../domain/media-uploads'
import { makeWav, makeWebmHeader } from '../../../tests/support/media'
import { operatorCookie } from '../../../tests/support/operators'
import { setUpTestApp } from '../../../tests/support/test-app'
import { addMedia } from '../harmonize/public'
import { dropAbandonedUploads } from './media-uploads'

// The console's media: uploads sent in parts, sniffed at the first, put together as a stream
// (a panel's video can be large), listed and removed, each in the audit log.

const testApp = setUpTestApp()

const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex')

type Target = { name: string; panelId?: string | null; backing?: boolean }

let base: string | undefined
/** Real HTTP, as the page sends its parts (a part is up to 8 MB). */
async function call(
  cookie: string,
  method: string,
  url: string,
  body?: Buffer | object,
  language = 'en',
) {
  base ??=
    (await testApp.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => null)) ??
    `http://127.0.0.1:${(testApp.app.server.address() as { port: number }).port}`
  const binary = Buffer.isBuffer(body)
  return fetch(`${base}${url}`, {
    method,
    headers: {
      cookie,
      'accept-language': language,
      ...(body === undefined
        ? {}
        : { 'content-type': binary ? 'application/octet-stream' : 'application/json' }),
    },
    body: body === undefined ? undefined : binary ? body : JSON.stringify(body),
  })
}

async function start(cookie: string, target: Target, size: number, language = 'en') {
  const answer = await call(
    cookie,
    'POST',
    '/api/admin/media/uploads',
    { panelId: null, backing: false, ...target, size },
    language,
  )
  return {
    answer,
    upload: answer.ok ? ((await answer.json()) as { upload: MediaUpload }).upload : null,
  }
}

const sendPart = (cookie: string, id: string, index: number, part: Buffer) =>
  call(cookie, 'PUT', `/api/admin/media/uploads/${id}/parts/${index}`, part)

/** Sends `file` as the page does: opened, in parts, put together; the last answer. */
async function upload(cookie: string, target: Target, file: Buffer) {
  const { answer, upload } = await start(cookie, target, file.length)
  if (!upload) return answer
  for (let index = 0; index < upload.parts; index++) {
    const part = file.subarray(index * upload.partBytes, (index + 1) * upload.partBytes)
    const sent = await sendPart(cookie, upload.id, index, part)
    if (!sent.ok) return sent
  }
  return call(cookie, 'POST', `/api/admin/media/uploads/${upload.id}/complete`)
}

const message = async (answer: Response) => ((await answer.json()) as { message: string }).message

const listed = async (cookie: string): Promise<OperatorMedia[]> =>
  (await testApp.app.inject({ method: 'GET', url: '/api/admin/media', headers: { cookie } })).json()
    .media

/** Parts waiting in storage, of any upload. */
const waiting = async () => (await testApp.app.storage.list('uploads/')).map((part) => part.key)

describe('media in the console', () => {
  it('uploads a panel’s video in parts, lists it, and removes it; each in the log', async () => {
    const cookie = await operatorCookie(testApp.app)
    // Two whole parts and a short third.
    const video = makeWebmHeader(2 * MEDIA_PART_BYTES + 1000)
    const { upload: opened } = await start(cookie, { name: 'probe.webm' }, video.length)
    expect(opened).toMatchObject({ partBytes: MEDIA_PART_BYTES, parts: 3 })
    await call(cookie, 'DELETE', `/api/admin/media/uploads/${opened?.id}`)

    const answer = await upload(cookie, { name: 'Sleep loop.webm', panelId: '02' }, video)
    expect(answer.status, await answer.clone().text()).toBe(200)
    const { media } = (await answer.json()) as { media: OperatorMedia }
    expect(media).toMatchObject({
      key: 'medias/Sleep-loop.webm',
      kind: 'video',
      panelId: '02',
      contentType: 'video/webm',
      size: video.length,
    })
    expect((await listed(cookie)).map((each) => each.key)).toContain('medias/Sleep-loop.webm')
    const stored = await testApp.app.storage.get('medias/Sleep-loop.webm')
    expect(stored && digest(stored.data)).toBe(digest(video))
    expect(await waiting()).toEqual([])

    const removed = await testApp.app.inject({
      method: 'POST',
      url: '/api/admin/media/remove',
      headers: { cookie },
      payload: { key: 'medias/Sleep-loop.webm' },
    })
    expect(removed.statusCode).toBe(200)
    expect(await testApp.app.storage.get('medias/Sleep-loop.webm')).toBeNull()
    expect((await listed(cookie)).map((each) => each.key)).not.toContain('medias/Sleep-loop.webm')
    const again = await testApp.app.inject({
      method: 'POST',
      url: '/api/admin/media/remove',
      headers: { cookie, 'accept-language': 'en' },
      payload: { key: 'medias/Sleep-loop.webm' },
    })
    expect(again.statusCode).toBe(404)

    const log = (
      await testApp.app.inject({ method: 'GET', url: '/api/admin/audit', headers: { cookie } })
    ).json()
    expect(log.entries.slice(0, 2)).toMatchObject([
      { action: 'media.remove', before: { key: 'medias/Sleep-loop.webm', panel: '02' } },
      { action: 'media.add', after: { key: 'medias/Sleep-loop.webm', kind: 'video' } },
    ])
  })

  it('takes a backing track, and refuses what is not media (at its first part), a video as backing, a missing panel or name', async () => {
    const cookie = await operatorCookie(testApp.app)
    const track = await upload(cookie, { name: 'ocean.wav', backing: true }, makeWav(0.2))
    expect(track.status).toBe(200)
    expect(((await track.json()) as { media: OperatorMedia }).media).toMatchObject({
      kind: 'backing',
      panelId: null,
    })

    // A large file that is not media is refused at its first part, and its upload is dropped.
    const words = Buffer.alloc(MEDIA_PART_BYTES + 10, 0x61)
    const { upload: notes } = await start(cookie, { name: 'notes.webm' }, words.length)
    if (!notes) throw new Error('not opened')
    const text = await sendPart(cookie, notes.id, 0, words.subarray(0, MEDIA_PART_BYTES))
    expect(text.status).toBe(415)
    expect(await message(text)).toBe(
      'This file type is not supported. Use an MP4 or WebM video, or an MP3, M4A, Ogg or WAV audio file.',
    )
    const rest = await sendPart(cookie, notes.id, 1, words.subarray(MEDIA_PART_BYTES))
    expect(rest.status).toBe(404)
    expect(await message(rest)).toBe('This upload is no longer open. Please start it again.')

    const videoAsTrack = await upload(
      cookie,
      { name: 'loop.webm', backing: true },
      makeWebmHeader(100),
    )
    expect(videoAsTrack.status).toBe(400)
    expect(await message(videoAsTrack)).toBe('A backing track must be an audio file.')
    const noPanel = await start(cookie, { name: 'a.webm', panelId: '99' }, 136)
    expect(noPanel.answer.status).toBe(404)
    const noName = await start(cookie, { name: '  ' }, 136)
    expect(noName.answer.status).toBe(400)
    const badName = await start(cookie, { name: '...' }, 136)
    expect(badName.answer.status).toBe(400)
    const tooLarge = await start(cookie, { name: 'huge.webm' }, 2 * 1024 ** 3 + 1, 'es')
    expect(tooLarge.answer.status).toBe(400)
    expect(((await tooLarge.answer.json()) as { issues: unknown[] }).issues).toEqual([
      {
        field: 'body.size',
        message: 'Este archivo es demasiado grande: un archivo multimedia puede ocupar hasta 2 GB.',
      },
    ])
    const keys = (await listed(cookie)).map((each) => each.key)
    for (const refused of ['notes.webm', 'loop.webm', 'a.webm', 'huge.webm']) {
      expect(keys).not.toContain(`medias/${refused}`)
      expect(await testApp.app.storage.get(`medias/${refused}`)).toBeNull()
    }
    expect(await waiting()).toEqual([])
  })

  it('takes only whole parts of the operator’s own upload, and puts together only a complete file', async () => {
    const cookie = await operatorCookie(testApp.app)
    const video = makeWebmHeader(MEDIA_PART_BYTES + 500)
    const { upload: opened } = await start(cookie, { name: 'parts.webm' }, video.length)
    if (!opened) throw new Error('not opened')
    const first = video.subarray(0, MEDIA_PART_BYTES)
    const last = video.subarray(MEDIA_PART_BYTES)

    const short = await sendPart(cookie, opened.id, 0, first.subarray(1))
    expect(short.status).toBe(400)
    expect(await message(short)).toBe(
      'A part of this upload did not arrive whole. Please start it again.',
    )
    expect((await sendPart(cookie, opened.id, 2, last)).status).toBe(400)
    expect((await sendPart(cookie, opened.id, 1, first)).status).toBe(400)
    // Larger than any part may be: refused before it is read whole.
    expect((await sendPart(cookie, opened.id, 0, Buffer.concat([first, last]))).status).toBe(413)
    const typed = await fetch(`${base}/api/admin/media/uploads/${opened.id}/parts/0`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'video/webm' },
      body: first,
    })
    expect(typed.status).toBe(415)

    // Another operator cannot add to it, finish it or stop it.
    const other = await operatorCookie(testApp.app)
    expect((await sendPart(other, opened.id, 0, first)).status).toBe(404)
    expect(
      (await call(other, 'POST', `/api/admin/media/uploads/${opened.id}/complete`)).status,
    ).toBe(404)
    await call(other, 'DELETE', `/api/admin/media/uploads/${opened.id}`)

    // Sent again, a part replaces itself; finishing with one missing keeps nothing.
    expect((await sendPart(cookie, opened.id, 0, first)).status).toBe(200)
    expect((await sendPart(cookie, opened.id, 0, first)).status).toBe(200)
    const missing = await call(cookie, 'POST', `/api/admin/media/uploads/${opened.id}/complete`)
    expect(missing.status).toBe(409)
    expect(await message(missing)).toBe(
      'Some parts of this upload did not arrive. Please start it again.',
    )
    expect(await testApp.app.storage.get('medias/parts.webm')).toBeNull()
    expect(await waiting()).toEqual([])
    expect((await sendPart(cookie, opened.id, 1, last)).status).toBe(404)
  })

  it('stops an upload: its parts are deleted and it can no longer be finished', async () => {
    const cookie = await operatorCookie(testApp.app)
    const video = makeWebmHeader(MEDIA_PART_BYTES + 500)
    const { upload: opened } = await start(cookie, { name: 'stopped.webm' }, video.length)
    if (!opened) throw new Error('not opened')
    expect((await sendPart(cookie, opened.id, 0, video.subarray(0, MEDIA_PART_BYTES))).status).toBe(
      200,
    )
    expect(await waiting()).toHaveLength(1)
    const stopped = await call(cookie, 'DELETE', `/api/admin/media/uploads/${opened.id}`)
    expect(stopped.status).toBe(200)
    expect(await waiting()).toEqual([])
    expect(
      (await call(cookie, 'POST', `/api/admin/media/uploads/${opened.id}/complete`)).status,
    ).toBe(404)
    // Stopping twice is no error: the page may send it as the upload ends.
    expect((await call(cookie, 'DELETE', `/api/admin/media/uploads/${opened.id}`)).status).toBe(200)
  })

  it('drops uploads left for a day, and parts no upload owns, when another starts', async () => {
    const cookie = await operatorCookie(testApp.app)
    const video = makeWebmHeader(MEDIA_PART_BYTES + 500)
    const { upload: left } = await start(cookie, { name: 'left.webm' }, video.length)
    if (!left) throw new Error('not opened')
    await sendPart(cookie, left.id, 0, video.subarray(0, MEDIA_PART_BYTES))
    const orphan = `uploads/${randomUUID()}/00000`
    await testApp.app.storage.put(orphan, Buffer.from('left by a stopped server'), 'text/plain')

    // A fresh upload (and a fresh orphan part) are kept.
    await dropAbandonedUploads(testApp.app)
    expect(await waiting()).toHaveLength(2)
    // A day on, both are gone.
    await testApp.app.db
      .update(mediaUploads)
      .set({ updatedAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(mediaUploads.id, left.id))
    await dropAbandonedUploads(testApp.app, new Date(Date.now() + 2 * 60 * 60_000))
    expect(await waiting()).toEqual([])
    expect((await sendPart(cookie, left.id, 1, video.subarray(MEDIA_PART_BYTES))).status).toBe(404)
  })

  it('keeps a file being put together from the clean-up, and takes no part for it', async () => {
    const cookie = await operatorCookie(testApp.app)
    const video = makeWebmHeader(MEDIA_PART_BYTES + 500)
    const { upload: joining } = await start(cookie, { name: 'joining.webm' }, video.length)
    if (!joining) throw new Error('not opened')
    await sendPart(cookie, joining.id, 0, video.subarray(0, MEDIA_PART_BYTES))
    // As while `complete` reads its parts: claimed a moment ago, its parts sent long before.
    await testApp.app.db
      .update(mediaUploads)
      .set({ claimedAt: new Date(), updatedAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(mediaUploads.id, joining.id))
    await dropAbandonedUploads(testApp.app, new Date(Date.now() + 2 * 60 * 60_000))
    expect(await waiting()).toHaveLength(1)
    // A part arriving now (sent before a Stop, or late) is refused and not kept; Stop does nothing.
    const late = await sendPart(cookie, joining.id, 1, video.subarray(MEDIA_PART_BYTES))
    expect(late.status).toBe(404)
    await call(cookie, 'DELETE', `/api/admin/media/uploads/${joining.id}`)
    expect(await waiting()).toHaveLength(1)
    await testApp.app.db.delete(mediaUploads).where(eq(mediaUploads.id, joining.id))
    await dropAbandonedUploads(testApp.app, new Date(Date.now() + 2 * 60 * 60_000))
    expect(await waiting()).toEqual([])
  })

  it('puts a large upload together as a stream, without holding it in memory', async () => {
    const cookie = await operatorCookie(testApp.app)
    // 200 MB, a whole number of parts (the last is full too).
    const parts = 50
    const size = parts * MEDIA_PART_BYTES
    const hash = createHash('sha256')
    const { upload: opened } = await start(cookie, { name: 'long.webm' }, size)
    if (!opened) throw new Error('not opened')
    expect(opened.parts).toBe(parts)
    for (let index = 0; index < parts; index++) {
      const length = index < parts - 1 ? MEDIA_PART_BYTES : size - index * MEDIA_PART_BYTES
      const part = index === 0 ? makeWebmHeader(length - 36) : Buffer.alloc(length, index)
      hash.update(part)
      expect((await sendPart(cookie, opened.id, index, part)).status).toBe(200)
    }
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }, 20)
    try {
      const answer = await call(cookie, 'POST', `/api/admin/media/uploads/${opened.id}/complete`)
      expect(answer.status, await answer.clone().text()).toBe(200)
      expect(((await answer.json()) as { media: OperatorMedia }).media.size).toBe(size)
    } finally {
      clearInterval(sampler)
    }
    // Held whole, 200 MB would show at least once in the process's memory; streamed, a few
    // chunks are in flight at a time.
    expect(peak - before).toBeLessThan(120 * 1024 * 1024)
    const reader = await testApp.app.storage.open('medias/long.webm')
    if (!reader) throw new Error('not stored')
    const stored = createHash('sha256')
    for await (const part of reader.stream()) stored.update(part as Buffer)
    expect(stored.digest('hex')).toBe(hash.digest('hex'))
    expect(await waiting()).toEqual([])
  })

  it('stops at the size limit, and keeps nothing of what it read', async () => {
    async function* tooLong() {
      yield makeWebmHeader(0)
      for (let i = 0; i < 10; i++) yield Buffer.alloc(64 * 1024, 1)
    }
    await expect(
      addMedia(
        testApp.app.db,
        testApp.app.storage,
        { name: 'too-long.webm', data: Readable.from(tooLong()) },
        { maxBytes: 256 * 1024 },
      ),
    ).rejects.toMatchObject({ statusCode: 413, messageKey: 'media.tooLarge' })
    expect(await testApp.app.storage.get('medias/too-long.webm')).toBeNull()
  })
})
