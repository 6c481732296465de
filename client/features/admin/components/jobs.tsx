import { useQuery } from '@tanstack/react-query'
import RotateCcw from 'lucide-react/icons/rotate-ccw'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FailedJobView } from '../../../../domain/operators'
import { Button } from '../../../components/ui/button'
import { SectionCard } from '../../../components/ui/section-card'
import { useFormat } from '../../../lib/format'
import { failedJobsQuery, useRetryJob } from '../api'
import { ConfirmDialog } from './confirm-dialog'
import { ListState } from './list-state'

/** Jobs that gave up after their retries (mail, invoices, syncs): why, and Retry. */
export function Jobs() {
  const { t } = useTranslation()
  const jobs = useQuery(failedJobsQuery)
  const retry = useRetryJob()
  const [retrying, setRetrying] = useState<FailedJobView | null>(null)
  const format = useFormat()
  const list = jobs.data?.jobs ?? []
  const queueName = (job: FailedJobView) =>
    t(`admin.jobs.queues.${job.queue.replace(/[.-]/g, '_')}`, { defaultValue: job.queue })
  /** The queue in words, and whom or what the job was about. */
  const named = (job: FailedJobView) =>
    job.about ? `${queueName(job)} — ${job.about}` : queueName(job)
  return (
    <SectionCard title={t('admin.jobs.title')}>
      <div className="flex flex-col gap-3 px-5 py-4">
        <p className="text-sm text-slate-600">{t('admin.jobs.intro')}</p>
        <ListState
          query={jobs}
          isEmpty={() => list.length === 0}
          empty={
            <p className="text-slate-600" data-testid="jobs-empty">
              {t('admin.jobs.empty')}
            </p>
          }
        >
          {() => (
            <ul className="divide-y divide-slate-100" data-testid="failed-jobs">
              {list.map((job) => (
                <li key={job.id} className="flex flex-col gap-1 py-3 text-sm">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">
                      {queueName(job)}
                    </span>
                    <time dateTime={job.failedAt} className="text-slate-600">
                      {format.dateTime(job.failedAt)}
                    </time>
                  </div>
                  {job.about && (
                    <p className="text-slate-700 [overflow-wrap:anywhere]">{job.about}</p>
                  )}
                  <p className="text-red-800 [overflow-wrap:anywhere]" data-testid="job-error">
                    {t('admin.jobs.error', { count: job.attempts, error: job.error })}
                  </p>
                  {job.retryable && (
                    <Button
                      variant="secondary"
                      className="mt-1 self-start"
                      aria-label={t('admin.jobs.retryLabel', { about: named(job) })}
                      onClick={() => setRetrying(job)}
                    >
                      <RotateCcw aria-hidden className="size-4" />
                      {t('admin.jobs.retry')}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </div>
      <ConfirmDialog
        open={retrying !== null}
        onClose={() => setRetrying(null)}
        title={t('admin.jobs.retryTitle')}
        effect={t('admin.jobs.retryEffect', { about: retrying ? named(retrying) : '' })}
        submitLabel={t('admin.jobs.retrySubmit')}
        done={t('admin.jobs.retried')}
        action={retry}
        variables={retrying?.id ?? ''}
      />
    </SectionCard>
  )
}
