import { type ReactNode, useDeferredValue } from 'react'
import { Navigate, useLocation } from 'react-router'
import { LOGIN_PATH, type RouteAccess } from '../../domain/routes'
import { PageSkeleton } from '../components/ui/page-skeleton'
import { useHydrated } from '../lib/prerendered'
import { useSession } from '../lib/session'

/**
 * Applies the route table's access rule: visitors on a protected page go to /login (which sends
 * them back afterwards), signed-in users on a visitors-only page go to /user-details, or the plans
 * when nothing is open to them yet (or back to the page that sent them to sign in). A member's page that is `shownBeforeSession` (it shows
 * only what anyone may read until it knows who is signed in) renders at once, as a visitor's
 * does; any other waits for the session under its header.
 */
export function RouteGuard({
  access,
  shownBeforeSession = false,
  children,
}: {
  access: RouteAccess
  shownBeforeSession?: boolean
  children: ReactNode
}) {
  const { user, isLoading, landing } = useSession()
  const location = useLocation()
  const hydrated = useHydrated()
  // The page replaces the skeleton in a background render, in slices, rather than in the one
  // long task of the session's answer (a query's update is never sliced). Only that way round:
  // a session asked for again shows the skeleton at once, never a decision on no session.
  const pending = isLoading || !hydrated
  const wasPending = useDeferredValue(pending)
  if (access === 'open') return children
  // A visitor's page shows at once, as the build prerendered it; a member who opens it is sent on
  // once the session says so. So do a member's pages of reference data (the panels), which a
  // visitor is sent away from then. Any other member's page waits under its header.
  if (pending || wasPending) {
    return access === 'public' || shownBeforeSession ? children : <PageSkeleton />
  }
  if (access === 'protected' && !user) {
    const from = `${location.pathname}${location.search}${location.hash}`
    return <Navigate to={LOGIN_PATH} replace state={{ from }} />
  }
  if (access === 'public' && user) {
    // Signing in on /login lands here too: the new session renders before the login page's own
    // navigation (a transition) does, so this redirect must honour where the visitor was going.
    const from = (location.state as { from?: string } | null)?.from
    const to = from && from !== LOGIN_PATH ? from : landing
    return <Navigate to={to} replace />
  }
  return children
}
