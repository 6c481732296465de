import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod/mini'
import { okResponseSchema } from '../../../domain/api'
import {
  type DataExportState,
  dataExportStateSchema,
  deleteAccountRequestSchema,
} from '../../../domain/leaving'
import { apiRequest, endpoint } from '../../lib/api-client'

// The member's data: the newest download (polled while it is prepared), and the deletion.

const EXPORT_PATH = '/api/account/data-export'
export const dataExportQueryKey = ['account', 'data-export'] as const

/** How often the page asks again while the file is being prepared. */
const PREPARING_POLL_MS = 1000

export function useDataExport() {
  return useQuery({
    queryKey: dataExportQueryKey,
    queryFn: () => apiRequest(EXPORT_PATH, dataExportStateSchema),
    refetchInterval: (query) =>
      query.state.data?.export?.status === 'preparing' ? PREPARING_POLL_MS : false,
  })
}

const startExport = () =>
  apiRequest(EXPORT_PATH, dataExportStateSchema, { method: 'POST', body: JSON.stringify({}) })

export function useStartExport() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: startExport,
    onSuccess: (state: DataExportState) => queryClient.setQueryData(dataExportQueryKey, state),
  })
}

const deleteAccount = endpoint(
  'POST',
  '/api/account/delete',
  deleteAccountRequestSchema,
  okResponseSchema,
)

export const useDeleteAccount = () =>
  useMutation({
    mutationFn: (body: z.input<typeof deleteAccountRequestSchema>) => deleteAccount(body),
  })
