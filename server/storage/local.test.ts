import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStored } from '../../tests/support/storage'
import { createLocalStorage } from './local'
import { assertValidKey, InvalidStorageKeyError, type Storage } from './storage'

describe('local file storage', () => {
  let root: string
  let storage: Storage

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'harmonize-storage-'))
    storage = createLocalStorage(path.join(root, 'files'))
  })

  afterEach(() => {
    rmSync(root, { recursive: true, force: true })
  })

  it('stores, reads, lists and deletes an object with its content type', async () => {
    const before = Date.now()
    await storage.put('avatars/user-1', Buffer.from('first picture'), 'image/webp')

    const stored = await storage.get('avatars/user-1')
    expect(stored?.data.toString()).toBe('first picture')
    expect(stored?.contentType).toBe('image/webp')
    expect(stored?.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(readFileSync(path.join(root, 'files', 'avatars', 'user-1'), 'utf8')).toBe(
      'first picture',
    )

    await storage.put('avatars/user-2', Buffer.from('second'), 'image/png')
    await storage.put('medias/song', Buffer.from('la la'), 'audio/mpeg')
    const listed = await storage.list('avatars/')
    expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([
      { key: 'avatars/user-1', size: 13 },
      { key: 'avatars/user-2', size: 6 },
    ])
    expect(listed[0]?.updatedAt).toBeInstanceOf(Date)
    expect((await storage.list('avatars/user-2')).map((item) => item.key)).toEqual([
      'avatars/user-2',
    ])
    expect((await storage.list('')).map((item) => item.key)).toEqual([
      'avatars/user-1',
      'avatars/user-2',
      'medias/song',
    ])

    await storage.delete('avatars/user-1')
    expect(await storage.get('avatars/user-1')).toBeNull()
    expect((await storage.list('avatars/')).map((item) => item.key)).toEqual(['avatars/user-2'])
    // Deleting again, or something that never existed, is not an error.
    await storage.delete('avatars/user-1')
    await storage.delete('nothing/here')
  })

  it('answers null and empty lists for what is not there', async () => {
    expect(await storage.get('avatars/nobody')).toBeNull()
    expect(await storage.list('avatars/')).toEqual([])
    await storage.put('avatars/user-1', Buffer.from('x'), 'image/webp')
    // A folder is not an object.
    expect(await storage.get('avatars')).toBeNull()
  })

  it('opens an object for streaming: whole, or a byte range, from the version that was opened', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, index) => index % 251))
    await storage.put('medias/film.webm', bytes, 'video/webm')
    expect(await storage.open('medias/nothing.webm')).toBeNull()
    const opened = (key: string) => openStored(storage, key)

    const whole = await opened('medias/film.webm')
    expect(whole).toMatchObject({ size: bytes.length, contentType: 'video/webm' })
    expect((await buffer(whole.stream())).equals(bytes)).toBe(true)

    const part = await opened('medias/film.webm')
    // An overwrite after opening does not change what this reader sends.
    await storage.put('medias/film.webm', Buffer.from('replaced'), 'video/webm')
    expect(part.size).toBe(bytes.length)
    const middle = await buffer(part.stream({ start: 100_000, end: 199_999 }))
    expect(middle.equals(bytes.subarray(100_000, 200_000))).toBe(true)

    // A reader that is not streamed is closed by hand.
    const unused = await opened('medias/film.webm')
    expect(unused.size).toBe(8)
    expect(unused.version).not.toBe(part.version)
    await unused.close()
  })

  it('replaces an object in one step and leaves no temporary files behind', async () => {
    await storage.put('avatars/user-1', Buffer.alloc(200_000, 1), 'image/png')
    // Readers racing the writes see either the old or the new bytes, never a mix or a stub.
    const writes = Array.from({ length: 8 }, (_, index) =>
      storage.put('avatars/user-1', Buffer.alloc(200_000, index + 2), 'image/webp'),
    )
    const reads = Array.from({ length: 40 }, () => storage.get('avatars/user-1'))
    const [, results] = await Promise.all([Promise.all(writes), Promise.all(reads)])
    for (const result of results) {
      expect(result?.data.length).toBe(200_000)
      const first = result?.data[0]
      expect(result?.data.every((byte) => byte === first)).toBe(true)
    }

    const final = await storage.get('avatars/user-1')
    expect(final?.contentType).toBe('image/webp')
    expect(readdirSync(path.join(root, 'files', 'avatars')).sort()).toEqual([
      'user-1',
      'user-1.meta.json',
    ])
  })

  it('stores a stream as it arrives; one that fails half-way leaves the old bytes and no temp file', async () => {
    async function* video(failAt?: number) {
      for (let i = 0; i < 8; i++) {
        if (i === failAt) throw new Error('the upload was cut')
        yield Buffer.alloc(64 * 1024, i + 1)
      }
    }
    await storage.put('medias/clip.webm', Readable.from(video()), 'video/webm')
    expect((await storage.get('medias/clip.webm'))?.data.length).toBe(8 * 64 * 1024)
    await expect(
      storage.put('medias/clip.webm', Readable.from(video(4)), 'video/webm'),
    ).rejects.toThrow('the upload was cut')
    await expect(
      storage.put('medias/clip.webm', Readable.from(video(2)), 'video/mp4'),
    ).rejects.toThrow('the upload was cut')
    const kept = await storage.get('medias/clip.webm')
    expect(kept?.data.length).toBe(8 * 64 * 1024)
    expect(kept?.contentType).toBe('video/webm')
    expect(kept?.data.at(-1)).toBe(8)
    await expect(
      storage.put('medias/new.webm', Readable.from(video(1)), 'video/webm'),
    ).rejects.toThrow('the upload was cut')
    expect(readdirSync(path.join(root, 'files', 'medias')).sort()).toEqual([
      'clip.webm',
      'clip.webm.meta.json',
    ])
  })

  it.each([
    ['../escape', 'parent folder'],
    ['avatars/../../etc/passwd', 'parent folder in the middle'],
    ['/etc/passwd', 'absolute path'],
    ['avatars\\user-1', 'backslash'],
    ['..\\..\\escape', 'windows traversal'],
    ['avatars/user\0.png', 'NUL byte'],
    ['', 'empty key'],
    ['avatars/', 'folder only'],
    ['avatars//user-1', 'empty segment'],
    ['avatars/./user-1', 'dot segment'],
    ['avatars/.hidden', 'hidden name'],
    ['avatars/user-1.meta.json', 'sidecar name'],
  ])('rejects the key %j (%s)', async (key) => {
    await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(
      InvalidStorageKeyError,
    )
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError)
    await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError)
    expect(existsSync(path.join(root, 'escape'))).toBe(false)
  })

  it('rejects list prefixes that could leave the store', async () => {
    for (const prefix of ['../', '/etc', 'avatars/../..', 'a\\b', 'a\0']) {
      await expect(storage.list(prefix)).rejects.toBeInstanceOf(InvalidStorageKeyError)
    }
    expect(() => assertValidKey('avatars/user-1')).not.toThrow()
    expect(() => assertValidKey('avatars/us', { prefix: true })).not.toThrow()
  })
})
