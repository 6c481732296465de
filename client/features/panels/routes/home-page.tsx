import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type ComponentType, lazy, Suspense, useDeferredValue, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Button } from '../../../components/ui/button'
import { FullScreenSpinner } from '../../../components/ui/full-screen-spinner'
import { useKeepForOffline } from '../../../lib/keep-for-offline'
import { usePanels } from '../../../lib/panel-queries'
import { planQuery } from '../../../lib/plan-query'
import { useHydrated } from '../../../lib/prerendered'
import { useSession } from '../../../lib/session'
import { accessQuery, NoAccessNotice } from '../../access/public'
import { PanelIcon } from '../components/panel-icon'
import { RecentSessions } from '../components/recent-sessions'

// Shown only after a failed payment or while the plan is paused, and its module brings
// billing's shared screens (dialogs, cards, plans: 4 chunks, 20 KB gzipped) with it. Loaded
// only when the plan says so (usePlanBannerDue), so a member whose payments are fine never
// downloads it; the plan query and its schemas cost /home about 2.3 KB instead.
// If that code cannot arrive (a flaky network before it was cached), the page goes on without
// the banner rather than fail.
const PlanBanner = lazy(
  (): Promise<{ default: ComponentType }> =>
    import('../../billing/public')
      .then(async (billing) => {
        await billing.billingTextsReady()
        return { default: billing.PlanBanner }
      })
      .catch(() => ({ default: () => null })),
)

/**
 * Whether the plan has something to say on /home (a refused charge, a charge waiting for the
 * bank's check, a paused plan), so the banner's code is worth loading; the banner decides what
 * it shows. The same plan query as billing's, so a charge still under way is followed here too
 * (the header's 'payment in progress', access once the bank answers) and the banner, once
 * loaded, has its data at once. Once due, it stays on the page: a payment made from it is
 * answered there.
 */
function usePlanBannerDue(signedIn: boolean): boolean {
  const plan = useQuery({ ...planQuery(useQueryClient()), enabled: signedIn })
  const state = plan.data
  const due =
    state?.paymentFailed === true ||
    (state?.bankCheck !== null && state?.bankCheck !== undefined) ||
    state?.subscription?.status === 'paused'
  const [shown, setShown] = useState(false)
  if (due && !shown) setShown(true)
  return due || shown
}

/**
 * The panel grid. Without access the cards are greyed and cannot be opened. The page shows
 * before the session has answered (routes.tsx, SHOWN_BEFORE_SESSION), from the HTML the build
 * rendered with the panels in it: until it knows the member's access the cards are links, as a
 * member with access sees them, and nothing of the member's own is asked for or shown.
 */
export function HomePage() {
  const { t } = useTranslation()
  const panels = usePanels()
  const signedIn = useSession().user !== null
  // While React hydrates, the page must be the HTML's, which knew no member: what the browser
  // may already know of them waits for the next render.
  const hydrated = useHydrated()
  const access = useQuery({ ...accessQuery, enabled: signedIn })
  const planBanner = usePlanBannerDue(signedIn) && hydrated
  useKeepForOffline(access.data?.hasAccess)
  // The grid replaces the spinner in a background render, in slices: on the answer that
  // completes its data (a query's update, never sliced) it was one task of 20–25 ms here, four
  // times that on a slow phone. Only that way round: the spinner comes back at once.
  const pending = panels.isPending
  const wasPending = useDeferredValue(pending)
  if (pending || wasPending) return <FullScreenSpinner />
  // A refetch that failed keeps the panels it had (those of the page's HTML, or an earlier
  // answer): they stay, rather than give way to an error.
  if (!panels.data) {
    return (
      <section className="mx-auto max-w-md px-6 py-16 text-center">
        <p className="text-slate-700">{t('panels.loadError')}</p>
        <Button className="mt-4" onClick={() => void panels.refetch()}>
          {t('panels.retry')}
        </Button>
      </section>
    )
  }
  const accessKnown = hydrated && !access.isPending
  const open = accessKnown && access.data?.hasAccess === true
  const locked = accessKnown && !open
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-6">
      <div className="mb-6 empty:hidden">
        {planBanner && (
          <Suspense fallback={null}>
            <PlanBanner />
          </Suspense>
        )}
      </div>
      {/* One word on why the panels are closed: the plan banner's when it has one. */}
      {locked && !planBanner && (
        <NoAccessNotice className="mb-6" standing={access.data?.standing} />
      )}
      {/* Busy until the member's access is known: the cards may lock then. */}
      <ul
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
        data-testid="panel-grid"
        aria-busy={!accessKnown}
      >
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
              {!locked ? (
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
