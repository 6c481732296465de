import { useQueryClient } from '@tanstack/react-query'
import { okResponseSchema } from '../../../domain/account'
import { sessionResponseSchema } from '../../../domain/session'
import { apiRequest } from '../../lib/api-client'
import { currentLanguage } from '../../lib/i18n'
import { sessionQueryKey } from '../../lib/session'

const post = (path: string, body: unknown) =>
  apiRequest(path, okResponseSchema, { method: 'POST', body: JSON.stringify(body) })

export const signUp = (body: {
  name: string
  email: string
  password: string
  code?: string
  humanCheck: string
}) => post('/api/account/sign-up', { ...body, language: currentLanguage() })

export const confirmSignUp = (body: { email: string; code: string }) =>
  post('/api/account/confirm', body)

export const resendCode = (body: { email: string; humanCheck: string }) =>
  post('/api/account/resend-code', body)

export const forgotPassword = (body: { email: string; humanCheck: string }) =>
  post('/api/account/forgot-password', body)

export const resetPassword = (body: {
  email: string
  code: string
  password: string
  humanCheck: string
}) => post('/api/account/reset-password', body)

/** Sign-in that also updates the cached session, so guards see the user at once. */
export function useSignIn() {
  const queryClient = useQueryClient()
  return async (body: {
    email: string
    password: string
    rememberMe: boolean
    humanCheck: string
  }) => {
    const session = await apiRequest('/api/account/sign-in', sessionResponseSchema, {
      method: 'POST',
      body: JSON.stringify(body),
    })
    queryClient.setQueryData(sessionQueryKey, session)
    // E-mails follow the language the person is using now.
    void apiRequest('/api/account/language', okResponseSchema, {
      method: 'PUT',
      body: JSON.stringify({ language: currentLanguage() }),
    }).catch(() => {})
    return session
  }
}

export const signOut = () => post('/api/account/sign-out', {})
