import Circle from 'lucide-react/icons/circle'
import CircleCheck from 'lucide-react/icons/circle-check'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { EXPORT_STEPS } from '../../../../domain/leaving'
import { Button } from '../../../components/ui/button'
import { FormAlert } from '../../../components/ui/form-alert'
import { OfflineNotice } from '../../../components/ui/offline-notice'
import { readServerError } from '../../../lib/form-mutation'
import { useOfflineReason } from '../../../lib/network-status'
import { useNotifications } from '../../../lib/notifications'
import { useDataExport, useStartExport } from '../api'

/**
 * Bytes as a person reads them, in the interface's language (`1.2 MB`, `1,2 MB`); a file under a
 * kilobyte still reads in kilobytes, as the language's unit names for bytes do not agree.
 */
function formatSize(bytes: number, language: string) {
  const [value, unit] =
    bytes >= 1_000_000 ? [bytes / 1_000_000, 'megabyte'] : [bytes / 1000, 'kilobyte']
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit,
    minimumFractionDigits: value < 10 ? 1 : 0,
    maximumFractionDigits: 1,
  }).format(Math.max(value, 0.1))
}

/**
 * The member's download: the button that asks for it; while it is prepared, its steps and a
 * bar; once ready, the link to the ZIP and until when it can be had.
 */
export function ExportProgress({ icon }: { icon: ReactNode }) {
  const { t, i18n } = useTranslation()
  const { notify } = useNotifications()
  const state = useDataExport()
  const start = useStartExport()
  const current = state.data?.export ?? null
  const preparing = current?.status === 'preparing'
  // Offline, what was last known stays on screen (the query keeps its data, and is not asked
  // while there is no network); only a new file, which the server prepares, waits for it.
  const offlineReason = useOfflineReason()

  const handleStart = () =>
    start.mutate(undefined, {
      onSuccess: () => notify('info', t('leaving.export.started')),
      onError: (error) => notify('error', readServerError(error, t('common.networkError')).message),
    })

  return (
    <div className="flex flex-col gap-4">
      {preparing && current && (
        <div className="flex flex-col gap-3" data-testid="export-progress">
          <p className="font-medium text-slate-900" role="status">
            {t('leaving.export.preparing')}{' '}
            <span className="text-sm font-normal text-slate-600">
              {t('leaving.export.progress', {
                step: Math.min(current.step + 1, EXPORT_STEPS.length),
                steps: EXPORT_STEPS.length,
              })}
            </span>
          </p>
          <div
            role="progressbar"
            aria-label={t('leaving.export.preparing')}
            aria-valuemin={0}
            aria-valuemax={EXPORT_STEPS.length}
            aria-valuenow={current.step}
            className="h-2 overflow-hidden rounded-full bg-slate-100"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-[width] duration-500 motion-reduce:transition-none"
              style={{ width: `${Math.max(8, (current.step / EXPORT_STEPS.length) * 100)}%` }}
            />
          </div>
          <ol className="flex flex-col gap-1.5 text-sm">
            {EXPORT_STEPS.map((step, index) => {
              const done = index < current.step
              const doing = index === current.step
              const Icon = done ? CircleCheck : doing ? LoaderCircle : Circle
              return (
                <li
                  key={step}
                  className={`flex items-center gap-2 ${done || doing ? 'text-slate-900' : 'text-slate-500'}`}
                >
                  <Icon
                    aria-hidden
                    className={`size-4 shrink-0 ${done ? 'text-brand-600' : ''} ${doing ? 'animate-spin motion-reduce:animate-none' : ''}`}
                  />
                  {t(`leaving.export.steps.${step}`)}
                  <span className="sr-only">
                    {' '}
                    (
                    {t(
                      done
                        ? 'leaving.export.done'
                        : doing
                          ? 'leaving.export.doing'
                          : 'leaving.export.toDo',
                    )}
                    )
                  </span>
                </li>
              )
            })}
          </ol>
        </div>
      )}
      {current?.status === 'ready' && current.downloadUrl && (
        <div className="flex flex-col gap-2 rounded-lg bg-brand-50 px-4 py-3">
          <p className="font-medium text-slate-900" role="status">
            {t('leaving.export.ready')}
          </p>
          <a
            href={current.downloadUrl}
            download
            className="inline-flex w-fit items-center gap-2 rounded-lg bg-brand-700 px-4 py-2.5 font-medium text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            {icon}
            {t('leaving.export.download', { size: formatSize(current.size ?? 0, i18n.language) })}
          </a>
          {current.expiresAt && (
            <p className="text-sm text-slate-600">
              {t('leaving.export.until', {
                date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(
                  new Date(current.expiresAt),
                ),
              })}
            </p>
          )}
        </div>
      )}
      {current?.status === 'failed' && <FormAlert message={t('leaving.export.failed')} />}
      {!preparing && (
        <div>
          <Button
            variant={current?.status === 'ready' ? 'secondary' : 'primary'}
            loading={start.isPending}
            disabled={offlineReason !== undefined}
            aria-describedby={offlineReason}
            onClick={handleStart}
          >
            {current?.status !== 'ready' && icon}
            {t(current?.status === 'ready' ? 'leaving.export.again' : 'leaving.export.button')}
          </Button>
        </div>
      )}
      {!preparing && offlineReason !== undefined && (
        <OfflineNotice id={offlineReason}>{t('leaving.export.offline')}</OfflineNotice>
      )}
    </div>
  )
}
