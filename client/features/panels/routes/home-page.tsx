import { Lock } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Button } from '../../../components/ui/button'
import { FullScreenSpinner } from '../../../components/ui/full-screen-spinner'
import { useMessageText } from '../../../lib/messages'
import { useAccess } from '../../access/api'
import { RecentSessions } from '../../harmonize/components/recent-sessions'
import { usePanels } from '../api'
import { PanelIcon } from '../components/panel-icon'

/** The panel grid. Without access the cards are greyed and cannot be opened. */
export function HomePage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const panels = usePanels()
  const access = useAccess()
  if (panels.isPending || access.isPending) return <FullScreenSpinner />
  if (panels.isError) {
    return (
      <section className="mx-auto max-w-md px-6 py-16 text-center">
        <p className="text-slate-700">{t('panels.loadError')}</p>
        <Button className="mt-4" onClick={() => void panels.refetch()}>
          {t('panels.retry')}
        </Button>
      </section>
    )
  }
  const open = access.data?.hasAccess === true
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-6">
      {!open && (
        <div
          role="status"
          className="mb-6 flex flex-wrap items-center gap-3 rounded-xl bg-amber-50 px-4 py-3 text-amber-950 ring-1 ring-amber-200"
        >
          <Lock aria-hidden className="size-5" />
          <p className="flex-1 font-medium" data-testid="no-payment">
            {text('access.noPayment')}
          </p>
          <Link
            to="/my-account"
            className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
          >
            {t('panels.goToAccount')}
          </Link>
        </div>
      )}
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" data-testid="panel-grid">
        {panels.data.map((panel) => {
          const [deep, mid, light] = panel.palette
          const card = (
            <>
              <span
                className="flex size-12 items-center justify-center rounded-full text-white shadow"
                style={{ background: `linear-gradient(135deg, ${deep}, ${mid})` }}
              >
                <PanelIcon name={panel.icon} className="size-6" />
              </span>
              <span className="text-base font-semibold text-slate-900">{panel.name}</span>
              <span className="line-clamp-2 text-xs text-slate-600">{panel.description}</span>
            </>
          )
          const frame = 'flex h-full flex-col items-center gap-2 rounded-2xl p-4 text-center ring-1'
          return (
            <li key={panel.id}>
              {open ? (
                <Link
                  to={`/panel-info/${panel.id}`}
                  className={`${frame} bg-white ring-slate-200 transition hover:-translate-y-0.5 hover:shadow-md`}
                  style={{ backgroundImage: `linear-gradient(180deg, ${light}55, #ffffff 70%)` }}
                >
                  {card}
                </Link>
              ) : (
                <div
                  aria-disabled="true"
                  className={`${frame} cursor-not-allowed bg-slate-100 opacity-60 ring-slate-200 grayscale`}
                  data-testid="panel-card-locked"
                >
                  {card}
                </div>
              )}
            </li>
          )
        })}
      </ul>
      {open && <RecentSessions />}
    </section>
  )
}
