import { okResponseSchema } from '../../../domain/account'
import { apiRequest } from '../../lib/api-client'

const post = (path: string, body: unknown) =>
  apiRequest(path, okResponseSchema, { method: 'POST', body: JSON.stringify(body) })

export const changePassword = (body: { currentPassword: string; newPassword: string }) =>
  post('/api/account/change-password', body)

export const requestEmailChange = (body: { newEmail: string }) =>
  post('/api/account/email-change', body)

export const confirmEmailChange = (body: { newEmail: string; code: string }) =>
  post('/api/account/email-change/confirm', body)
