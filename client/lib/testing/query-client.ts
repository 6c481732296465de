import { QueryClient } from '@tanstack/react-query'
import { sessionQueryKey } from '../session'

/**
 * A query cache that already knows nobody is signed in, for rendering a piece of the layout
 * without a server: nothing goes stale, so nothing is fetched.
 */
export function visitorQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  })
  client.setQueryData(sessionQueryKey, { user: null })
  return client
}
