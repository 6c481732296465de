import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'
import type { PanelDetail, PanelSummary } from '../../../domain/panels'
import {
  createHarmonizePlayer,
  type HarmonizePlayer,
  type HarmonizePlayerState,
} from './audio/player'
import type { MediaSources } from './use-media-sources'

const IDLE: HarmonizePlayerState = { ready: false, status: 'idle', error: null }

const NO_LAYERS: readonly PanelSummary[] = []

/**
 * The session's sound for `panel` (with the tones of `layered` panels, for a Multi Layer Rx),
 * once the media are worked out (`sources`, null until then): a player made for them, released
 * when they change or the screen goes, and its live state.
 */
export function useSessionPlayer(
  panel: PanelDetail | undefined,
  sources: MediaSources | null,
  layered: readonly PanelSummary[] = NO_LAYERS,
) {
  const player = useMemo<HarmonizePlayer | null>(
    () =>
      panel && sources
        ? createHarmonizePlayer({
            title: [panel, ...layered].map(({ name }) => name).join(' + '),
            solfeggioHz: panel.solfeggioHz,
            layeredHz: layered.map(({ solfeggioHz }) => solfeggioHz),
            backingUrl: sources.backing ?? undefined,
          })
        : null,
    [panel, layered, sources],
  )
  useEffect(() => () => void player?.dispose(), [player])
  const state = useSyncExternalStore(
    useCallback((listener: () => void) => player?.subscribe(listener) ?? (() => {}), [player]),
    () => player?.getState() ?? IDLE,
  )
  return { player, state }
}
