import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query'
import {
  auditPageSchema,
  factorCodeRequestSchema,
  factorSetUpRequestSchema,
  factorSetUpSchema,
  factorStatusSchema,
  recoveryCodesSchema,
} from '../../../domain/operators'
import { apiRequest, endpoint } from '../../lib/api-client'

/** Where the operator stands with the second factor in this session. */
export const factorStatusQuery = queryOptions({
  queryKey: ['admin', 'factor'],
  queryFn: () => apiRequest('/api/operator-factor', factorStatusSchema),
  // A refusal (403: not an operator) is final; asking again changes nothing.
  retry: false,
  staleTime: 0,
})

const confirmSetUp = endpoint(
  'POST',
  '/api/operator-factor/set-up/confirm',
  factorCodeRequestSchema,
  recoveryCodesSchema,
)
const verifyFactor = endpoint(
  'POST',
  '/api/operator-factor/verify',
  factorCodeRequestSchema,
  factorStatusSchema,
)

const startSetUp = endpoint(
  'POST',
  '/api/operator-factor/set-up',
  factorSetUpRequestSchema,
  factorSetUpSchema,
)

/** A new authenticator key, once the password says it is the operator, waiting for a code. */
export function useStartSetUp() {
  return useMutation({ mutationFn: startSetUp })
}

/** Confirms the new key with a code from it: the answer is the recovery codes, shown once. */
export function useConfirmSetUp() {
  return useMutation({ mutationFn: confirmSetUp })
}

/** Passes the second factor for this session; the console opens with the answer. */
export function useVerifyFactor() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: verifyFactor,
    onSuccess: (status) => queryClient.setQueryData(factorStatusQuery.queryKey, status),
  })
}

/** The audit log, newest first, a page at a time. */
export const auditQuery = infiniteQueryOptions({
  queryKey: ['admin', 'audit'],
  queryFn: ({ pageParam }) =>
    apiRequest(
      `/api/admin/audit${pageParam ? `?after=${encodeURIComponent(pageParam)}` : ''}`,
      auditPageSchema,
    ),
  initialPageParam: '',
  getNextPageParam: (page) => page.next ?? undefined,
})
