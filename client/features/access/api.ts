import { useQuery, useQueryClient } from '@tanstack/react-query'
import { accessResponseSchema } from '../../../domain/access-codes'
import { apiRequest } from '../../lib/api-client'
import { remember, withOfflineCopy } from '../../lib/offline-cache'

export const accessQueryKey = ['access'] as const

/** The server's answer to "may this user harmonize?" (the client never decides it alone). */
export function useAccess() {
  return useQuery({
    queryKey: accessQueryKey,
    queryFn: () => withOfflineCopy('access', () => apiRequest('/api/access', accessResponseSchema)),
  })
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
