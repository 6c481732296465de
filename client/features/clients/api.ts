import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { okResponseSchema } from '../../../domain/api'
import type { ClientForm } from '../../../domain/client-form'
import {
  type ClientRecord,
  clientListResponseSchema,
  clientPhotoResponseSchema,
  clientRecordSchema,
  clientScanResponseSchema,
  clientScansResponseSchema,
  recentPhotoResponseSchema,
} from '../../../domain/clients'
import { apiHeaders, apiRequest } from '../../lib/api-client'

// A practitioner's client records (spec scans §2 User details and User records, §7).

export const clientsQueryKey = ['clients'] as const

/**
 * One page of the user's clients by name (those whose name contains `search`), from `cursor`
 * (null: the first). Pages are separate queries: TanStack's infinite query would add its
 * observer to every first render, /login's included.
 */
export const clientPageQuery = (search: string, cursor: string | null) =>
  queryOptions({
    queryKey: [...clientsQueryKey, 'list', search, cursor],
    queryFn: () => {
      const query = new URLSearchParams()
      if (search) query.set('search', search)
      if (cursor) query.set('cursor', cursor)
      const suffix = query.size ? `?${query}` : ''
      return apiRequest(`/api/clients${suffix}`, clientListResponseSchema)
    },
    // A list the person comes back to after 5 s is read again (their changes here refresh it at
    // once); one the app asked for while the page's code was on its way (client/app/routes.tsx)
    // is not asked for twice.
    staleTime: 5_000,
  })

export const useClientPage = (search: string, cursor: string | null) =>
  useQuery(clientPageQuery(search, cursor))

/** One saved client, for the form at /user-details#{id}. */
export function useClient(id: string | null) {
  return useQuery({
    queryKey: [...clientsQueryKey, 'record', id],
    queryFn: () => apiRequest(`/api/clients/${id}`, clientRecordSchema),
    enabled: Boolean(id),
  })
}

/** The photo stored last, offered again for 7 days (spec scans §4, the image cookie). */
export function useRecentPhoto() {
  return useQuery({
    queryKey: [...clientsQueryKey, 'recent-photo'],
    queryFn: async () =>
      (await apiRequest('/api/clients/photos/recent', recentPhotoResponseSchema)).photo,
    staleTime: 0,
  })
}

/** Stores a chosen or captured photo; the server re-encodes it and answers its number. */
export async function uploadClientPhoto(file: Blob) {
  const headers = apiHeaders({ 'content-type': file.type || 'application/octet-stream' })
  const { photo } = await apiRequest('/api/clients/photos', clientPhotoResponseSchema, {
    method: 'POST',
    body: file,
    headers,
  })
  return photo
}

/** Saves the form: a new client, or the one being edited. */
export function useSaveClient() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, form }: { id: string | null; form: ClientForm }) =>
      apiRequest(id ? `/api/clients/${id}` : '/api/clients', clientRecordSchema, {
        method: id ? 'PUT' : 'POST',
        body: JSON.stringify(form),
      }),
    onSuccess: (record: ClientRecord) => {
      queryClient.setQueryData([...clientsQueryKey, 'record', record.id], record)
      void queryClient.invalidateQueries({ queryKey: [...clientsQueryKey, 'list'] })
    },
  })
}

/** Deletes a client with their photo and scans. */
export function useDeleteClient() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/clients/${id}`, okResponseSchema, { method: 'DELETE' }),
    onSuccess: (_ok, id) => {
      queryClient.removeQueries({ queryKey: [...clientsQueryKey, 'record', id] })
      void queryClient.invalidateQueries({ queryKey: [...clientsQueryKey, 'list'] })
    },
  })
}

/** Runs an aura or chakra scan of the client; the server draws the result and keeps it. */
export function useScan(kind: 'aura' | 'chakra') {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ clientId, signature }: { clientId: string; signature: string | null }) =>
      (
        await apiRequest(`/api/clients/${clientId}/scans/${kind}`, clientScanResponseSchema, {
          method: 'POST',
          body: JSON.stringify({ signature }),
        })
      ).scan,
    onSuccess: (_scan, { clientId }) => {
      void queryClient.invalidateQueries({ queryKey: [...clientsQueryKey, 'scans', clientId] })
    },
  })
}

/** The client's scans, newest first. */
export function useScanHistory(clientId: string | null) {
  return useQuery({
    queryKey: [...clientsQueryKey, 'scans', clientId],
    queryFn: async () =>
      (await apiRequest(`/api/clients/${clientId}/scans`, clientScansResponseSchema)).scans,
    enabled: Boolean(clientId),
  })
}
