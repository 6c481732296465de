import { type RefObject, useCallback, useSyncExternalStore } from 'react'

const subscribe = (listener: () => void) => {
  document.addEventListener('fullscreenchange', listener)
  return () => document.removeEventListener('fullscreenchange', listener)
}

/** The element shown full screen now, or null; re-renders when that changes. */
export function useFullScreenElement(): Element | null {
  return useSyncExternalStore(
    subscribe,
    () => document.fullscreenElement ?? null,
    () => null,
  )
}

/**
 * Full screen for `target`: whether it is shown so, and one toggle that enters or leaves it
 * (Escape leaves it too; the browser handles that).
 */
export function useFullScreen(target: RefObject<HTMLElement | null>) {
  const element = useFullScreenElement()
  const active = element !== null && element === target.current
  const toggle = useCallback(() => {
    const request = document.fullscreenElement
      ? document.exitFullscreen()
      : target.current?.requestFullscreen?.()
    // Refused (no gesture, a permissions policy): the session simply stays in the page.
    void request?.catch(() => {})
  }, [target])
  return { active, toggle }
}
