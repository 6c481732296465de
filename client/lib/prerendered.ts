import { useSyncExternalStore } from 'react'
import { isLanguage, type Language } from '../../domain/i18n'
import { prerenderedPageFor } from '../../domain/routes'

/** Which prerendered page the server sent (scripts/prerender-pages.ts marks its root). */
function sentPage(): string | undefined {
  return document.getElementById('root')?.dataset.page
}

/** The language of the page the server sent as HTML, when it sent one. */
export function prerenderedLanguage(): Language | undefined {
  const language = document.documentElement.lang
  return sentPage() && isLanguage(language) ? language : undefined
}

/**
 * Whether the page on screen is the HTML the build rendered for this path, in the language the
 * app starts in: only then can React hydrate it. The service worker's copy of index.html, a
 * language chosen on this device that the server did not know (no cookie yet), or a path the
 * build did not render are rendered afresh instead.
 */
export function isPrerendered(location: Location, language: Language): boolean {
  const page = sentPage()
  return (
    page !== undefined &&
    page === prerenderedPageFor(location.pathname, location.search) &&
    document.documentElement.lang === language
  )
}

const noSubscription = () => () => {}

/**
 * False while React hydrates a prerendered page (and in the prerendering itself), true in every
 * render after it. What the browser may already know at hydration (the session's answer came
 * before the page's code) must wait for the next render, or the tree would differ from the HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
}
