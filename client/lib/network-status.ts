import { useEffect, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useNotifications } from './notifications'

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
