import type { PanelDetail, PanelSummary } from './panels'

/**
 * The route table of the spec (public flows §2, core §2), shared by the client router and the
 * server (which answers unknown paths with HTTP 404). `public` routes are for visitors only
 * (a signed-in user is sent on); `protected` ones need a signed-in user; `open` ones suit both.
 */
export type RouteAccess = 'public' | 'protected' | 'open'

export interface AppRoute {
  /** React Router path pattern. A trailing `/*` matches the path and anything below it. */
  path: string
  access: RouteAccess
}

export const HOME_PATH = '/home'
export const LOGIN_PATH = '/login'
export const SIGNED_IN_LANDING_PATH = '/user-details'

export const APP_ROUTES = [
  { path: '/login', access: 'public' },
  { path: '/signup', access: 'public' },
  { path: '/signup/:code', access: 'public' },
  { path: '/signup-confirm', access: 'public' },
  { path: '/signed', access: 'open' },
  { path: '/forgot-password', access: 'public' },
  { path: '/reset-password', access: 'public' },
  { path: '/resend-confirmation-code', access: 'public' },
  { path: '/logout', access: 'open' },
  { path: '/', access: 'protected' },
  { path: '/home', access: 'protected' },
  { path: '/my-account/*', access: 'protected' },
  { path: '/upgrade-plan', access: 'protected' },
  { path: '/modify-billing-info', access: 'protected' },
  { path: '/billing-history', access: 'protected' },
  { path: '/add-credit-card', access: 'protected' },
  { path: '/panel-info/:id', access: 'protected' },
  { path: '/harmonizing-screen/:id', access: 'protected' },
  { path: '/harmonized-complete', access: 'protected' },
  // What one agrees to at sign-up, and what the service is, are readable before it (issue 29).
  { path: '/about', access: 'open' },
  { path: '/solfeggio-frequencies', access: 'protected' },
  { path: '/disclaimer', access: 'open' },
  { path: '/how-to', access: 'protected' },
  { path: '/messages', access: 'protected' },
  { path: '/support', access: 'protected' },
  { path: '/help', access: 'protected' },
  { path: '/privacy-policy', access: 'open' },
  { path: '/terms-of-use', access: 'open' },
  { path: '/send-mail', access: 'protected' },
  { path: '/mail-sent', access: 'protected' },
  { path: '/user-details', access: 'protected' },
  { path: '/aura-scan', access: 'protected' },
  { path: '/aura-screen', access: 'protected' },
  { path: '/aura-user-record', access: 'protected' },
  { path: '/chakra-scan', access: 'protected' },
  { path: '/chakra-screen', access: 'protected' },
  // The operator's console (issue 27): its API refuses anyone but an operator.
  { path: '/admin', access: 'protected' },
] as const satisfies readonly AppRoute[]

export type AppPath = (typeof APP_ROUTES)[number]['path']

function patternToRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/\/\*$/, '')
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/')
  const tail = pattern.endsWith('/*') ? '(?:/.*)?' : ''
  // Trailing slashes are ignored, as the client's router ignores them.
  return new RegExp(`^${body}${tail}/*$`)
}

const MATCHERS = APP_ROUTES.map((route) => ({ route, regexp: patternToRegExp(route.path) }))

/** The route a browser path belongs to, or undefined for the not-found page. */
export function matchAppRoute(pathname: string): AppRoute | undefined {
  const clean = decodeSegments(pathname.split(/[?#]/)[0] ?? '/')
  return MATCHERS.find(({ regexp }) => regexp.test(clean))?.route
}

/**
 * The path as the client's router reads it: each segment percent-decoded (an encoded slash stays
 * encoded), or the path as it is when it does not decode. The server and the browser must agree
 * on which page a path is, or the browser could not hydrate the server's HTML of it.
 */
function decodeSegments(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('/', '%2F'))
      .join('/')
  } catch {
    return pathname
  }
}

/** A query a prerendered page was rendered with (client/app/prerender.tsx), and its answer. */
export interface PageQuery {
  queryKey: readonly unknown[]
  data: unknown
}

/** The id of the element a prerendered page's queries follow its root in, as JSON. */
export const PAGE_QUERIES_ID = 'page-queries'

/**
 * What the build knows of a page's data and renders into it: the panels' texts are reference
 * data, the same for everyone and fixed by the build that seeds them (db/seed).
 */
export interface PageContent {
  panels?: PanelSummary[]
  panel?: PanelDetail
}

/** The prerendered page (client/app/prerender.tsx) of paths outside the route table. */
export const NOT_FOUND_PAGE = 'not-found'

/**
 * Routes the build renders once per value of their last segment, each page with that value's
 * texts (a panel's are reference data, fixed by the build): /panel-info/07 is the page
 * `panel-info-07`, and a value the build did not render is rendered in the browser.
 */
const PAGE_PER_VALUE: ReadonlySet<string> = new Set<AppPath>(['/panel-info/:id'])

/** The name of the page the build renders for `value` of a route in PAGE_PER_VALUE. */
export function pageOfValue(path: AppPath, value: string): string {
  return `${path.split('/')[1]}-${value}`
}

/**
 * The page the build renders to HTML for a route, by file name, with the URL it renders: a
 * visitor's page in full, a member's page as all it shows before it knows who is signed in (its
 * header and a skeleton; /home its panels, ADR 0028). None for `/` (a redirect), for a visitor's
 * page that reads its path (the invitation code of /signup/:code), for paths below a route's
 * own, or for a route rendered once per value (PAGE_PER_VALUE), whose pages the build lists.
 */
function prerenderedPageOf(route: AppRoute): { name: string; url: string } | undefined {
  if (route.path === '/' || PAGE_PER_VALUE.has(route.path)) return undefined
  const hasParams = route.path.includes('/:')
  if (hasParams && route.access !== 'protected') return undefined
  const name = route.path
    .replace(/\/\*$/, '')
    .split('/')
    .filter((segment) => segment && !segment.startsWith(':'))
    .join('-')
  const url = route.path.replace(/\/\*$/, '').replace(/:[^/]+/g, 'page')
  return { name, url }
}

/** Each route's prerendered page, worked out once rather than on every page request. */
const PAGE_OF_ROUTE: ReadonlyMap<AppRoute, { name: string; url: string } | undefined> = new Map(
  APP_ROUTES.map((route) => [route, prerenderedPageOf(route)]),
)

/** Every prerendered page, by name, with the URL it is rendered for. */
export const PRERENDERED_PAGES: ReadonlyMap<string, string> = new Map([
  ...[...PAGE_OF_ROUTE.values()].flatMap((page) => (page ? [[page.name, page.url] as const] : [])),
  [NOT_FOUND_PAGE, '/not-found'],
])

/**
 * The prerendered page the server may send for a browser path, so that the first render in the
 * browser is the same tree and hydrates. A visitor's page may read the query (the e-mail and
 * code links), so with one it is rendered in the browser only; a member's shell never reads it.
 */
export function prerenderedPageFor(pathname: string, search: string): string | undefined {
  const route = matchAppRoute(pathname)
  if (!route) return NOT_FOUND_PAGE
  if (PAGE_PER_VALUE.has(route.path)) {
    const value = decodeSegments(pathname).replace(/\/+$/, '').split('/').pop() ?? ''
    // A name the build could have written: anything else is no file of ours.
    return /^[a-z0-9]+$/.test(value) ? pageOfValue(route.path as AppPath, value) : undefined
  }
  const page = PAGE_OF_ROUTE.get(route)
  if (!page) return undefined
  if (route.path.endsWith('/*') && decodeSegments(pathname).replace(/\/+$/, '') !== page.url) {
    return undefined
  }
  if (route.access !== 'protected' && search) return undefined
  return page.name
}
