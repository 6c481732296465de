import Download from 'lucide-react/icons/download'
import Music from 'lucide-react/icons/eighth-notes'
import Film from 'lucide-react/icons/film'
import HardDriveDownload from 'lucide-react/icons/hard-drive-download'
import Trash2 from 'lucide-react/icons/trash'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MediaItem } from '../../../../domain/harmonize'
import { Button } from '../../../components/ui/button'
import { useFormat } from '../../../lib/format'
import {
  listSavedMedia,
  removeSavedMedia,
  type SavedMedia,
  saveMediaOffline,
  useHarmonizeMedia,
} from '../../../lib/harmonize-media'
import { useNotifications } from '../../../lib/notifications'

const nameOf = (key: string) => key.replace(/^medias\//, '')

/**
 * 'Media for offline use' on My Account: the uploaded media files, each saved to (or removed
 * from) this device with a progress bar. 'Save all' fetches the backing track first (spec §4).
 */
export function OfflineMedia() {
  const { t } = useTranslation()
  const format = useFormat()
  const { notify } = useNotifications()
  const media = useHarmonizeMedia()
  const [saved, setSaved] = useState<SavedMedia[]>([])
  const [progress, setProgress] = useState<{ key: string; percent: number } | null>(null)
  const supported = typeof caches !== 'undefined'

  const refresh = useCallback(async () => {
    setSaved(await listSavedMedia().catch(() => []))
  }, [])
  useEffect(() => {
    void refresh()
  }, [refresh])

  const save = async (items: MediaItem[]) => {
    for (const item of items) {
      setProgress({ key: item.key, percent: 0 })
      try {
        await saveMediaOffline(item, (percent) => setProgress({ key: item.key, percent }))
      } catch (error) {
        // Spec: media errors are only logged; the person still deserves a word.
        console.warn('media download failed', error)
        notify('error', t('media.saveError', { name: nameOf(item.key) }))
        break
      }
    }
    await refresh()
    setProgress(null)
  }

  const remove = async (key: string) => {
    await removeSavedMedia(key)
    await refresh()
  }

  const all = media.data?.all ?? []
  const savedKeys = new Set(saved.map((item) => item.key))
  // The backing track first, then the videos (spec: the backing track downloads first).
  const unsaved = all
    .filter((item) => !savedKeys.has(item.key))
    .sort((a, b) => Number(b.kind === 'backing') - Number(a.kind === 'backing'))
  const busy = progress !== null

  return (
    <div
      className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
      data-testid="offline-media"
    >
      <h2 className="flex items-center gap-2 border-b border-slate-100 px-5 py-4 text-lg font-semibold text-brand-900">
        <HardDriveDownload aria-hidden className="size-5 text-brand-600" />
        {t('media.title')}
      </h2>
      <div className="flex flex-col gap-3 px-5 py-4">
        {media.isPending ? (
          <p className="text-slate-600">{t('media.loading')}</p>
        ) : media.isError ? (
          <p className="text-slate-600">{t('media.error')}</p>
        ) : all.length === 0 ? (
          <p className="text-slate-600" data-testid="no-media">
            {t('media.none')}
          </p>
        ) : !supported ? (
          <p className="text-slate-600">{t('media.unsupported')}</p>
        ) : (
          <>
            <p className="text-sm text-slate-600">{t('media.intro')}</p>
            <ul className="divide-y divide-slate-100" aria-label={t('media.title')}>
              {all.map((item) => {
                const isSaved = savedKeys.has(item.key)
                const Icon = item.kind === 'backing' ? Music : Film
                return (
                  <li
                    key={item.key}
                    className="flex flex-wrap items-center gap-3 py-3"
                    data-testid="media-item"
                  >
                    <Icon aria-hidden className="size-5 text-brand-600" />
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium text-slate-900">{nameOf(item.key)}</p>
                      <p className="text-sm text-slate-500">
                        {t(item.kind === 'backing' ? 'media.backing' : 'media.video')} ·{' '}
                        {format.fileSize(item.size)}
                        {isSaved && ` · ${t('media.saved')}`}
                      </p>
                      {progress?.key === item.key && (
                        <div
                          role="progressbar"
                          aria-label={t('media.progress', { name: nameOf(item.key) })}
                          aria-valuemin={0}
                          aria-valuemax={100}
                          aria-valuenow={progress.percent}
                          className="mt-2 h-2 w-full overflow-hidden rounded-full bg-slate-200"
                        >
                          <div
                            className="h-full rounded-full bg-brand-600 transition-[width]"
                            style={{ width: `${progress.percent}%` }}
                          />
                        </div>
                      )}
                    </div>
                    {isSaved ? (
                      <Button
                        variant="secondary"
                        disabled={busy}
                        onClick={() => void remove(item.key)}
                        aria-label={`${t('media.remove')} ${nameOf(item.key)}`}
                      >
                        <Trash2 aria-hidden className="size-4" />
                        {t('media.remove')}
                      </Button>
                    ) : (
                      <Button
                        variant="secondary"
                        disabled={busy}
                        onClick={() => void save([item])}
                        aria-label={`${t('media.save')} ${nameOf(item.key)}`}
                      >
                        <Download aria-hidden className="size-4" />
                        {t('media.save')}
                      </Button>
                    )}
                  </li>
                )
              })}
            </ul>
            {/* Until every file is saved, even when only one is left. */}
            {unsaved.length > 0 && (
              <Button className="self-start" disabled={busy} onClick={() => void save(unsaved)}>
                <Download aria-hidden className="size-4" />
                {t('media.saveAll')}
              </Button>
            )}
            <h3 className="mt-2 text-sm font-semibold text-slate-700">{t('media.savedList')}</h3>
            {saved.length === 0 ? (
              <p className="text-sm text-slate-600">{t('media.nothingSaved')}</p>
            ) : (
              <ul className="text-sm text-slate-700" data-testid="saved-media">
                {saved.map((item) => (
                  <li key={item.key}>
                    {nameOf(item.key)} · {format.fileSize(item.size)}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </div>
  )
}
