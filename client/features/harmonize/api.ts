import { okResponseSchema } from '../../../domain/api'
import { sessionContentSchema } from '../../../domain/harmonize'
import { apiRequest } from '../../lib/api-client'

/** Records the start of a session and gets its words (402 without access). */
export const startSession = (panelId: string) =>
  apiRequest('/api/harmonize/sessions', sessionContentSchema, {
    method: 'POST',
    body: JSON.stringify({ panelId }),
  })

export const completeSession = (sessionId: number) =>
  apiRequest(`/api/harmonize/sessions/${sessionId}/complete`, okResponseSchema, {
    method: 'POST',
    body: '{}',
  })
