import { QueryClient } from '@tanstack/react-query'
import { ApiError } from './api-client'
import { forgetOnMemberChange } from './session'

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A 4xx will not change by asking again; network hiccups might.
      retry: (failureCount, error) =>
        !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
})

// No member is shown another's data from memory after a session ended without Log Out.
forgetOnMemberChange(queryClient)
