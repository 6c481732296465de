/**
 * `load` (a chunk of code, usually), asked for once and shared by every caller. A failure is
 * forgotten, so the next call asks again: offline before the chunk was cached, or after a new
 * version was deployed, a later try can still succeed.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    })
    return loading
  }
}
