import { queryOptions, useQuery } from '@tanstack/react-query'
import {
  type HarmonizeMedia,
  harmonizeMediaResponseSchema,
  type MediaItem,
} from '../../domain/harmonize'
import { apiRequest } from './api-client'
import { pickSavedMedia } from './media-pick'
import {
  isNetworkFailure,
  OfflineError,
  offlineFirstQuery,
  recall,
  remember,
} from './offline-cache'

// Here rather than in harmonize: the offline preparation (keep-for-offline.ts), which /home
// starts too, keeps the media list with the panel texts.

/** The Cache Storage bucket holding media saved for offline use. */
export const MEDIA_CACHE = 'harmonize-media'

// Saved files are keyed by media key, not by the signed URL: the link changes every hour, the
// file does not.
const cacheUrl = (key: string) => `/offline-media/${key}`

const hasCaches = () => typeof caches !== 'undefined'

const copyKey = (panelId: string | undefined) => `media.${panelId ?? 'all'}`

/**
 * The media for a session on `panelId` (or for every panel), with signed links. Every answer
 * is kept on the device; offline, any kept list (this panel's, or the full one that My Account
 * and the offline preparation keep) is enough to find the saved copies, so saved media play
 * in a session on a panel never opened online.
 */
export const harmonizeMediaQuery = (panelId?: string) =>
  queryOptions({
    queryKey: ['harmonize', 'media', panelId ?? 'all'],
    // The links inside expire after an hour; a fresh answer is cheap.
    staleTime: 5 * 60 * 1000,
    ...offlineFirstQuery,
    // A session waits for this answer before Play is offered; asking again would only delay a
    // session that falls back to the generated picture and sound anyway.
    retry: false,
    queryFn: async (): Promise<HarmonizeMedia> => {
      try {
        const media = await apiRequest(
          panelId ? `/api/harmonize/media?panelId=${panelId}` : '/api/harmonize/media',
          harmonizeMediaResponseSchema,
        )
        remember(copyKey(panelId), media)
        return media
      } catch (error) {
        if (!isNetworkFailure(error)) throw error
        const kept =
          recall<HarmonizeMedia>(copyKey(panelId)) ?? recall<HarmonizeMedia>(copyKey(undefined))
        if (!kept) throw new OfflineError({ cause: error })
        const saved = new Set((await listSavedMedia().catch(() => [])).map((item) => item.key))
        return pickSavedMedia(kept.all, panelId, saved)
      }
    },
  })

/** The media for a session on `panelId` (or for every panel); see {@link harmonizeMediaQuery}. */
export function useHarmonizeMedia(panelId?: string, enabled = true) {
  return useQuery({ ...harmonizeMediaQuery(panelId), enabled })
}

/** One file saved on this device. */
export interface SavedMedia {
  key: string
  size: number
}

/** What is saved for offline use, by key. */
export async function listSavedMedia(): Promise<SavedMedia[]> {
  if (!hasCaches()) return []
  const cache = await caches.open(MEDIA_CACHE)
  const saved: SavedMedia[] = []
  for (const request of await cache.keys()) {
    const key = decodeURI(new URL(request.url).pathname).replace(/^\/offline-media\//, '')
    const response = await cache.match(request)
    const size = Number(response?.headers.get('content-length') ?? 0)
    saved.push({ key, size })
  }
  return saved.sort((a, b) => a.key.localeCompare(b.key))
}

/** A blob: URL for the saved copy of `key`, or null; the caller revokes it when done. */
export async function savedMediaUrl(key: string): Promise<string | null> {
  if (!hasCaches()) return null
  try {
    const cache = await caches.open(MEDIA_CACHE)
    const response = await cache.match(cacheUrl(key))
    return response ? URL.createObjectURL(await response.blob()) : null
  } catch {
    return null
  }
}

/** Forgets the saved copy of `key`. */
export async function removeSavedMedia(key: string): Promise<void> {
  if (!hasCaches()) return
  await (await caches.open(MEDIA_CACHE)).delete(cacheUrl(key))
}

/** The step progress is reported in (spec: steps of about 5 %). */
export const PROGRESS_STEP = 5

/**
 * Downloads a media file with its signed link, reading the stream so `onProgress` gets the
 * percentage in steps of about 5, then stores the bytes in Cache Storage under its key.
 */
export async function saveMediaOffline(
  item: MediaItem,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (!hasCaches()) throw new Error('Cache Storage is not available')
  const response = await fetch(item.url, { signal })
  if (!response.ok || !response.body) throw new Error(`Download failed (${response.status})`)
  const total = Number(response.headers.get('content-length')) || item.size
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  let reported = -1
  onProgress(0)
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    received += value.length
    const percent = total ? Math.min(100, (received / total) * 100) : 0
    const step = Math.floor(percent / PROGRESS_STEP) * PROGRESS_STEP
    if (step > reported) {
      reported = step
      onProgress(step)
    }
  }
  const blob = new Blob(chunks as BlobPart[], { type: item.contentType })
  const cache = await caches.open(MEDIA_CACHE)
  await cache.put(
    cacheUrl(item.key),
    new Response(blob, {
      headers: { 'content-type': item.contentType, 'content-length': String(blob.size) },
    }),
  )
  if (reported < 100) onProgress(100)
}
