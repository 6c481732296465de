// The service worker's registration and update flow, loaded once the first page is shown
// (main.tsx, client/lib/after-first-page.ts): none of it is needed to show a page.
// vite.config.ts builds the worker with `registerType: 'prompt'`: a new version installs in the
// background and waits until the person presses 'Update App' (client/app/banners/), never taking
// over a page by itself.
import { registerSW } from 'virtual:pwa-register'
import { whenOnline } from './network-status'
import { isIosOutsideSafari, UPDATE_CHECK_INTERVAL_MS, versionOf } from './pwa-platform'
import { setPwaState } from './pwa-state'

let reloading = false
/** A page reloads once per update, whichever signal arrives first. */
function reloadOnce() {
  if (reloading) return
  reloading = true
  window.location.reload()
}

/** The waiting build's id: its service worker script, which the server still serves. */
async function waitingVersion(scriptUrl: string | undefined): Promise<string> {
  if (scriptUrl) {
    try {
      const response = await fetch(scriptUrl, { cache: 'no-store' })
      if (response.ok) return versionOf(await response.text())
    } catch {
      // The network went away meanwhile; the banner still shows.
    }
  }
  // Unknown: closing the banner then hides it for this page only.
  return `unknown-${Date.now()}`
}

/** Activates the waiting worker through `updateSW`; the page reloads once it has taken over. */
async function applyUpdate(updateSW: () => Promise<void>) {
  // Looked up now, not when the update was announced: the waiting worker may have changed
  // since, or been activated by another tab.
  const waiting = (await navigator.serviceWorker.getRegistration())?.waiting
  if (!navigator.serviceWorker.controller) {
    // A page the old worker never controlled (the first visit) gets no 'controlling' signal,
    // since the worker does not claim open pages: it reloads once the new one is active.
    if (!waiting) return reloadOnce()
    waiting.addEventListener('statechange', () => {
      if (waiting.state === 'activated') reloadOnce()
    })
  }
  await updateSW()
}

/** Registers the service worker and feeds the banners' state (client/lib/pwa-state.ts). */
export function startPwa(): void {
  if (!navigator.standalone) {
    setPwaState({
      installFromSafari: isIosOutsideSafari(navigator.userAgent, navigator.maxTouchPoints),
    })
  }

  const apply = () => applyUpdate(updateSW)
  const updateSW = registerSW({
    immediate: true,
    // The 'controlling' signal: the new worker took over this page.
    onNeedReload: reloadOnce,
    async onNeedRefresh() {
      const registration = await navigator.serviceWorker.getRegistration()
      const worker = registration?.waiting ?? registration?.installing ?? registration?.active
      setPwaState({
        update: { version: await waitingVersion(worker?.scriptURL), apply: () => void apply() },
      })
    },
    onRegisterError() {
      // The network went while the worker's script was being fetched: the next 'online' tries
      // again. Any other failure (a server without the script) waits for the next visit.
      if (!navigator.onLine) whenOnline(startPwa)
    },
    onRegisteredSW(_scriptUrl, registration) {
      if (!registration) return
      setInterval(() => {
        // Offline the check can only fail; a check still running is not doubled.
        if (!navigator.onLine || registration.installing) return
        // A server that is down now is asked again at the next tick.
        registration.update().catch(() => {})
      }, UPDATE_CHECK_INTERVAL_MS)
    },
  })
}

declare global {
  interface Navigator {
    /** iOS Safari: true when the page runs from the home screen. */
    standalone?: boolean
  }
}
