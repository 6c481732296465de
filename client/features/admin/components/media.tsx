import { useQuery, useQueryClient } from '@tanstack/react-query'
import Upload from 'lucide-react/icons/upload'
import { type FormEvent, useId, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { MEDIA_MAX_BYTES, type OperatorMedia } from '../../../../domain/harmonize'
import { Button } from '../../../components/ui/button'
import { FormAlert } from '../../../components/ui/form-alert'
import { SectionCard } from '../../../components/ui/section-card'
import { SelectField } from '../../../components/ui/select-field'
import { ApiError } from '../../../lib/api-client'
import { useFormat } from '../../../lib/format'
import { useNotifications } from '../../../lib/notifications'
import { usePanels } from '../../../lib/panel-queries'
import { mediaQuery, uploadMediaFile, useRemoveMedia } from '../api'
import { ConfirmDialog } from './confirm-dialog'
import { ListState } from './list-state'

/** Media: upload a panel's video or the backing track with its progress, list, remove. */
export function Media() {
  const { t } = useTranslation()
  const media = useQuery(mediaQuery)
  const remove = useRemoveMedia()
  const [removing, setRemoving] = useState<OperatorMedia | null>(null)
  const { fileSize: size } = useFormat()
  const panels = usePanels()
  const panelName = (id: string | null) =>
    id === null
      ? t('admin.media.everyPanel')
      : (panels.data?.find((panel) => panel.id === id)?.name ?? id)
  const list = media.data?.media ?? []
  return (
    <>
      <SectionCard title={t('admin.media.uploadTitle')}>
        <div className="px-5 py-4">
          <UploadForm />
        </div>
      </SectionCard>
      <SectionCard title={t('admin.media.title')}>
        <div className="flex flex-col gap-3 px-5 py-4">
          <ListState
            query={media}
            isEmpty={() => list.length === 0}
            empty={<p className="text-slate-600">{t('admin.media.empty')}</p>}
          >
            {() => (
              <ul className="divide-y divide-slate-100" data-testid="media-list">
                {list.map((item) => (
                  <li key={item.key} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                    <span className="min-w-0 flex-1 font-medium text-slate-900 [overflow-wrap:anywhere]">
                      {item.key.replace(/^medias\//, '')}
                    </span>
                    <span className="text-slate-700">{t(`admin.media.kinds.${item.kind}`)}</span>
                    <span className="text-slate-700">{panelName(item.panelId)}</span>
                    <span className="text-slate-700 tabular-nums">{size(item.size)}</span>
                    <Button
                      variant="secondary"
                      aria-label={t('admin.media.removeLabel', {
                        name: item.key.replace(/^medias\//, ''),
                      })}
                      onClick={() => setRemoving(item)}
                    >
                      {t('admin.media.remove')}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </ListState>
        </div>
      </SectionCard>
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={t('admin.media.removeTitle')}
        effect={t('admin.media.removeEffect', {
          name: removing?.key.replace(/^medias\//, '') ?? '',
          panel: panelName(removing?.panelId ?? null),
        })}
        submitLabel={t('admin.media.removeSubmit')}
        done={t('admin.media.removed')}
        action={remove}
        variables={removing?.key ?? ''}
      />
    </>
  )
}

type Progress = { sent: number; total: number; saving?: boolean } | null

function UploadForm() {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const queryClient = useQueryClient()
  const panels = usePanels()
  const { fileSize: size } = useFormat()
  const fileId = useId()
  const hintId = useId()
  const errorId = useId()
  const [file, setFile] = useState<File | null>(null)
  const [panelId, setPanelId] = useState('')
  const [progress, setProgress] = useState<Progress>(null)
  const [error, setError] = useState<string | undefined>()
  const stop = useRef<AbortController | null>(null)
  const stopButton = useRef<HTMLButtonElement>(null)
  const status = useRef<HTMLParagraphElement>(null)
  const isAudio = file?.type.startsWith('audio/') ?? false

  const send = async (event: FormEvent) => {
    event.preventDefault()
    if (!file) {
      setError(t('admin.media.chooseFile'))
      return
    }
    if (file.size > MEDIA_MAX_BYTES) {
      setError(t('admin.media.tooLarge', { size: size(file.size) }))
      return
    }
    setError(undefined)
    const controller = new AbortController()
    stop.current = controller
    setProgress({ sent: 0, total: file.size })
    try {
      const media = await uploadMediaFile(
        file,
        { panelId: isAudio ? null : panelId || null, backing: isAudio },
        (sent, total) => setProgress({ sent, total }),
        controller.signal,
        () => {
          // Stop goes away now: focus on it would be lost to the page, so it moves to the status.
          const hadFocus = document.activeElement === stopButton.current
          flushSync(() => setProgress({ sent: file.size, total: file.size, saving: true }))
          if (hadFocus) status.current?.focus()
        },
      )
      notify('success', t('admin.media.uploaded', { name: media.key.replace(/^medias\//, '') }))
      setFile(null)
      ;(document.getElementById(fileId) as HTMLInputElement | null)?.form?.reset()
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: mediaQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] }),
      ])
    } catch (thrown) {
      if (thrown instanceof DOMException && thrown.name === 'AbortError') {
        notify('info', t('admin.media.stopped'))
      } else if (thrown instanceof ApiError && thrown.message) {
        setError(thrown.message)
      } else {
        setError(t('common.networkError'))
      }
      // The file may have been stored though its answer was lost (a proxy's time-out while the
      // parts were put together): the list says.
      void queryClient.invalidateQueries({ queryKey: mediaQuery.queryKey })
    } finally {
      stop.current = null
      setProgress(null)
    }
  }

  const percent = progress ? Math.floor((progress.sent / Math.max(progress.total, 1)) * 100) : 0
  return (
    <form noValidate onSubmit={send} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fileId} className="text-sm font-medium text-slate-800">
          {t('admin.media.file')}
        </label>
        {/* The browser's own file button speaks the browser's language, not the page's: it is
            hidden, and a label in the page's language opens it (keyboard focus shows on it). */}
        <input
          id={fileId}
          type="file"
          accept="video/mp4,video/webm,audio/mpeg,audio/mp4,audio/ogg,audio/wav,.mp4,.webm,.mp3,.m4a,.ogg,.wav"
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          aria-invalid={error ? true : undefined}
          disabled={progress !== null}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null)
            setError(undefined)
          }}
          className="peer sr-only"
        />
        <div className="flex flex-wrap items-center gap-3 peer-focus-visible:[&>label]:ring-2 peer-focus-visible:[&>label]:ring-brand-400">
          <label
            htmlFor={fileId}
            className="cursor-pointer rounded-lg bg-brand-50 px-4 py-2 font-medium text-brand-800 hover:bg-brand-100"
          >
            {t('admin.media.choose')}
          </label>
          <span className="min-w-0 text-sm text-slate-700 [overflow-wrap:anywhere]">
            {file ? file.name : t('admin.media.noFile')}
          </span>
        </div>
        <p id={hintId} className="text-xs text-slate-600">
          {file
            ? t(isAudio ? 'admin.media.isTrack' : 'admin.media.isVideo', { size: size(file.size) })
            : t('admin.media.fileHint')}
        </p>
      </div>
      <SelectField
        label={t('admin.media.panel')}
        value={panelId}
        disabled={progress !== null || isAudio}
        onChange={(event) => setPanelId(event.target.value)}
        options={[
          { value: '', label: t('admin.media.everyPanel') },
          ...(panels.data ?? []).map((panel) => ({ value: panel.id, label: panel.name })),
        ]}
      />
      {progress && (
        <div className="flex flex-col gap-1" data-testid="upload-progress">
          <progress
            className="h-2 w-full overflow-hidden rounded-full accent-brand-600"
            max={100}
            // Without a value the bar shows work of unknown length: putting the file together.
            value={progress.saving ? undefined : percent}
            aria-label={t('admin.media.progressLabel')}
          />
          <p
            ref={status}
            tabIndex={-1}
            className="text-sm text-slate-700 tabular-nums outline-none"
          >
            {progress.saving
              ? t('admin.media.saving')
              : t('admin.media.progress', {
                  percent,
                  sent: size(progress.sent),
                  total: size(progress.total),
                })}
          </p>
          {/* Said every tenth, not at every progress event. */}
          <p className="sr-only" aria-live="polite">
            {progress.saving
              ? t('admin.media.saving')
              : t('admin.media.progressSaid', { percent: Math.floor(percent / 10) * 10 })}
          </p>
        </div>
      )}
      <div id={errorId}>
        <FormAlert message={error} />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        {progress && !progress.saving && (
          <Button ref={stopButton} variant="ghost" onClick={() => stop.current?.abort()}>
            {t('admin.media.stop')}
          </Button>
        )}
        <Button type="submit" loading={progress !== null}>
          <Upload aria-hidden className="size-4" />
          {t('admin.media.upload')}
        </Button>
      </div>
    </form>
  )
}
