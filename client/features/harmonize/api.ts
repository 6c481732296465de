import { useQuery } from '@tanstack/react-query'
import { okResponseSchema } from '../../../domain/api'
import { recentSessionsResponseSchema, sessionContentSchema } from '../../../domain/harmonize'
import { apiRequest } from '../../lib/api-client'
import { currentLanguage } from '../../lib/i18n'

/** Records the start of a session and gets its words (402 without access). */
export const startSession = (panelId: string) =>
  apiRequest('/api/harmonize/sessions', sessionContentSchema, {
    method: 'POST',
    body: JSON.stringify({ panelId }),
  })

export const completeSession = (sessionId: number) =>
  apiRequest(`/api/harmonize/sessions/${sessionId}/complete`, okResponseSchema, {
    method: 'POST',
    body: '{}',
  })

/** The signed-in user's latest sessions. */
export function useRecentSessions() {
  return useQuery({
    queryKey: ['harmonize', 'sessions', currentLanguage()],
    queryFn: async () =>
      (await apiRequest('/api/harmonize/sessions', recentSessionsResponseSchema)).sessions,
  })
}
