import { useMutation, useQueryClient } from '@tanstack/react-query'
import { languageRequestSchema } from '../../../domain/account'
import { okResponseSchema } from '../../../domain/api'
import {
  confirmSignUpRequestSchema,
  emailWithHumanCheckSchema,
  resetPasswordRequestSchema,
  sessionResponseSchema,
  signInRequestSchema,
  signUpRequestSchema,
} from '../../../domain/auth'
import { ApiError, apiRequest, endpoint } from '../../lib/api-client'
import { currentLanguage } from '../../lib/i18n'
import { sessionQueryKey } from '../../lib/session'

// The account endpoints a visitor uses, typed by their shared schemas, and one mutation per form.

const signUp = endpoint('POST', '/api/account/sign-up', signUpRequestSchema, okResponseSchema)
const confirmSignUp = endpoint(
  'POST',
  '/api/account/confirm',
  confirmSignUpRequestSchema,
  okResponseSchema,
)
const resendCode = endpoint(
  'POST',
  '/api/account/resend-code',
  emailWithHumanCheckSchema,
  okResponseSchema,
)
const forgotPassword = endpoint(
  'POST',
  '/api/account/forgot-password',
  emailWithHumanCheckSchema,
  okResponseSchema,
)
const resetPassword = endpoint(
  'POST',
  '/api/account/reset-password',
  resetPasswordRequestSchema,
  okResponseSchema,
)
const signIn = endpoint('POST', '/api/account/sign-in', signInRequestSchema, sessionResponseSchema)
const saveLanguage = endpoint(
  'PUT',
  '/api/account/language',
  languageRequestSchema,
  okResponseSchema,
)

/** Sign-up; the account's e-mails follow the language the person is using now. */
export const useSignUp = () =>
  useMutation({
    mutationFn: (body: Parameters<typeof signUp>[0]) =>
      signUp({ language: currentLanguage(), ...body }),
  })
export const useConfirmSignUp = () => useMutation({ mutationFn: confirmSignUp })
export const useResendCode = () => useMutation({ mutationFn: resendCode })
export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword })
export const useResetPassword = () => useMutation({ mutationFn: resetPassword })

/**
 * Sign-in that also updates the cached session, so guards see the user at once, and tells the
 * server the language in use: its e-mails follow it.
 */
export function useSignIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      queryClient.setQueryData(sessionQueryKey, session)
      void saveLanguage({ language: currentLanguage() }).catch(() => {})
    },
  })
}

/** The server refuses an account whose address is not confirmed yet with 403 (and mails a code). */
export function isUnconfirmedAccount(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403
}

/** Ends the session on the server (the route takes no body). */
export const signOut = () =>
  apiRequest('/api/account/sign-out', okResponseSchema, { method: 'POST', body: '{}' })
