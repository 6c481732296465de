import { ApiError } from './api-client'
import { i18n } from './i18n'

/**
 * What the app last heard from the server, kept on this device so it still works offline
 * (PRODUCT.md principle 4). Entries expire; sign-out clears them with the rest of local storage.
 */
const PREFIX = 'harmonize.cache.'
export const OFFLINE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000

export function remember(key: string, value: unknown) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ savedAt: Date.now(), value }))
  } catch {
    // A full or blocked storage only costs the offline copy.
  }
}

export function recall<T>(key: string, maxAgeMs = OFFLINE_MAX_AGE_MS): T | undefined {
  return recallEntry<T>(key, maxAgeMs)?.value
}

/** The kept copy with the moment it was kept (ms since the epoch), for a page that says how old it is. */
export function recallEntry<T>(
  key: string,
  maxAgeMs = OFFLINE_MAX_AGE_MS,
): { savedAt: number; value: T } | undefined {
  try {
    const raw = localStorage.getItem(PREFIX + key)
    if (!raw) return undefined
    const entry = JSON.parse(raw) as { savedAt: number; value: T }
    return Date.now() - entry.savedAt <= maxAgeMs ? entry : undefined
  } catch {
    return undefined
  }
}

/** True when a request failed because the network is gone, not because the server said no. */
export function isNetworkFailure(error: unknown): boolean {
  if (error instanceof OfflineError) return true
  // Browsers reject fetch with a TypeError ('Failed to fetch', 'Load failed'); other fetch
  // implementations use a NetworkError DOMException; our own client says status 0.
  if (error instanceof TypeError) return true
  if (error instanceof DOMException && error.name === 'NetworkError') return true
  if (error instanceof ApiError && error.status === 0) return true
  return typeof navigator !== 'undefined' && !navigator.onLine
}

/**
 * The network failed and nothing was kept for this request. Its message is the spec's offline
 * notice in the user's language, never the browser's raw 'Failed to fetch', so a page that
 * shows `error.message` says something a person understands.
 */
export class OfflineError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(i18n.t('network.offline'), options)
    this.name = 'OfflineError'
  }
}

/**
 * Fetches fresh data and keeps a copy; when the network is gone, answers with the last copy
 * (if it is not too old) instead of failing, or fails with an {@link OfflineError}.
 */
export async function withOfflineCopy<T>(key: string, load: () => Promise<T>): Promise<T> {
  try {
    const value = await load()
    remember(key, value)
    return value
  } catch (error) {
    if (!isNetworkFailure(error)) throw error
    const copy = recall<T>(key)
    if (copy !== undefined) return copy
    throw new OfflineError({ cause: error })
  }
}

/**
 * Query settings for data with an offline copy. TanStack Query's default network mode parks a
 * query while the browser says it is offline, which never reaches the copy and leaves the page
 * waiting for ever ('...'); these run it anyway. A network failure is asked again only while
 * the browser still believes it is online (a hiccup); offline, the answer is already final.
 */
export const offlineFirstQuery = {
  networkMode: 'always',
  retry: (failureCount: number, error: Error) => {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false
    if (error instanceof OfflineError && typeof navigator !== 'undefined' && !navigator.onLine) {
      return false
    }
    return failureCount < 2
  },
} as const
