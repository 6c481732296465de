import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { OperatorMedia } from '../../../domain/harmonize'
import { makeWav, makeWebmHeader } from '../../../tests/support/media'
import { operatorCookie } from '../../../tests/support/operators'
import { setUpTestApp } from '../../../tests/support/test-app'
import { addMedia } from '../harmonize/public'

// The console's media: uploads streamed to storage as they arrive (a panel's video can be
// large), sniffed, listed and removed, each in the audit log.

const testApp = setUpTestApp()

const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex')

/** Uploads `body` over real HTTP, as the page's XMLHttpRequest does. */
async function upload(
  cookie: string,
  query: string,
  body: Buffer | Readable,
  headers: Record<string, string> = { 'content-type': 'application/octet-stream' },
) {
  const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => null)
  const base =
    address ?? `http://127.0.0.1:${(testApp.app.server.address() as { port: number }).port}`
  return fetch(`${base}/api/admin/media?${query}`, {
    method: 'POST',
    headers: { cookie, 'accept-language': 'en', ...headers },
    body: body instanceof Readable ? (Readable.toWeb(body) as ReadableStream) : body,
    duplex: 'half',
  } as RequestInit)
}

const listed = async (cookie: string): Promise<OperatorMedia[]> =>
  (await testApp.app.inject({ method: 'GET', url: '/api/admin/media', headers: { cookie } })).json()
    .media

describe('media in the console', () => {
  it('uploads a panel’s video as it is, lists it, and removes it; each in the log', async () => {
    const cookie = await operatorCookie(testApp.app)
    const video = makeWebmHeader(300_000)
    const answer = await upload(cookie, 'name=Sleep%20loop.webm&panelId=02', video)
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

  it('takes a backing track, and refuses what is not media, a video as backing, or no file at all', async () => {
    const cookie = await operatorCookie(testApp.app)
    const track = await upload(cookie, 'name=ocean.wav&backing=true', makeWav(0.2))
    expect(track.status).toBe(200)
    expect(((await track.json()) as { media: OperatorMedia }).media).toMatchObject({
      kind: 'backing',
      panelId: null,
    })

    const text = await upload(
      cookie,
      'name=notes.webm',
      Buffer.from('just some words, not a video'),
    )
    expect(text.status).toBe(415)
    expect(((await text.json()) as { message: string }).message).toBe(
      'This file type is not supported. Use an MP4 or WebM video, or an MP3, M4A, Ogg or WAV audio file.',
    )
    // A large refused file is answered in words too, and the connection stays usable.
    const bigText = await upload(cookie, 'name=big-notes.webm', Buffer.alloc(5_000_000, 0x61))
    expect(bigText.status).toBe(415)
    expect(((await bigText.json()) as { message: string }).message).toContain('not supported')
    const videoAsTrack = await upload(cookie, 'name=loop.webm&backing=true', makeWebmHeader(100))
    expect(videoAsTrack.status).toBe(400)
    const typed = await upload(cookie, 'name=a.webm', makeWebmHeader(100), {
      'content-type': 'video/webm',
    })
    expect(typed.status).toBe(415)
    const noPanel = await upload(cookie, 'name=a.webm&panelId=99', makeWebmHeader(100))
    expect(noPanel.status).toBe(404)
    const noName = await upload(cookie, 'panelId=01', makeWebmHeader(100))
    expect(noName.status).toBe(400)
    const keys = (await listed(cookie)).map((each) => each.key)
    for (const refused of ['notes.webm', 'loop.webm', 'a.webm']) {
      expect(keys).not.toContain(`medias/${refused}`)
      expect(await testApp.app.storage.get(`medias/${refused}`)).toBeNull()
    }
  })

  it('streams a large upload to storage without holding it in memory', async () => {
    const cookie = await operatorCookie(testApp.app)
    const chunk = Buffer.alloc(1024 * 1024, 0x5a)
    const megabytes = 200
    const hash = createHash('sha256')
    async function* video() {
      const head = makeWebmHeader(0)
      hash.update(head)
      yield head
      for (let i = 0; i < megabytes; i++) {
        hash.update(chunk)
        yield chunk
      }
    }
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }, 20)
    try {
      const answer = await upload(cookie, 'name=long.webm', Readable.from(video()))
      expect(answer.status, await answer.clone().text()).toBe(200)
      expect(((await answer.json()) as { media: OperatorMedia }).media.size).toBe(
        megabytes * chunk.length + 36,
      )
    } finally {
      clearInterval(sampler)
    }
    // Held whole, 200 MB would show at least once in the process's memory; streamed, a few
    // chunks are in flight at a time (the test's own sender shares this process).
    expect(peak - before).toBeLessThan(120 * 1024 * 1024)
    const reader = await testApp.app.storage.open('medias/long.webm')
    if (!reader) throw new Error('not stored')
    const stored = createHash('sha256')
    for await (const part of reader.stream()) stored.update(part as Buffer)
    expect(stored.digest('hex')).toBe(hash.digest('hex'))
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
