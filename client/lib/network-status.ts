import { useEffect, useId, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useNotifications } from './notifications'
import { isNetworkFailure } from './offline-cache'

function subscribe(listener: () => void) {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

/**
 * Whether the browser has a network, kept current by its online and offline events. HTML
 * rendered ahead of time assumes one; hydration then corrects it.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  )
}

/**
 * Whether a query's data is this device's copy rather than the server's word now: the
 * network is gone, or the last asking failed for want of it. `asOf` is when what is shown was
 * fetched (billing's offline-copy.ts dates a kept copy so); null when there is nothing to
 * show. When the network comes back the query is asked again: TanStack Query's own reconnect
 * refetch misses a page that started offline, as it takes the browser to be online until told
 * otherwise.
 */
export function useShownOffline(query: {
  data: unknown
  error: unknown
  dataUpdatedAt: number
  refetch: () => Promise<unknown>
}): { offline: boolean; asOf: number | null } {
  const online = useOnline()
  const failedOffline = query.error != null && isNetworkFailure(query.error)
  const { refetch } = query
  useEffect(() => {
    if (online && failedOffline) void refetch()
  }, [online, failedOffline, refetch])
  const offline = !online || failedOffline
  return { offline, asOf: offline && query.data !== undefined ? query.dataUpdatedAt : null }
}

/**
 * For controls that only work with the network (they would fail with a generic error): offline,
 * the id for the notice that says why (components/ui/offline-notice.tsx), to disable them and
 * point their `aria-describedby` at; undefined while online.
 */
export function useOfflineReason(): string | undefined {
  const online = useOnline()
  const id = useId()
  return online ? undefined : id
}

/**
 * Runs `work` now when the browser has a network, otherwise once it has one again: what would
 * only fail offline (registering the service worker, whose script Chromium then reports as a
 * console error) waits instead.
 */
export function whenOnline(work: () => void): void {
  if (navigator.onLine) work()
  else window.addEventListener('online', () => work(), { once: true })
}

/**
 * The offline notice (spec: info 'Sorry, it seems that you are offline'): shown when the network
 * drops and when the app starts without one, taken away as soon as the network is back, since it
 * would then be wrong. Meanwhile the app runs from the service worker's cache.
 */
export function useOfflineNotice(): void {
  const online = useOnline()
  const { t } = useTranslation()
  const { notify, dismiss } = useNotifications()
  useEffect(() => {
    if (online) return
    const id = notify('info', t('network.offline'))
    return () => dismiss(id)
  }, [online, notify, dismiss, t])
}
