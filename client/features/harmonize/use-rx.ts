import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useLocation } from 'react-router'
import { parseRx } from '../../../domain/harmonize'
import type { PanelSummary } from '../../../domain/panels'
import { currentLanguage } from '../../lib/i18n'
import { panelsQuery } from '../../lib/panel-queries'

const NO_LAYERS: readonly PanelSummary[] = []

/**
 * The session a tray of the aura scan asked for in the query (`?minutes=10&with=03,07`): its
 * length and the panels layered with this one, in the tray's order. Ids no panel has are left out.
 * Without layers the list is not asked for, and the same empty array stays even when the list
 * arrives for something else (kept for offline use): a new array would make a new sound player,
 * stopping a session that has started.
 */
export function useRx(id: string) {
  const { search } = useLocation()
  const { durationMs, layered } = parseRx(id, search)
  const key = layered.join(',')
  const panels = useQuery({ ...panelsQuery(currentLanguage()), enabled: Boolean(key) })
  const layeredPanels = useMemo(
    () =>
      key
        ? key.split(',').flatMap((layeredId) => panels.data?.find((p) => p.id === layeredId) ?? [])
        : NO_LAYERS,
    [key, panels.data],
  )
  return { durationMs, layered: layeredPanels, search, pending: Boolean(key) && panels.isPending }
}
