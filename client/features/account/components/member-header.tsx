import { useQueryClient } from '@tanstack/react-query'
import { Camera } from 'lucide-react'
import { type ChangeEvent, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  AVATAR_MAX_BYTES,
  AVATAR_PATH,
  type AvatarResponse,
  avatarResponseSchema,
} from '../../../../domain/avatar'
import { messageText } from '../../../../domain/messages'
import { ApiError } from '../../../lib/api-client'
import { currentLanguage } from '../../../lib/i18n'
import { useNotifications } from '../../../lib/notifications'
import { sessionQueryKey, useSession } from '../../../lib/session'
import { UserAvatar } from './user-avatar'

/**
 * Sends the picture as raw bytes. XMLHttpRequest rather than fetch: only it reports upload
 * progress. `onProgress` gets the sent fraction, or null when the size is unknown. Rejects with
 * an ApiError carrying the server's message (already in the user's language), or status 0 for
 * a network failure.
 */
function uploadAvatar(
  file: File,
  onProgress: (fraction: number | null) => void,
  signal: AbortSignal,
): Promise<AvatarResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', AVATAR_PATH)
    // The server sniffs the real type; the declared one only has to get past its parser.
    xhr.setRequestHeader(
      'content-type',
      file.type.startsWith('image/') ? file.type : 'application/octet-stream',
    )
    xhr.setRequestHeader('accept', 'application/json')
    xhr.setRequestHeader('accept-language', currentLanguage())
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
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = avatarResponseSchema.safeParse(body)
        if (parsed.success) resolve(parsed.data)
        else reject(new ApiError(xhr.status, xhr.statusText))
        return
      }
      const message = (body as { message?: unknown } | undefined)?.message
      reject(new ApiError(xhr.status, typeof message === 'string' ? message : xhr.statusText))
    }
    xhr.onerror = () => reject(new ApiError(0, ''))
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'))
    signal.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(file)
  })
}

/** Upload state: idle, sending (fraction sent, null when unknown) or waiting for the server. */
type Upload =
  | { phase: 'idle' }
  | { phase: 'sending'; fraction: number | null }
  | { phase: 'processing' }

/**
 * The member's picture and name on My Account. The camera badge picks a new picture, uploads it
 * with visible progress and refreshes the session so every avatar in the app shows it.
 */
export function MemberHeader() {
  const { t } = useTranslation()
  const { user } = useSession()
  const { notify } = useNotifications()
  const queryClient = useQueryClient()
  const inputRef = useRef<HTMLInputElement>(null)
  const abortRef = useRef<AbortController | null>(null)
  const [upload, setUpload] = useState<Upload>({ phase: 'idle' })

  // Leaving the page cancels an upload still in flight.
  useEffect(() => () => abortRef.current?.abort(), [])

  if (!user) return null
  const busy = upload.phase !== 'idle'

  const handleFileChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    // Cleared so choosing the same file again still counts as a change.
    event.target.value = ''
    if (!file || busy) return
    if (file.size > AVATAR_MAX_BYTES) {
      notify('error', messageText('avatar.tooLarge', currentLanguage()))
      return
    }
    const controller = new AbortController()
    abortRef.current = controller
    setUpload({ phase: 'sending', fraction: 0 })
    try {
      await uploadAvatar(
        file,
        (fraction) =>
          setUpload(
            fraction !== null && fraction >= 1
              ? { phase: 'processing' }
              : { phase: 'sending', fraction },
          ),
        controller.signal,
      )
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey })
      notify('success', t('account.memberHeader.updated'))
    } catch (error) {
      if (controller.signal.aborted) return
      const message =
        error instanceof ApiError && error.status !== 0 && error.message
          ? error.message
          : t('account.memberHeader.uploadFailed')
      notify('error', message)
    } finally {
      if (abortRef.current === controller) abortRef.current = null
      if (!controller.signal.aborted) setUpload({ phase: 'idle' })
    }
  }

  const percent =
    upload.phase === 'sending' && upload.fraction !== null
      ? Math.round(upload.fraction * 100)
      : null
  return (
    <div
      className="flex items-center gap-4 rounded-2xl bg-white px-5 py-4 shadow-sm ring-1 ring-slate-200"
      data-testid="member-header"
    >
      <div className="relative shrink-0">
        <UserAvatar
          name={user.name}
          avatarUpdatedAt={user.avatarUpdatedAt}
          className="size-20 bg-brand-100 text-2xl text-brand-800"
        />
        {busy && (
          <span
            aria-hidden
            className="absolute inset-0 flex items-center justify-center rounded-full bg-slate-900/45"
          >
            <span className="size-8 animate-spin rounded-full border-[3px] border-white border-t-transparent" />
          </span>
        )}
        <button
          type="button"
          onClick={() => inputRef.current?.click()}
          disabled={busy}
          aria-label={t('account.memberHeader.changePicture')}
          title={t('account.memberHeader.changePicture')}
          className="absolute -right-1 -bottom-1 flex size-8 items-center justify-center rounded-full bg-brand-600 text-white shadow ring-2 ring-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-wait disabled:bg-slate-400"
          data-testid="change-picture"
        >
          <Camera aria-hidden className="size-4" />
        </button>
        <input
          ref={inputRef}
          type="file"
          accept="image/*"
          className="hidden"
          tabIndex={-1}
          aria-hidden
          onChange={handleFileChange}
          data-testid="avatar-file-input"
        />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <h2 className="truncate text-xl font-semibold text-brand-900" data-testid="member-name">
          {user.name}
        </h2>
        {busy && (
          <div className="flex flex-col gap-1" aria-live="polite">
            <div
              role="progressbar"
              aria-label={t('account.memberHeader.progressLabel')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent ?? undefined}
              className="h-1.5 w-full max-w-56 overflow-hidden rounded-full bg-brand-100"
              data-testid="avatar-upload-progress"
            >
              <div
                className={`h-full rounded-full bg-brand-600 transition-[width] ${percent === null ? 'w-1/3 animate-pulse' : ''}`}
                style={percent === null ? undefined : { width: `${percent}%` }}
              />
            </div>
            <p className="text-sm text-slate-600">
              {upload.phase === 'processing'
                ? t('account.memberHeader.processing')
                : percent === null
                  ? t('account.memberHeader.sending')
                  : t('account.memberHeader.uploading', { percent })}
            </p>
          </div>
        )}
      </div>
    </div>
  )
}
