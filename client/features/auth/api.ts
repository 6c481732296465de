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
import type { MessageKey } from '../../../domain/messages'
import { ApiError, apiRequest, endpoint } from '../../lib/api-client'
import { currentLanguage, hasChosenLanguage, setLanguage } from '../../lib/i18n'
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
 * Sign-in that also updates the cached session, so guards see the user at once, and settles the
 * language: one picked on this device is saved to the account (its e-mails follow it); a device
 * where none was picked takes the account's, so a new phone speaks the person's language.
 */
export function useSignIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signIn,
    onSuccess: async (session) => {
      const accountLanguage = session.user?.language
      if (!hasChosenLanguage() && accountLanguage && accountLanguage !== currentLanguage()) {
        // Before the session is cached, so the member's first page is already in their language.
        await setLanguage(accountLanguage).catch(() => {})
      } else if (accountLanguage !== currentLanguage()) {
        void saveLanguage({ language: currentLanguage() }).catch(() => {})
      }
      queryClient.setQueryData(sessionQueryKey, session)
    },
  })
}

const UNCONFIRMED_REASONS: MessageKey[] = ['auth.emailNotVerified', 'auth.emailNotVerifiedCodeSent']

/** The server refuses an account whose address is not confirmed yet (and mails a code if it may). */
export function isUnconfirmedAccount(error: unknown): error is ApiError {
  return error instanceof ApiError && UNCONFIRMED_REASONS.some((reason) => reason === error.reason)
}

/** Ends the session on the server (the route takes no body). */
export const signOut = () =>
  apiRequest('/api/account/sign-out', okResponseSchema, { method: 'POST', body: '{}' })
