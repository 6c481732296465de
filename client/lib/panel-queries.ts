import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Language } from '../../domain/i18n'
import {
  affirmationsResponseSchema,
  panelDetailSchema,
  panelListResponseSchema,
} from '../../domain/panels'
import { apiRequest } from './api-client'
import { currentLanguage } from './i18n'
import { offlineFirstQuery, withOfflineCopy } from './offline-cache'
import { panelQueryKey } from './query-keys'

// Here rather than in the panels feature: the harmonizing screen (harmonize) and the scans
// (clients) read the same panels and affirmations, and panels and harmonize do not import each
// other (docs/decisions/0021-panels-and-harmonize-share-through-lib.md).

// Panel texts change only when the operator edits them: an hour's freshness is plenty, and the
// copies kept on the device make every one of them readable offline.
const PANEL_STALE_MS = 60 * 60_000

/** The panel list in `language` (its query key and how to load it, shared with prefetching). */
export const panelsQuery = (language: Language) =>
  queryOptions({
    queryKey: ['panels', language],
    queryFn: () =>
      withOfflineCopy(
        `panels:${language}`,
        async () => (await apiRequest('/api/panels', panelListResponseSchema)).panels,
      ),
    staleTime: PANEL_STALE_MS,
    ...offlineFirstQuery,
  })

/** One panel with its info and ingredients in `language`. */
export const panelQuery = (id: string, language: Language) =>
  queryOptions({
    queryKey: panelQueryKey(id, language),
    queryFn: () =>
      withOfflineCopy(`panel:${id}:${language}`, () =>
        apiRequest(`/api/panels/${id}`, panelDetailSchema),
      ),
    staleTime: PANEL_STALE_MS,
    ...offlineFirstQuery,
  })

/** The nine affirmations in `language`. */
export const affirmationsQuery = (language: Language) =>
  queryOptions({
    queryKey: ['affirmations', language],
    queryFn: () =>
      withOfflineCopy(
        `affirmations:${language}`,
        async () =>
          (await apiRequest('/api/affirmations', affirmationsResponseSchema)).affirmations,
      ),
    staleTime: PANEL_STALE_MS,
    ...offlineFirstQuery,
  })

export function usePanels() {
  return useQuery(panelsQuery(currentLanguage()))
}

export function usePanel(id: string | undefined) {
  return useQuery({ ...panelQuery(id ?? '', currentLanguage()), enabled: Boolean(id) })
}

/** The nine affirmations in the current language (kept for offline sessions). */
export function useAffirmations() {
  return useQuery(affirmationsQuery(currentLanguage()))
}
