import { hashKey, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'
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

/**
 * Empties the query cache, all but the session, when a member signs in who is not the one it
 * was filled for. The queries of a member's own data (plan, cards, clients…) are not keyed by
 * who they belong to, and Log Out clears them; but a session can also end without it (it
 * expired, or was ended from another device), and another member then sign in in the same tab
 * with no reload: they would be shown the one before's, from memory, until each is asked again
 * (and offline, for good). In between, nobody signed in, the member pages are closed anyway; the
 * same member signing in again keeps what they had. Returns the unsubscribe function.
 */
export function forgetOnMemberChange(client: QueryClient): () => void {
  const sessionHash = hashKey(sessionQueryKey)
  // The last member the cache was filled for.
  let member: string | null = null
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== sessionHash) return
    const data = event.query.state.data as { user?: { id: string } | null } | undefined
    const signedIn = data?.user?.id
    if (!signedIn) return
    if (member !== null && signedIn !== member) {
      // Reset rather than removed: a query on screen (the header's) would keep showing the
      // data of a query no longer in the cache; reset, it says it is loading and asks again.
      void client.resetQueries({ predicate: (query) => query.queryHash !== sessionHash })
    }
    member = signedIn
  })
}
