import { zodResolver } from '@hookform/resolvers/zod'
import Camera from 'lucide-react/icons/camera'
import { type ChangeEvent, useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { IMAGE_MAX_BYTES } from '../../../../domain/images'
import { ourZodMessages } from '../../../../domain/messages'
import { ApiError } from '../../../lib/api-client'
import { useFormMutation } from '../../../lib/form-mutation'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { useSession } from '../../../lib/session'
import { useUploadAvatar } from '../api'
import { UserAvatar } from './user-avatar'

// The picture is a form of one file: the size limit is checked before anything is sent; the
// type and the pixels are the server's to judge (it sniffs and decodes what arrives).
const avatarFormSchema = z.object({
  file: z.file().check(z.maxSize(IMAGE_MAX_BYTES, { error: 'image.tooLarge' })),
})

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
  const text = useMessageText()
  const { user } = useSession()
  const { notify } = useNotifications()
  const inputRef = useRef<HTMLInputElement>(null)
  const abortRef = useRef<AbortController | null>(null)
  const [upload, setUpload] = useState<Upload>({ phase: 'idle' })
  const form = useForm({ resolver: zodResolver(avatarFormSchema, ourZodMessages) })
  const { submit, showMessage } = useFormMutation(form, useUploadAvatar())

  // Leaving the page cancels an upload still in flight.
  useEffect(() => () => abortRef.current?.abort(), [])

  if (!user) return null
  const busy = upload.phase !== 'idle'

  const handleUpload = form.handleSubmit(
    async ({ file }) => {
      const controller = new AbortController()
      abortRef.current = controller
      setUpload({ phase: 'sending', fraction: 0 })
      await submit(
        {
          file,
          signal: controller.signal,
          onProgress: (fraction) =>
            setUpload(
              fraction !== null && fraction >= 1
                ? { phase: 'processing' }
                : { phase: 'sending', fraction },
            ),
        },
        {
          onSuccess: () => notify('success', t('account.memberHeader.updated')),
          onError: (error) => {
            if (controller.signal.aborted) return true
            // No answer at all: say what failed, not only that the network did.
            if (!(error instanceof ApiError) || error.status === 0) {
              showMessage(t('account.memberHeader.uploadFailed'))
              return true
            }
            return false
          },
        },
      )
      if (abortRef.current === controller) abortRef.current = null
      if (!controller.signal.aborted) setUpload({ phase: 'idle' })
    },
    // The input is hidden behind the camera badge, so its reason goes to the snackbar.
    (invalid) => showMessage(text(invalid.file?.message)),
  )

  const handleFileChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    // Cleared so choosing the same file again still counts as a change.
    event.target.value = ''
    if (!file || busy) return
    form.setValue('file', file)
    void handleUpload()
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
        <h2
          className="text-xl font-semibold text-brand-900 [overflow-wrap:anywhere]"
          data-testid="member-name"
        >
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
