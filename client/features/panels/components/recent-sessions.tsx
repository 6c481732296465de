import CheckCircle2 from 'lucide-react/icons/circle-check'
import CircleDashed from 'lucide-react/icons/circle-dashed'
import History from 'lucide-react/icons/rotate-ccw-clock'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useFormat } from '../../../lib/format'
import { useRecentSessions } from '../../../lib/recent-sessions'

/** The user's last few sessions, newest first, each a way back to its panel. */
export function RecentSessions() {
  const { t } = useTranslation()
  const sessions = useRecentSessions()
  if (!sessions.data?.length) return null
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
                <StartedAt iso={session.startedAt} />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

/**
 * When a session started, as the language writes a date and time ('Nov 23, 2026, 1:49 PM'). The
 * time never breaks across lines: on a phone 'PM' alone on the next line reads as a typo.
 */
function StartedAt({ iso }: { iso: string }) {
  const format = useFormat()
  const whole = format.dateTime(iso)
  const clock = format.time(iso)
  const cut = whole.lastIndexOf(clock)
  if (cut < 0) return <span className="whitespace-nowrap">{whole}</span>
  return (
    <>
      {whole.slice(0, cut)}
      <time dateTime={iso} className="whitespace-nowrap">
        {clock}
      </time>
    </>
  )
}
