import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Navigate } from 'react-router'
import { LOGIN_PATH } from '../../../domain/routes'
import { FullScreenSpinner } from '../../components/ui/full-screen-spinner'
import { signOut } from '../../features/auth/public'
import { forgetEarly } from '../../lib/api-client'
import { clearLocalData } from '../../lib/local-data'
import { sessionQueryKey } from '../../lib/session'

/** Ends the session, forgets everything this device kept about the user, then shows sign-in. */
export function LogoutPage() {
  const queryClient = useQueryClient()
  const [done, setDone] = useState(false)
  useEffect(() => {
    let active = true
    // Offline, the server cannot be told; the local data is cleared all the same.
    void signOut()
      .catch(() => {})
      .finally(() => {
        clearLocalData()
        // An answer asked for early, for this member, is not the next one's.
        forgetEarly()
        queryClient.clear()
        queryClient.setQueryData(sessionQueryKey, { user: null })
        if (active) setDone(true)
      })
    return () => {
      active = false
    }
  }, [queryClient])
  return done ? <Navigate to={LOGIN_PATH} replace /> : <FullScreenSpinner />
}
