import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { MessageKey } from '../../../domain/messages'
import { ApiError } from '../../lib/api-client'
import { currentLanguage, hasChosenLanguage, setLanguage } from '../../lib/i18n'
import { sessionQueryKey } from '../../lib/session'
import type * as Endpoints from './endpoints'

// One mutation per form of the account pages a visitor uses. The endpoints and their schemas
// (zod) load with the first request: the sign-in page paints and hydrates without them.
const endpoints = () => import('./endpoints')

type Body<K extends keyof typeof Endpoints> = Parameters<(typeof Endpoints)[K]>[0]

const signUp = async (body: Body<'signUp'>) => (await endpoints()).signUp(body)
const confirmSignUp = async (body: Body<'confirmSignUp'>) => (await endpoints()).confirmSignUp(body)
const resendCode = async (body: Body<'resendCode'>) => (await endpoints()).resendCode(body)
const forgotPassword = async (body: Body<'forgotPassword'>) =>
  (await endpoints()).forgotPassword(body)
const resetPassword = async (body: Body<'resetPassword'>) => (await endpoints()).resetPassword(body)
const signIn = async (body: Body<'signIn'>) => (await endpoints()).signIn(body)
const saveLanguage = async (body: Body<'saveLanguage'>) => (await endpoints()).saveLanguage(body)

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
export const signOut = async () => (await endpoints()).signOut()
