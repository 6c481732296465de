import { type ComponentType, lazy, Suspense, useSyncExternalStore } from 'react'
import { getPwaState, getServerPwaState, subscribePwaState } from '../../lib/pwa-state'

// The banners' code loads only once there is something to offer, so it costs no page its first
// render. A chunk that cannot arrive (offline before it was cached) shows no banner rather than
// breaking the page.
const Banners = lazy(
  (): Promise<{ default: ComponentType }> =>
    import('./banners').then(
      (module) => ({ default: module.Banners }),
      () => ({ default: () => null }),
    ),
)

/** The install and update banners (spec: public flows §2 Banners), when either applies. */
export function PwaBanners() {
  const { installPrompt, installFromSafari, update } = useSyncExternalStore(
    subscribePwaState,
    getPwaState,
    getServerPwaState,
  )
  if (!installPrompt && !installFromSafari && !update) return null
  return (
    <Suspense fallback={null}>
      <Banners />
    </Suspense>
  )
}
