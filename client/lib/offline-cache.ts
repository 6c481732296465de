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
  try {
    const raw = localStorage.getItem(PREFIX + key)
    if (!raw) return undefined
    const { savedAt, value } = JSON.parse(raw) as { savedAt: number; value: T }
    return Date.now() - savedAt <= maxAgeMs ? value : undefined
  } catch {
    return undefined
  }
}

/** True when a request failed because the network is gone, not because the server said no. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || (typeof navigator !== 'undefined' && !navigator.onLine)
}

/**
 * Fetches fresh data and keeps a copy; when the network is gone, answers with the last copy
 * (if it is not too old) instead of failing.
 */
export async function withOfflineCopy<T>(key: string, load: () => Promise<T>): Promise<T> {
  try {
    const value = await load()
    remember(key, value)
    return value
  } catch (error) {
    const copy = isNetworkFailure(error) ? recall<T>(key) : undefined
    if (copy !== undefined) return copy
    throw error
  }
}
