// What the install and update banners need to know, shared by the service worker registration
// (client/lib/pwa-register.ts, loaded once the first page is shown) and the banners
// (client/app/banners/). Framework-free and tiny: this module is part of every first render.

/** Chromium's deferred install prompt (not in the DOM typings). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<unknown>
}

export interface PwaUpdate {
  /** Identifies the waiting build, so a closed banner stays closed for that build only. */
  version: string
  /** Activates the waiting service worker; the page then reloads once. */
  apply(): void
}

export interface PwaState {
  /** The browser's install prompt, kept until it is used (it works once). */
  installPrompt: InstallPromptEvent | null
  /** iOS outside Safari: no install prompt exists there, but Safari can add the app. */
  installFromSafari: boolean
  update: PwaUpdate | null
}

let state: PwaState = { installPrompt: null, installFromSafari: false, update: null }
const listeners = new Set<() => void>()

export const getPwaState = (): PwaState => state

/** Nothing to offer in HTML rendered ahead of time, nor in the first render that hydrates it. */
const NOTHING_TO_OFFER: PwaState = { ...state }
export const getServerPwaState = (): PwaState => NOTHING_TO_OFFER

export function setPwaState(patch: Partial<PwaState>): void {
  state = { ...state, ...patch }
  for (const listener of listeners) listener()
}

/** For `useSyncExternalStore`. */
export function subscribePwaState(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

// Not in the build's prerendering, which has no window.
if (typeof window !== 'undefined') {
  // The event fires once per page load, possibly before any lazy code has arrived, so it is
  // caught here. Keeping it (preventDefault) replaces the browser's own mini-infobar with our
  // banner, which calls prompt() when the person asks for it.
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault()
    setPwaState({ installPrompt: event as InstallPromptEvent })
  })
  // Also listened for from the start: an install from the browser's own menu, before the
  // registration's code has arrived, must still hide our banner.
  window.addEventListener('appinstalled', () =>
    setPwaState({ installPrompt: null, installFromSafari: false }),
  )
}
