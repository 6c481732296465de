import { queryOptions, useQuery } from '@tanstack/react-query'
import type { SessionUser } from '../../domain/auth'
import { SIGNED_IN_LANDING_PATH } from '../../domain/routes'
import { apiRequest } from './api-client'
import { withOfflineCopy } from './offline-cache'

export const sessionQueryKey = ['session'] as const

export interface SessionState {
  user: SessionUser | null
  isLoading: boolean
  /** Where this member lands after signing in (`signedInLanding`). */
  landing: string
}

/**
 * Where a member lands after signing in: the route table's page (spec) when they may harmonize,
 * else the plans on My Account, since nothing else is open to them before a plan or a code.
 */
export function signedInLanding(session: { access?: unknown } | null | undefined): string {
  const access = session?.access as { hasAccess?: unknown } | undefined
  return access?.hasAccess === false ? '/my-account#plans' : SIGNED_IN_LANDING_PATH
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
  return {
    user: query.data?.user ?? null,
    isLoading: query.isPending,
    landing: signedInLanding(query.data),
  }
}
