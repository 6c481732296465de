import { useSyncExternalStore } from 'react'
import { queryClient } from './query-client'

/**
 * Work a visit needs but its first page does not (the service worker and its precache, the
 * copies kept for offline use) waits until that page is on screen with its data. Started with
 * the page, it shared a phone's few connections and its main thread with it: on a simulated
 * slow phone (Lighthouse), every request begun before the page's largest paint delayed it.
 */

/**
 * Whatever the page still waits for, deferred work is released this long after it showed (and
 * runs in the next idle moment, at most 2 s later).
 */
const LONGEST_WAIT_MS = 10_000
/** Should no page ever signal (a page that failed to load), the work is released then. */
const NO_SIGNAL_WAIT_MS = 15_000

type State = 'waiting' | 'settling' | 'done'
let state: State = 'waiting'
const queue: Array<() => void> = []

/** Runs `work` once the first page is on screen with its data, when the browser is idle. */
export function afterFirstPage(work: () => void): void {
  if (state === 'done') whenIdle(work)
  else queue.push(work)
}

/**
 * Called by each page once it is mounted (client/app/routes.tsx); only the first call counts.
 * The page's own queries started with it, so deferred work waits until none is fetching.
 */
export function firstPageShown(): void {
  if (state !== 'waiting') return
  state = 'settling'
  for (const listener of shownListeners) listener()
  let released = false
  const release = () => {
    if (released) return
    released = true
    unsubscribe()
    clearTimeout(cap)
    whenIdle(() => {
      state = 'done'
      for (const work of queue.splice(0)) {
        try {
          work()
        } catch (error) {
          // One failing job must not cost the others their turn.
          reportError(error)
        }
      }
    })
  }
  const settled = () => queryClient.isFetching() === 0
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    if (settled()) release()
  })
  const cap = setTimeout(release, LONGEST_WAIT_MS)
  if (settled()) release()
}

if (typeof window !== 'undefined') {
  setTimeout(firstPageShown, NO_SIGNAL_WAIT_MS)
}

function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 2_000 })
  // Safari before 18 has no idle callbacks.
  else setTimeout(work, 200)
}

/** Whether a page of this visit has been on screen already. */
export const firstPageWasShown = (): boolean => state !== 'waiting'

const shownListeners = new Set<() => void>()

function subscribeShown(listener: () => void) {
  shownListeners.add(listener)
  return () => shownListeners.delete(listener)
}

/**
 * Whether the first page is on screen as the app's own: false in the server's HTML and until the
 * page's code has run (hydrated, its lazy part too). A control that needs the app (the menu, the
 * language, a form's submit, the human check) waits for it: acted on earlier, the HTML would
 * change under React, or the action would be lost.
 */
export function useFirstPageShown(): boolean {
  return useSyncExternalStore(
    subscribeShown,
    () => state !== 'waiting',
    () => false,
  )
}
