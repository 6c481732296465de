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
import { apiRequest, endpoint } from '../../lib/api-client'

// The account endpoints a visitor uses, typed by their shared schemas. Loaded with the first
// request (./api.ts), not with the pages.

export const signUp = endpoint(
  'POST',
  '/api/account/sign-up',
  signUpRequestSchema,
  okResponseSchema,
)
export const confirmSignUp = endpoint(
  'POST',
  '/api/account/confirm',
  confirmSignUpRequestSchema,
  okResponseSchema,
)
export const resendCode = endpoint(
  'POST',
  '/api/account/resend-code',
  emailWithHumanCheckSchema,
  okResponseSchema,
)
export const forgotPassword = endpoint(
  'POST',
  '/api/account/forgot-password',
  emailWithHumanCheckSchema,
  okResponseSchema,
)
export const resetPassword = endpoint(
  'POST',
  '/api/account/reset-password',
  resetPasswordRequestSchema,
  okResponseSchema,
)
export const signIn = endpoint(
  'POST',
  '/api/account/sign-in',
  signInRequestSchema,
  sessionResponseSchema,
)
export const saveLanguage = endpoint(
  'PUT',
  '/api/account/language',
  languageRequestSchema,
  okResponseSchema,
)

/** Ends the session on the server (the route takes no body). */
export const signOut = () =>
  apiRequest('/api/account/sign-out', okResponseSchema, { method: 'POST', body: '{}' })
