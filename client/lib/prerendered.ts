import { type QueryClient, replaceEqualDeep } from '@tanstack/react-query'
import { useSyncExternalStore } from 'react'
import { isLanguage, type Language } from '../../domain/i18n'
import { PAGE_QUERIES_ID, type PageQuery, prerenderedPageFor } from '../../domain/routes'

/**
 * The page the server sent as HTML (scripts/prerender-pages.ts marks its root) and its language,
 * read when this module loads: before client/lib/i18n.ts, which imports it, sets the document's
 * language to the one the app starts in.
 */
const sent = readSentPage()

function readSentPage(): { page: string; language: Language } | undefined {
  if (typeof document === 'undefined') return undefined
  const page = document.getElementById('root')?.dataset.page
  const language = document.documentElement.lang
  return page && isLanguage(language) ? { page, language } : undefined
}

/** The language of the page the server sent as HTML, when it sent one. */
export function prerenderedLanguage(): Language | undefined {
  return sent?.language
}

/**
 * Whether the page on screen is the HTML the build rendered for this path, in the language the
 * app starts in: only then can React hydrate it. The service worker's copy of index.html, a
 * language chosen on this device that the server did not know (no cookie yet), or a path the
 * build did not render are rendered afresh instead.
 */
export function isPrerendered(location: Location, language: Language): boolean {
  return (
    sent !== undefined &&
    sent.page === prerenderedPageFor(location.pathname, location.search) &&
    sent.language === language
  )
}

/**
 * Puts in the cache the answers the page the server sent was rendered with, right before React
 * hydrates it: the first render must show what the HTML shows. An answer already there that says
 * the same stays as it is; any other (none yet, another, a failed refetch) gives way to the
 * HTML's, marked as old, so the page asks again once it is shown: that keeps the offline copy and
 * follows a server whose data changed since the build.
 */
export function takePageQueries(queryClient: QueryClient) {
  const text = document.getElementById(PAGE_QUERIES_ID)?.textContent
  if (!text) return
  let queries: PageQuery[]
  try {
    queries = JSON.parse(text) as PageQuery[]
  } catch {
    return
  }
  for (const { queryKey, data } of queries) {
    const held = queryClient.getQueryState(queryKey)
    if (held?.status === 'success' && replaceEqualDeep(held.data, data) === held.data) continue
    queryClient.setQueryData(queryKey, data, { updatedAt: 0 })
  }
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
