import { useEffect, useRef, useState } from 'react'
import { savedMediaUrl, useHarmonizeMedia } from '../../lib/harmonize-media'
import { savedCopyInTime } from './in-time'

/** What a session plays: URLs (blob: for saved copies) or null for the generated picture/sound. */
export interface MediaSources {
  video: string | null
  backing: string | null
}

const NONE: MediaSources = { video: null, backing: null }
/** How long a session waits for a copy saved on the device before it streams the file instead. */
const SAVED_COPY_WAIT_MS = 2_000

/**
 * The uploaded video and backing track for a session on `panelId` (asked for only with access),
 * preferring copies saved on this device over the network. Null while this is being worked out;
 * without media, or when the media cannot be loaded, both are null and the session stays
 * generative (PRODUCT.md principle 4; spec: media errors are only logged).
 */
export function useMediaSources(
  panelId: string,
  hasAccess: boolean | undefined,
): MediaSources | null {
  // Undefined: access is still loading, so nothing is decided yet.
  const enabled = hasAccess === true
  const media = useHarmonizeMedia(panelId, enabled)
  const [sources, setSources] = useState<MediaSources | null>(null)
  // Picked once per visit: a refetch (new links, another random video) must not swap the media,
  // and so the player, in the middle of a session.
  const picked = useRef(false)
  const blobUrls = useRef<string[]>([])
  const { data, isError, error } = media
  const settled = hasAccess === false || isError || Boolean(data)

  useEffect(() => {
    if (!settled || picked.current) return
    picked.current = true
    if (!enabled || !data) {
      if (isError) console.warn('media could not be loaded; the session stays generative', error)
      setSources(NONE)
      return
    }
    const resolve = async (item: { key: string; url: string } | null) => {
      if (!item) return null
      const saved = await savedCopyInTime(
        savedMediaUrl(item.key),
        SAVED_COPY_WAIT_MS,
        navigator.onLine,
      )
      if (saved) blobUrls.current.push(saved)
      return saved ?? item.url
    }
    void Promise.all([resolve(data.video), resolve(data.backing)]).then(([video, backing]) =>
      setSources({ video, backing }),
    )
  }, [settled, enabled, data, isError, error])

  useEffect(
    () => () => {
      for (const url of blobUrls.current) URL.revokeObjectURL(url)
    },
    [],
  )

  return sources
}
