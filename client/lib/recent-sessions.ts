import { useQuery } from '@tanstack/react-query'
import { recentSessionsResponseSchema } from '../../domain/harmonize'
import { apiRequest } from './api-client'
import { currentLanguage } from './i18n'

// Here rather than in a feature: /home lists the sessions (panels) and /harmonized-complete
// goes back to the latest one (harmonize), and neither feature imports the other.

/** Every language's history; a finished session makes all of them stale. */
export const recentSessionsQueryKey = ['harmonize', 'sessions'] as const

/** The signed-in user's latest sessions. */
export function useRecentSessions() {
  return useQuery({
    queryKey: [...recentSessionsQueryKey, currentLanguage()],
    queryFn: async () =>
      (await apiRequest('/api/harmonize/sessions', recentSessionsResponseSchema)).sessions,
  })
}
