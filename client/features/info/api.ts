import { useQuery } from '@tanstack/react-query'
import { infoContactResponseSchema } from '../../../domain/info'
import { apiRequest } from '../../lib/api-client'

/** The support address the privacy and terms pages give (the server's SUPPORT_EMAIL). */
export function useContact() {
  return useQuery({
    queryKey: ['info', 'contact'],
    queryFn: () => apiRequest('/api/info/contact', infoContactResponseSchema),
    // The address changes only with the server's configuration.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}
