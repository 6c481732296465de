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
  { path: '/about', access: 'protected' },
  { path: '/solfeggio-frequencies', access: 'protected' },
  { path: '/disclaimer', access: 'protected' },
  { path: '/how-to', access: 'protected' },
  { path: '/messages', access: 'protected' },
  { path: '/support', access: 'protected' },
  { path: '/help', access: 'protected' },
  { path: '/privacy-policy', access: 'protected' },
  { path: '/terms-of-use', access: 'protected' },
  { path: '/send-mail', access: 'protected' },
  { path: '/mail-sent', access: 'protected' },
  { path: '/user-details', access: 'protected' },
  { path: '/aura-scan', access: 'protected' },
  { path: '/aura-screen', access: 'protected' },
  { path: '/aura-user-record', access: 'protected' },
  { path: '/chakra-scan', access: 'protected' },
  { path: '/chakra-screen', access: 'protected' },
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
  return new RegExp(`^${body}${tail}/?$`)
}

const MATCHERS = APP_ROUTES.map((route) => ({ route, regexp: patternToRegExp(route.path) }))

/** The route a browser path belongs to, or undefined for the not-found page. */
export function matchAppRoute(pathname: string): AppRoute | undefined {
  const clean = pathname.split(/[?#]/)[0] ?? '/'
  return MATCHERS.find(({ regexp }) => regexp.test(clean))?.route
}
