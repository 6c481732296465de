import { useQuery } from '@tanstack/react-query'
import {
  affirmationsResponseSchema,
  panelDetailSchema,
  panelListResponseSchema,
} from '../../../domain/panels'
import { apiRequest } from '../../lib/api-client'
import { currentLanguage } from '../../lib/i18n'
import { withOfflineCopy } from '../../lib/offline-cache'

export function usePanels() {
  const language = currentLanguage()
  return useQuery({
    queryKey: ['panels', language],
    queryFn: () =>
      withOfflineCopy(
        `panels:${language}`,
        async () => (await apiRequest('/api/panels', panelListResponseSchema)).panels,
      ),
    staleTime: 60 * 60_000,
  })
}

export function usePanel(id: string | undefined) {
  const language = currentLanguage()
  return useQuery({
    queryKey: ['panel', id, language],
    queryFn: () =>
      withOfflineCopy(`panel:${id}:${language}`, () =>
        apiRequest(`/api/panels/${id}`, panelDetailSchema),
      ),
    enabled: Boolean(id),
    staleTime: 60 * 60_000,
  })
}

/** The nine affirmations in the current language (kept for offline sessions). */
export function useAffirmations() {
  const language = currentLanguage()
  return useQuery({
    queryKey: ['affirmations', language],
    queryFn: () =>
      withOfflineCopy(
        `affirmations:${language}`,
        async () =>
          (await apiRequest('/api/affirmations', affirmationsResponseSchema)).affirmations,
      ),
    staleTime: 60 * 60_000,
  })
}
