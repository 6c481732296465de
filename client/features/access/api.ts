import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  accessResponseSchema,
  codeCheckResponseSchema,
  redeemCodeRequestSchema,
} from '../../../domain/access-codes'
import { apiRequest, endpoint } from '../../lib/api-client'
import { offlineFirstQuery, remember, withOfflineCopy } from '../../lib/offline-cache'
import { accessQueryKey } from '../../lib/query-keys'

export { accessQueryKey }

/** The server's answer to "may this user harmonize?" (the client never decides it alone). */
export const accessQuery = queryOptions({
  queryKey: accessQueryKey,
  queryFn: () => withOfflineCopy('access', () => apiRequest('/api/access', accessResponseSchema)),
  ...offlineFirstQuery,
})

export function useAccess() {
  return useQuery(accessQuery)
}

/**
 * Takes the access that came with the session's answer (GET /api/session), so a page that needs
 * both waits one round trip instead of two. False when there was none, or it does not match the
 * contract: the access query then asks for itself.
 */
export function seedAccess(queryClient: QueryClient, answer: unknown): boolean {
  const access = accessResponseSchema.safeParse(answer)
  if (!access.success) return false
  queryClient.setQueryData(accessQueryKey, access.data)
  remember('access', access.data)
  return true
}

/** Redeems an access code and refreshes the access state everywhere. */
export function useRedeemCode() {
  const queryClient = useQueryClient()
  return async (code: string) => {
    const access = await apiRequest('/api/account/access-code', accessResponseSchema, {
      method: 'POST',
      body: JSON.stringify({ code }),
    })
    queryClient.setQueryData(accessQueryKey, access)
    remember('access', access)
    return access
  }
}

const checkCode = endpoint(
  'POST',
  '/api/access-codes/check',
  redeemCodeRequestSchema,
  codeCheckResponseSchema,
)

/**
 * What an invitation code (/signup/{code}) is worth now. Offline or refused, the page simply
 * says nothing more: the code is checked again when the address is confirmed.
 */
export function useInvitationCode(code: string | undefined) {
  return useQuery({
    queryKey: ['invitation-code', code],
    queryFn: () => checkCode({ code: code ?? '' }),
    enabled: Boolean(code),
    retry: false,
    staleTime: 60_000,
  })
}
