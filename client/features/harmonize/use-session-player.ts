import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'
import type { PanelDetail } from '../../../domain/panels'
import {
  createHarmonizePlayer,
  type HarmonizePlayer,
  type HarmonizePlayerState,
} from './audio/player'
import type { MediaSources } from './use-media-sources'

const IDLE: HarmonizePlayerState = { ready: false, status: 'idle', error: null }

/**
 * The session's sound for `panel`, once the media are worked out (`sources`, null until then):
 * a player made for them, released when they change or the screen goes, and its live state.
 */
export function useSessionPlayer(panel: PanelDetail | undefined, sources: MediaSources | null) {
  const player = useMemo<HarmonizePlayer | null>(
    () =>
      panel && sources
        ? createHarmonizePlayer({
            title: panel.name,
            solfeggioHz: panel.solfeggioHz,
            backingUrl: sources.backing ?? undefined,
          })
        : null,
    [panel, sources],
  )
  useEffect(() => () => void player?.dispose(), [player])
  const state = useSyncExternalStore(
    useCallback((listener: () => void) => player?.subscribe(listener) ?? (() => {}), [player]),
    () => player?.getState() ?? IDLE,
  )
  return { player, state }
}
