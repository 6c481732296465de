import path from 'node:path'
import type { Readable } from 'node:stream'

// The contract every file store keeps (local files, S3). Features import this file alone, so
// which backend runs is decided once, at start-up (./plugin.ts), and this file imports no
// backend.

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
  /**
   * Stores `data` under `key`, replacing what was there in one step (readers see old or new). A
   * stream is written as it arrives, never held whole in memory (a panel's video); if it fails
   * half-way, nothing of it is kept and what was there stays.
   */
  put(key: string, data: Buffer | Readable, contentType: string): Promise<void>
  /** The object under `key`, or null when there is none. */
  get(key: string): Promise<StoredObject | null>
  /** The object under `key` opened for streaming (large media), or null when there is none. */
  open(key: string): Promise<StoredObjectReader | null>
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>
  /** Every object whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<StoredObjectInfo[]>
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`Invalid storage key ${JSON.stringify(key)}: ${reason}`)
    this.name = 'InvalidStorageKeyError'
  }
}

// Segments start with a letter or digit, so they never collide with our temp files (which start
// with a dot) and can never be `.` or `..`.
export const KEY_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/
/**
 * The local store keeps each object's type in a sidecar with this suffix. Every store refuses
 * keys ending in it, so a key valid in one store is valid in all.
 */
export const META_SUFFIX = '.meta.json'
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
    if (!KEY_SEGMENT.test(segment)) {
      throw new InvalidStorageKeyError(key, `bad segment ${JSON.stringify(segment)}`)
    }
  }
  if (!prefix && key.endsWith(META_SUFFIX)) {
    throw new InvalidStorageKeyError(key, `may not end with ${META_SUFFIX}`)
  }
}
