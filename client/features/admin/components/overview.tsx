import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ACCESS_SOURCES, type Overview as OverviewData } from '../../../../domain/members'
import { Button } from '../../../components/ui/button'
import { SectionCard } from '../../../components/ui/section-card'
import { useFormat } from '../../../lib/format'
import { overviewQuery } from '../api'
import { accessLabel } from './access-label'

/** How the business stands now, on one page. */
export function Overview() {
  const { t } = useTranslation()
  const format = useFormat()
  const overview = useQuery(overviewQuery)
  if (overview.isPending) return <p className="text-slate-600">{t('admin.loading')}</p>
  if (overview.isError) {
    return (
      <div className="flex flex-col items-start gap-2">
        <p role="alert" className="text-red-700">
          {overview.error.message}
        </p>
        <Button variant="secondary" onClick={() => void overview.refetch()}>
          {t('admin.retry')}
        </Button>
      </div>
    )
  }
  const data = overview.data
  const withAccess = ACCESS_SOURCES.reduce((sum, source) => sum + data.withAccess[source], 0)
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="overview">
        <Figure label={t('admin.overview.members')} value={data.members} />
        <Figure label={t('admin.overview.withAccess')} value={withAccess} />
        <Figure
          label={t('admin.overview.monthlyRecurring')}
          value={format.money(data.monthlyRecurring)}
        />
        <Figure
          label={t('admin.overview.revenue30')}
          value={format.money(data.revenueLast30Days)}
        />
        <Figure
          label={t('admin.overview.failedPayments')}
          value={data.failedPayments}
          link={
            data.failedPayments > 0
              ? { to: '/admin?view=members&status=past_due', label: t('admin.overview.seeThem') }
              : undefined
          }
        />
        <Figure label={t('admin.overview.mailGaveUp')} value={data.mailGaveUp} />
      </dl>
      <SectionCard title={t('admin.overview.bySource')}>
        <dl className="divide-y divide-slate-100">
          {ACCESS_SOURCES.map((source) => (
            <div key={source} className="flex justify-between gap-3 px-5 py-3">
              <dt className="text-slate-700">
                <Link
                  to={`/admin?view=members&access=${source}`}
                  className="text-brand-800 underline-offset-2 hover:underline"
                >
                  {accessLabel(t, source)}
                </Link>
              </dt>
              <dd className="font-medium text-slate-900 tabular-nums">{data.withAccess[source]}</dd>
            </div>
          ))}
        </dl>
      </SectionCard>
      <SectionCard title={t('admin.overview.signUps')}>
        <SignUpChart days={data.signUps} />
      </SectionCard>
    </>
  )
}

function Figure({
  label,
  value,
  link,
}: {
  label: string
  value: number | string
  link?: { to: string; label: string }
}) {
  return (
    <div className="flex flex-col gap-1 rounded-2xl bg-white px-5 py-4 shadow-sm ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-2xl font-semibold text-brand-900 tabular-nums">{value}</dd>
      {link && (
        <dd>
          <Link to={link.to} className="text-sm text-brand-700 underline-offset-2 hover:underline">
            {link.label}
          </Link>
        </dd>
      )}
    </div>
  )
}

/**
 * Sign-ups per day as bars, oldest on the left. A chart library would have cost more than this
 * one picture; screen readers get the total and the busiest day.
 */
function SignUpChart({ days }: { days: OverviewData['signUps'] }) {
  const { t } = useTranslation()
  const most = days.reduce((best, day) => (day.count > (best?.count ?? -1) ? day : best), days[0])
  const total = days.reduce((sum, day) => sum + day.count, 0)
  const top = Math.max(1, most?.count ?? 0)
  const format = useFormat()
  const dayText = (day: string) => format.shortDay(`${day}T00:00:00Z`)
  const summary = t('admin.overview.signUpsSummary', {
    total,
    days: days.length,
    day: most ? dayText(most.day) : '',
    count: most?.count ?? 0,
  })
  const width = days.length * 4
  return (
    <div className="flex flex-col gap-2 px-5 py-4">
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${width} 60`}
        preserveAspectRatio="none"
        className="h-32 w-full"
      >
        {days.map((day, index) => {
          const height = (day.count / top) * 58
          return (
            <rect
              key={day.day}
              x={index * 4 + 0.5}
              y={60 - height}
              width={3}
              height={height}
              className="fill-brand-500"
            >
              <title>{`${dayText(day.day)}: ${day.count}`}</title>
            </rect>
          )
        })}
      </svg>
      <p className="text-sm text-slate-600" data-testid="sign-ups-summary">
        {summary}
      </p>
    </div>
  )
}
