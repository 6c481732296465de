import { randomBytes } from 'node:crypto'
import { createWriteStream, type Dirent } from 'node:fs'
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
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { pipeline } from 'node:stream/promises'
import {
  assertValidKey,
  InvalidStorageKeyError,
  KEY_SEGMENT,
  META_SUFFIX,
  type Storage,
  type StoredObjectInfo,
  type StoredObjectReader,
} from './storage'

/** Writes a file next to its destination, flushes it, then renames it over the destination. */
async function writeAtomically(destination: string, data: Buffer | string | Readable) {
  const temp = path.join(
    path.dirname(destination),
    `.${path.basename(destination)}.${randomBytes(6).toString('hex')}.tmp`,
  )
  try {
    if (data instanceof Readable) {
      // Written as it arrives; `flush` syncs the file before it closes, as `sync` does below.
      await pipeline(data, createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true }))
    } else {
      const handle = await open(temp, 'wx', 0o600)
      try {
        await handle.writeFile(data)
        // Without the flush, a crash right after the rename could leave an empty file behind it.
        await handle.sync()
      } finally {
        await handle.close()
      }
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
      const sidecar = `${target}${META_SUFFIX}`
      const previous = await readFile(sidecar, 'utf8').catch(() => null)
      await writeAtomically(sidecar, JSON.stringify({ contentType }))
      try {
        await writeAtomically(target, data)
      } catch (error) {
        // A stream that failed half-way changed nothing: the old type goes back with the old
        // bytes, and a new key's lone sidecar goes.
        if (previous === null) await rm(sidecar, { force: true })
        else await writeAtomically(sidecar, previous)
        throw error
      }
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
          if (!KEY_SEGMENT.test(entry.name)) continue
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
