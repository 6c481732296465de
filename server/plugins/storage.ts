import { randomBytes } from 'node:crypto'
import type { Dirent } from 'node:fs'
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
} from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import fp from 'fastify-plugin'
import { type Config, ConfigError } from '../config'

/** One stored object as a listing shows it. */
export interface StoredObjectInfo {
  key: string
  size: number
  updatedAt: Date
}

/** One stored object with its bytes. */
export interface StoredObject {
  data: Buffer
  contentType: string
  updatedAt: Date
}

/**
 * One stored object opened for reading, without its bytes in memory. Size, type and time belong
 * to the version that was opened, even if the key is overwritten meanwhile. Call `stream` once
 * (the stream closes the file when it ends or is destroyed) or `close`, never neither.
 */
export interface StoredObjectReader {
  size: number
  contentType: string
  updatedAt: Date
  /** Differs for every version of the object (an HTTP validator can be built from it). */
  version: string
  /** The bytes from `start` to `end` inclusive (the whole object without a range). */
  stream(range?: { start: number; end: number }): Readable
  close(): Promise<void>
}

/**
 * Where uploaded files live. Keys are slash-separated paths such as `avatars/{userId}`; a key
 * that could escape the store (`..`, absolute, backslash, NUL…) throws InvalidStorageKeyError.
 */
export interface Storage {
  /** Stores `data` under `key`, replacing what was there in one step (readers see old or new). */
  put(key: string, data: Buffer, contentType: string): Promise<void>
  /** The object under `key`, or null when there is none. */
  get(key: string): Promise<StoredObject | null>
  /** The object under `key` opened for streaming (large media), or null when there is none. */
  open(key: string): Promise<StoredObjectReader | null>
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>
  /** Every object whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<StoredObjectInfo[]>
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage
  }
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`Invalid storage key ${JSON.stringify(key)}: ${reason}`)
    this.name = 'InvalidStorageKeyError'
  }
}

// Segments start with a letter or digit, so they never collide with our temp files (which start
// with a dot) and can never be `.` or `..`.
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/
const META_SUFFIX = '.meta.json'
const MAX_KEY_LENGTH = 512

/** Throws unless `key` is a plain relative path that stays inside the store. */
export function assertValidKey(key: string, { prefix = false } = {}): void {
  if (typeof key !== 'string') throw new InvalidStorageKeyError(String(key), 'not a string')
  if (key.length > MAX_KEY_LENGTH) throw new InvalidStorageKeyError(key, 'too long')
  if (key.includes('\0')) throw new InvalidStorageKeyError(key, 'contains NUL')
  if (key.includes('\\')) throw new InvalidStorageKeyError(key, 'contains a backslash')
  if (key.startsWith('/') || path.isAbsolute(key)) {
    throw new InvalidStorageKeyError(key, 'is an absolute path')
  }
  const segments = key.split('/')
  if (segments.includes('..')) throw new InvalidStorageKeyError(key, 'contains ..')
  if (prefix) {
    // A prefix may be empty, end with a slash or stop in the middle of a name.
    const last = segments.pop() ?? ''
    if (!/^[A-Za-z0-9._-]*$/.test(last)) {
      throw new InvalidStorageKeyError(key, `bad segment ${JSON.stringify(last)}`)
    }
  }
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) {
      throw new InvalidStorageKeyError(key, `bad segment ${JSON.stringify(segment)}`)
    }
  }
  if (!prefix && key.endsWith(META_SUFFIX)) {
    throw new InvalidStorageKeyError(key, `may not end with ${META_SUFFIX}`)
  }
}

/** Writes a file next to its destination, flushes it, then renames it over the destination. */
async function writeAtomically(destination: string, data: Buffer | string) {
  const temp = path.join(
    path.dirname(destination),
    `.${path.basename(destination)}.${randomBytes(6).toString('hex')}.tmp`,
  )
  const handle = await open(temp, 'wx', 0o600)
  try {
    try {
      await handle.writeFile(data)
      // Without the flush, a crash right after the rename could leave an empty file behind it.
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, destination)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** The name writeAtomically gives its temp files; keys can never look like this. */
const TEMP_FILE = /^\..*\.tmp$/
/**
 * A write takes seconds at most, so a temp file this old was left by a process that died
 * mid-write. A younger one may be another process's write in flight: with PostgreSQL the
 * operator command and several servers can share these files.
 */
const SHARED_TEMP_FILE_AGE_MS = 60 * 60 * 1000

/**
 * Removes the temp files that interrupted writes left anywhere under `root` (those older than
 * `olderThanMs`), and nothing else. Links are not followed.
 */
export async function removeAbandonedTempFiles(root: string, olderThanMs = 0): Promise<void> {
  const now = Date.now()
  const walk = async (folder: string) => {
    let entries: Dirent[]
    try {
      entries = await readdir(folder, { withFileTypes: true })
    } catch (error) {
      if (isMissing(error)) return
      throw error
    }
    for (const entry of entries) {
      const target = path.join(folder, entry.name)
      if (entry.isDirectory()) {
        await walk(target)
      } else if (entry.isFile() && TEMP_FILE.test(entry.name)) {
        try {
          const { mtimeMs } = await lstat(target)
          if (now - mtimeMs >= olderThanMs) await rm(target, { force: true })
        } catch (error) {
          // Renamed or removed by its writer meanwhile.
          if (!isMissing(error)) throw error
        }
      }
    }
  }
  await walk(path.resolve(root))
}

/**
 * Files under `root`: each object is a file at its key with the content type in a sidecar
 * `<key>.meta.json`. Writes go through a temp file and a rename, so a reader never sees half a
 * file and an overwrite is all or nothing.
 */
export function createLocalStorage(root: string): Storage {
  const base = path.resolve(root)
  const filePath = (key: string) => {
    assertValidKey(key)
    const resolved = path.resolve(base, key)
    // Belt and braces: the key rules above already make this impossible.
    if (!resolved.startsWith(base + path.sep)) {
      throw new InvalidStorageKeyError(key, 'resolves outside the store')
    }
    return resolved
  }

  async function openObject(key: string): Promise<StoredObjectReader | null> {
    const target = filePath(key)
    let handle: FileHandle
    try {
      handle = await open(target, 'r')
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
    try {
      // Size and time from the open file, so an overwrite (a rename) cannot mix versions.
      const info = await handle.stat({ bigint: true })
      if (!info.isFile()) {
        await handle.close()
        return null
      }
      let contentType = 'application/octet-stream'
      try {
        const meta = JSON.parse(await readFile(`${target}${META_SUFFIX}`, 'utf8'))
        if (typeof meta?.contentType === 'string') contentType = meta.contentType
      } catch (error) {
        if (!isMissing(error) && !(error instanceof SyntaxError)) throw error
      }
      return {
        size: Number(info.size),
        contentType,
        updatedAt: info.mtime,
        // Writes replace the file by a rename, so size and modification time (to the
        // nanosecond) tell versions apart without hashing large videos.
        version: `${info.size.toString(36)}-${info.mtimeNs.toString(36)}`,
        stream: (range) =>
          handle.createReadStream(range ? { start: range.start, end: range.end } : {}),
        close: () => handle.close(),
      }
    } catch (error) {
      await handle.close()
      throw error
    }
  }

  return {
    open: openObject,

    async put(key, data, contentType) {
      const target = filePath(key)
      await mkdir(path.dirname(target), { recursive: true })
      // The sidecar goes first so a crash in between leaves no bytes without a type (a lone
      // sidecar is invisible). Two renames are not one: a reader in between may pair the old
      // bytes with the new type, which only matters if a key changes kind of file.
      await writeAtomically(`${target}${META_SUFFIX}`, JSON.stringify({ contentType }))
      await writeAtomically(target, data)
    },

    async get(key) {
      const reader = await openObject(key)
      if (!reader) return null
      const { contentType, updatedAt } = reader
      const data = await buffer(reader.stream())
      return { data, contentType, updatedAt }
    },

    async delete(key) {
      const target = filePath(key)
      await rm(target, { force: true })
      await rm(`${target}${META_SUFFIX}`, { force: true })
    },

    async list(prefix) {
      assertValidKey(prefix, { prefix: true })
      // Walk only the folder the prefix points into, then keep the keys that really match.
      const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : ''
      const found: StoredObjectInfo[] = []
      const walk = async (relative: string) => {
        let entries: Dirent[]
        try {
          entries = await readdir(path.join(base, relative), { withFileTypes: true })
        } catch (error) {
          if (isMissing(error)) return
          throw error
        }
        for (const entry of entries) {
          if (!SEGMENT.test(entry.name)) continue
          const key = relative ? `${relative}/${entry.name}` : entry.name
          if (entry.isDirectory()) {
            if (prefix.startsWith(`${key}/`) || key.startsWith(prefix)) await walk(key)
          } else if (
            entry.isFile() &&
            !entry.name.endsWith(META_SUFFIX) &&
            key.startsWith(prefix)
          ) {
            try {
              const info = await stat(path.join(base, key))
              found.push({ key, size: info.size, updatedAt: info.mtime })
            } catch (error) {
              // Deleted while we were listing.
              if (!isMissing(error)) throw error
            }
          }
        }
      }
      await walk(folder)
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    },
  }
}

/**
 * The store for the configuration: local files under `<DATA_DIR>/files` (cleared of abandoned
 * temp files first), or an S3-compatible bucket with STORAGE_URL (the config schema has already
 * required region and keys with it). The S3 client is loaded only then: it is large and most
 * installations never need it.
 */
export async function createStorage(
  config: Pick<
    Config,
    | 'STORAGE_URL'
    | 'S3_ENDPOINT'
    | 'S3_REGION'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'dataDir'
    | 'database'
  >,
): Promise<Storage> {
  if (!config.STORAGE_URL) {
    const root = path.join(config.dataDir, 'files')
    // With the embedded database this process holds DATA_DIR alone (its lock), so every temp
    // file there is a leftover; with PostgreSQL others may be writing beside it.
    await removeAbandonedTempFiles(
      root,
      config.database.kind === 'pglite' ? 0 : SHARED_TEMP_FILE_AGE_MS,
    )
    return createLocalStorage(root)
  }
  const { S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = config
  if (!S3_REGION || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) {
    throw new ConfigError([
      'STORAGE_URL needs S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY as well.',
    ])
  }
  const { createS3Storage } = await import('./s3-storage')
  return createS3Storage({
    url: config.STORAGE_URL,
    endpoint: config.S3_ENDPOINT,
    region: S3_REGION,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
  })
}

/** Decorates `app.storage` with the configured file store. */
export const storagePlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    app.decorate('storage', await createStorage(config))
  },
  { name: 'storage' },
)
