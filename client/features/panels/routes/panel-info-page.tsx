import ChevronDown from 'lucide-react/icons/chevron-down'
import ChevronUp from 'lucide-react/icons/chevron-up'
import Play from 'lucide-react/icons/play'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import type { PanelDetail } from '../../../../domain/panels'
import { NotFoundPage } from '../../../components/not-found-page'
import { FullScreenSpinner } from '../../../components/ui/full-screen-spinner'
import { ApiError } from '../../../lib/api-client'
import { useHeaderSlot } from '../../../lib/header-slot'
import { usePanel } from '../../../lib/panel-queries'
import { PanelIcon } from '../components/panel-icon'

/**
 * A panel's page: what it is for, More Info / Hide Info, and the way into the session. An
 * unknown panel is the 404 page; while the panel loads, the header shows the route's '...'.
 */
export function PanelInfoPage() {
  const { id } = useParams()
  const panel = usePanel(id)
  if (panel.isPending) return <FullScreenSpinner />
  // A refetch that failed keeps the panel it had (the page's HTML's, or an earlier answer).
  if (!panel.data) {
    if (panel.error instanceof ApiError && panel.error.status === 404) return <NotFoundPage />
    return <PanelUnavailable message={panel.error.message} />
  }
  return <PanelInfo panel={panel.data} />
}

/** The panel could not be loaded (no network and no copy kept, or the server failed). */
function PanelUnavailable({ message }: { message: string }) {
  const { t } = useTranslation()
  useHeaderSlot({ title: t('panels.unavailable') })
  return (
    <section className="mx-auto max-w-md px-6 py-16 text-center">
      <p className="text-slate-700">{message}</p>
      <Link to="/home" className="mt-4 inline-block font-medium text-brand-700 hover:underline">
        {t('panels.backHome')}
      </Link>
    </section>
  )
}

function PanelInfo({ panel }: { panel: PanelDetail }) {
  const { t } = useTranslation()
  const [showInfo, setShowInfo] = useState(false)
  const toggle = useMemo(
    () => (
      <button
        type="button"
        onClick={() => setShowInfo((shown) => !shown)}
        aria-expanded={showInfo}
        aria-controls="panel-info-text"
        // The words hide on phones to leave the title room; the name stays for screen readers.
        aria-label={showInfo ? t('panels.hideInfo') : t('panels.moreInfo')}
        className="flex items-center gap-1 rounded-full px-3 py-1.5 text-sm font-medium hover:bg-white/15"
      >
        <span className="hidden sm:inline">
          {showInfo ? t('panels.hideInfo') : t('panels.moreInfo')}
        </span>
        {showInfo ? (
          <ChevronUp aria-hidden className="size-4" />
        ) : (
          <ChevronDown aria-hidden className="size-4" />
        )}
      </button>
    ),
    [showInfo, t],
  )
  useHeaderSlot({
    title: t('panels.panelTitle', { name: panel.name }),
    subtitle: panel.name,
    actions: toggle,
  })

  const { name, description, info, ingredients, palette, icon, solfeggioHz } = panel
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col items-center gap-5 px-4 py-8 text-center">
      <span
        className="flex size-24 items-center justify-center rounded-full text-white shadow-lg"
        style={{
          background: `radial-gradient(circle at 30% 30%, ${palette[2]}, ${palette[1]} 45%, ${palette[0]})`,
        }}
      >
        <PanelIcon name={icon} className="size-12" />
      </span>
      <h2 className="text-3xl font-semibold text-brand-900">{name}</h2>
      <p className="text-lg text-slate-700">{description}</p>
      {/* slate-500 on this background was 4.46:1, under WCAG's 4.5:1 for small text. */}
      <p className="text-sm text-slate-600">{t('panels.tone', { hz: solfeggioHz })}</p>
      {showInfo && (
        <div
          id="panel-info-text"
          className="rounded-2xl bg-white p-5 text-left shadow-sm ring-1 ring-slate-200"
        >
          <p className="text-slate-700">{info}</p>
          <h3 className="mt-4 text-sm font-semibold text-brand-800">{t('panels.ingredients')}</h3>
          <ul className="mt-2 flex flex-wrap gap-2">
            {ingredients.map((item) => (
              <li key={item} className="rounded-full bg-brand-100 px-3 py-1 text-sm text-brand-900">
                {item}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Link
        to={`/harmonizing-screen/${panel.id}`}
        className="inline-flex w-full max-w-xs items-center justify-center gap-2 rounded-lg bg-brand-600 px-5 py-3 text-lg font-medium text-white shadow hover:bg-brand-700"
      >
        <Play aria-hidden className="size-5" />
        {t('panels.harmonize')}
      </Link>
    </section>
  )
}
