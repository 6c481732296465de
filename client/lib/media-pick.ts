import { BACKING_TRACK_MARKER, type HarmonizeMedia, type MediaItem } from '../../domain/harmonize'

/**
 * What a session on `panelId` can play from the files saved on this device, chosen the way the
 * server chooses (a random video among the panel's own and the shared ones; the panel's own
 * backing track first, then a shared one). Offline, a file that is not saved cannot load, so
 * only saved ones are candidates; with none, the session stays generative.
 */
export function pickSavedMedia(
  all: MediaItem[],
  panelId: string | undefined,
  saved: ReadonlySet<string>,
  random: () => number = Math.random,
): HarmonizeMedia {
  const usable = all.filter(
    (item) =>
      saved.has(item.key) && (!panelId || item.panelId === null || item.panelId === panelId),
  )
  const videos = usable.filter((item) => item.kind === 'video')
  const backings = usable
    .filter((item) => item.kind === 'backing' && item.key.includes(BACKING_TRACK_MARKER))
    .sort((a, b) => Number(b.panelId !== null) - Number(a.panelId !== null))
  return {
    video: videos.length ? (videos[Math.floor(random() * videos.length)] ?? null) : null,
    backing: backings[0] ?? null,
    all,
  }
}
