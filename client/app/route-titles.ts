import { type AppPath, matchAppRoute } from '../../domain/routes'

/**
 * Header title of each route (spec core §2 Header): a key under `titles.` in the locale files, or
 * null where the spec leaves the title blank. A record over the route table, so a route added to
 * domain/routes.ts without a title here fails the type check.
 */
export const ROUTE_TITLES: Record<AppPath, string | null> = {
  '/login': 'login',
  '/signup': 'signup',
  '/signup/:code': 'signup',
  '/signup-confirm': 'signupConfirm',
  '/signed': 'signed',
  '/forgot-password': 'forgotPassword',
  '/reset-password': 'resetPassword',
  '/resend-confirmation-code': 'resendCode',
  '/logout': 'logout',
  '/': null,
  '/home': 'home',
  '/my-account/*': 'myAccount',
  '/upgrade-plan': 'mySubscription',
  '/modify-billing-info': 'modifyBillingInfo',
  '/billing-history': 'mySubscription',
  '/add-credit-card': 'mySubscription',
  // Replaced by "{name} Panel" once the panel has loaded.
  '/panel-info/:id': 'panelLoading',
  '/harmonizing-screen/:id': 'harmonizing',
  '/harmonized-complete': 'harmonizing',
  // The spec leaves these four blank; a header says where one is (docs/decisions/0035).
  '/about': 'about',
  '/solfeggio-frequencies': 'solfeggio',
  '/disclaimer': 'disclaimer',
  '/how-to': 'howTo',
  '/messages': 'messages',
  '/support': 'support',
  '/help': 'help',
  '/privacy-policy': 'privacyPolicy',
  '/terms-of-use': 'termsOfUse',
  '/send-mail': 'sendMail',
  '/mail-sent': 'mailSent',
  '/user-details': 'userDetails',
  '/aura-scan': 'auraScan',
  '/aura-screen': 'aura',
  '/aura-user-record': 'userRecords',
  '/chakra-scan': 'chakraScan',
  '/chakra-screen': 'chakra',
  '/admin': 'admin',
}

/** My Account's own pages: the billing ones are titled My Subscription (spec core §2). */
const MY_ACCOUNT_TITLES: Record<string, string> = {
  'add-credit-card': 'mySubscription',
  'billing-history': 'mySubscription',
  'single-payment': 'mySubscription',
  'subscribe-payment': 'mySubscription',
  'modify-billing-info': 'modifyBillingInfo',
}

/**
 * The title key of a browser path; null for a blank title. A path outside the route table is
 * titled as the 404 page it shows, so the server's HTML of that page has its heading too.
 */
export function titleKeyOf(pathname: string): string | null {
  const route = matchAppRoute(pathname)
  if (!route) return 'notFound'
  if (route.path === '/my-account/*') {
    const sub = pathname.replace(/^\/my-account\/?/, '').replace(/\/+$/, '')
    return MY_ACCOUNT_TITLES[sub] ?? ROUTE_TITLES[route.path]
  }
  return ROUTE_TITLES[route.path as AppPath]
}
