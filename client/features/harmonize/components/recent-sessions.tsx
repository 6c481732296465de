import { CheckCircle2, CircleDashed, History } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useRecentSessions } from '../api'

/** The user's last few sessions, newest first, each a way back to its panel. */
export function RecentSessions() {
  const { t, i18n } = useTranslation()
  const sessions = useRecentSessions()
  if (!sessions.data?.length) return null
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <section className="mt-8" aria-labelledby="recent-sessions">
      <h2
        id="recent-sessions"
        className="mb-3 flex items-center gap-2 text-lg font-semibold text-brand-900"
      >
        <History aria-hidden className="size-5 text-brand-600" />
        {t('harmonize.recent.title')}
      </h2>
      <ul
        className="divide-y divide-slate-100 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
        data-testid="recent-sessions"
      >
        {sessions.data.slice(0, 5).map((session) => (
          <li key={session.id}>
            <Link
              to={`/panel-info/${session.panelId}`}
              className="flex items-center gap-3 px-4 py-3 hover:bg-brand-50"
            >
              {session.completedAt ? (
                <CheckCircle2 aria-hidden className="size-5 text-emerald-600" />
              ) : (
                <CircleDashed aria-hidden className="size-5 text-slate-400" />
              )}
              <span className="flex-1 font-medium text-slate-900">{session.panelName}</span>
              <span className="text-sm text-slate-500">
                {session.completedAt
                  ? t('harmonize.recent.completed')
                  : t('harmonize.recent.stopped')}
                {' · '}
                {format.format(new Date(session.startedAt))}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
