import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod/mini'
import type { redeemCodeRequestSchema } from '../../../domain/access-codes'
import {
  changePasswordRequestSchema,
  emailChangeConfirmSchema,
  emailChangeRequestSchema,
  languageRequestSchema,
} from '../../../domain/account'
import { okResponseSchema } from '../../../domain/api'
import { AVATAR_PATH, type AvatarResponse, avatarResponseSchema } from '../../../domain/avatar'
import { ApiError, apiErrorFrom, apiHeaders, endpoint } from '../../lib/api-client'
import { sessionQueryKey } from '../../lib/session'
import { useRedeemCode as useRedeemCodeCall } from '../access/public'

// The signed-in member's own account: one mutation per form of My Account.

const changePassword = endpoint(
  'POST',
  '/api/account/change-password',
  changePasswordRequestSchema,
  okResponseSchema,
)
const requestEmailChange = endpoint(
  'POST',
  '/api/account/email-change',
  emailChangeRequestSchema,
  okResponseSchema,
)
const saveLanguage = endpoint(
  'PUT',
  '/api/account/language',
  languageRequestSchema,
  okResponseSchema,
)

/**
 * Remembers the member's language on the account, so e-mails and other devices follow it.
 * Best effort: the choice still applies on this device when it cannot be saved.
 */
export async function saveAccountLanguage(
  language: z.infer<typeof languageRequestSchema>['language'],
) {
  await saveLanguage({ language }).catch(() => {})
}

const confirmEmailChange = endpoint(
  'POST',
  '/api/account/email-change/confirm',
  emailChangeConfirmSchema,
  okResponseSchema,
)

export const useChangePassword = () => useMutation({ mutationFn: changePassword })
export const useRequestEmailChange = () => useMutation({ mutationFn: requestEmailChange })

/** Confirms the new address; the session is read again so every screen shows it. */
export function useConfirmEmailChange() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  })
}

/** Redeems an access code; the access feature refreshes the access state everywhere. */
export function useRedeemCode() {
  const redeem = useRedeemCodeCall()
  return useMutation({
    mutationFn: ({ code }: z.input<typeof redeemCodeRequestSchema>) => redeem(code),
  })
}

export interface AvatarUpload {
  file: File
  /** The sent fraction, or null when the size is unknown. */
  onProgress: (fraction: number | null) => void
  signal: AbortSignal
}

/**
 * Sends the picture as raw bytes. XMLHttpRequest rather than fetch: only it reports upload
 * progress. Rejects with an ApiError carrying the server's message (already in the user's
 * language), or status 0 when no answer came; with an AbortError when `signal` aborts.
 */
function uploadAvatar({ file, onProgress, signal }: AvatarUpload): Promise<AvatarResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', AVATAR_PATH)
    for (const [name, value] of apiHeaders()) xhr.setRequestHeader(name, value)
    // The server sniffs the real type; the declared one only has to get past its parser.
    xhr.setRequestHeader(
      'content-type',
      file.type.startsWith('image/') ? file.type : 'application/octet-stream',
    )
    xhr.upload.onprogress = (event) => {
      onProgress(event.lengthComputable ? event.loaded / event.total : null)
    }
    xhr.onload = () => {
      let body: unknown
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        body = undefined
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(apiErrorFrom(xhr.status, xhr.statusText, body))
        return
      }
      const parsed = avatarResponseSchema.safeParse(body)
      if (parsed.success) resolve(parsed.data)
      else reject(new ApiError(xhr.status, xhr.statusText))
    }
    xhr.onerror = () => reject(new ApiError(0, ''))
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'))
    signal.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(file)
  })
}

/** Replaces the member's picture; the session is read again so every avatar shows the new one. */
export function useUploadAvatar() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  })
}
