import { queryOptions, useQuery } from '@tanstack/react-query'
import type { SessionUser } from '../../domain/auth'
import { apiRequest } from './api-client'
import { withOfflineCopy } from './offline-cache'

export const sessionQueryKey = ['session'] as const

export interface SessionState {
  user: SessionUser | null
  isLoading: boolean
}

/** Who is signed in: the query, shared by the session hook and the start-up prefetch. */
export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  // Offline, the last known signed-in state (up to 7 days old) keeps the app usable.
  queryFn: () =>
    withOfflineCopy('session', () =>
      apiRequest('/api/session', () =>
        import('../../domain/auth').then((auth) => auth.sessionResponseSchema),
      ),
    ),
  retry: false,
  networkMode: 'always',
})

/** Who is signed in, as the server says. Offline, the visitor state applies until it answers. */
export function useSession(): SessionState {
  const query = useQuery(sessionQuery)
  return { user: query.data?.user ?? null, isLoading: query.isPending }
}
