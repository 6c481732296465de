import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react'
import { matchPath, Navigate, Route, Routes } from 'react-router'
import type { Language } from '../../domain/i18n'
import {
  APP_ROUTES,
  type AppPath,
  matchAppRoute,
  SIGNED_IN_LANDING_PATH,
} from '../../domain/routes'
import { NotFoundPage } from '../components/not-found-page'
import { FullScreenSpinner } from '../components/ui/full-screen-spinner'
import { billingTextsReady } from '../features/billing/texts'
import { clientTextsReady } from '../features/clients/texts'
import { infoTextsReady } from '../features/info/texts'
import { supportTextsReady } from '../features/support/texts'
import { firstPageShown, firstPageWasShown } from '../lib/after-first-page'
import { forgetEarly, requestEarly } from '../lib/api-client'
import { loadOnce } from '../lib/load-once'
import { queryClient } from '../lib/query-client'
import { sessionQuery } from '../lib/session'
import { AppLayout } from './layout/app-layout'
import { RouteGuard } from './route-guard'

/** A page's component, once its code is here, and how to get it there. */
interface Page {
  /** Its component, once its code is here. */
  loaded?: ComponentType
  /** The same through React.lazy, for a render before that. */
  Lazy?: ComponentType
  preload?: () => void
}

// Every page is its own chunk so the first render of /login carries only what it needs.

type PageModule<K extends string> = Record<K, ComponentType>

/**
 * What each loader brought, once it has: pages whose code comes in one chunk through one loader
 * (the information pages) are all ready when any of them is.
 */
const arrived = new WeakMap<() => Promise<PageModule<string>>, PageModule<string>>()

/**
 * A page whose code loads apart. Once that code is here (main.tsx asks for the first page's at
 * start; another page may have brought it), the page renders at once instead of through
 * React.lazy: a lazy component suspends on its first render however early its code arrived, its
 * boundary commits the spinner, and React then holds the page back until 300 ms after that
 * spinner showed (its throttle on revealing content). On /home that was most of the wait for the
 * panels (Lighthouse: 560 ms unthrottled).
 */
const page = <K extends string>(load: () => Promise<PageModule<K>>, name: K): Page => {
  let component: ComponentType | undefined
  const entry: Page = {
    get loaded() {
      const module = arrived.get(load) as PageModule<K> | undefined
      if (!component && module) component = shownSignal(module[name])
      return component
    },
  }
  const start = loadOnce(() =>
    load().then((module) => {
      // Recorded before React.lazy hears of the module, so a page mounted once the code is
      // here renders it directly (RoutePage).
      arrived.set(load, module)
      return { default: entry.loaded ?? shownSignal(module[name]) }
    }),
  )
  entry.Lazy = lazy(start)
  entry.preload = () => void start().catch(() => {})
  return entry
}

/**
 * A page of the route table: rendered at once when its code is here, through React.lazy if not.
 * The choice is kept for as long as this page is shown: a lazy page that resolved while React
 * was paused can be committed as the lazy one, and switching it to the loaded one on a later
 * render would remount it. Another page (the same element in the layout, a new route) chooses
 * afresh.
 */
function RoutePage({ page }: { page: Page }) {
  const [chosen, setChosen] = useState(() => ({ page, Component: page.loaded ?? page.Lazy }))
  let shown = chosen
  if (chosen.page !== page) {
    shown = { page, Component: page.loaded ?? page.Lazy }
    setChosen(shown)
  }
  const { Component } = shown
  return Component ? <Component /> : null
}

/** The page, telling client/lib/after-first-page.ts when it is first on screen. */
function shownSignal(Component: ComponentType): ComponentType {
  return function ShownPage() {
    useEffect(firstPageShown, [])
    return <Component />
  }
}

/**
 * A page whose feature keeps its own texts (client/lib/i18n.ts, loadFeatureTexts): the page's
 * code and its texts arrive together, so it never shows a key.
 */
const withTexts = async <M,>(module: Promise<M>, texts: Promise<void>) =>
  (await Promise.all([module, texts]))[0]

const Logout = page(() => import('./pages/logout-page'), 'LogoutPage')
const Login = page(() => import('../features/auth/routes/login-page'), 'LoginPage')
const Signup = page(() => import('../features/auth/routes/signup-page'), 'SignupPage')
const SignupConfirm = page(
  () => import('../features/auth/routes/signup-confirm-page'),
  'SignupConfirmPage',
)
const Signed = page(() => import('../features/auth/routes/signed-page'), 'SignedPage')
const ForgotPassword = page(
  () => import('../features/auth/routes/forgot-password-page'),
  'ForgotPasswordPage',
)
const ResetPassword = page(
  () => import('../features/auth/routes/reset-password-page'),
  'ResetPasswordPage',
)
const ResendCode = page(() => import('../features/auth/routes/resend-code-page'), 'ResendCodePage')
const Home = page(() => import('../features/panels/routes/home-page'), 'HomePage')
const PanelInfo = page(() => import('../features/panels/routes/panel-info-page'), 'PanelInfoPage')
const HarmonizedComplete = page(
  () => import('../features/harmonize/routes/harmonized-complete-page'),
  'HarmonizedCompletePage',
)
const Harmonizing = page(
  () => import('../features/harmonize/routes/harmonizing-page'),
  'HarmonizingPage',
)
const MyAccount = page(
  () => withTexts(import('../features/account/routes/my-account-page'), billingTextsReady()),
  'MyAccountPage',
)
const AddCreditCard = page(
  () => withTexts(import('../features/billing/routes/add-credit-card-page'), billingTextsReady()),
  'AddCreditCardPage',
)
const SinglePayment = page(
  () => withTexts(import('../features/billing/routes/single-payment-page'), billingTextsReady()),
  'SinglePaymentPage',
)
const SubscribePayment = page(
  () => withTexts(import('../features/billing/routes/subscribe-payment-page'), billingTextsReady()),
  'SubscribePaymentPage',
)
const BillingHistory = page(
  () => withTexts(import('../features/billing/routes/billing-history-page'), billingTextsReady()),
  'BillingHistoryPage',
)
const UpgradePlan = page(
  () => withTexts(import('../features/billing/routes/upgrade-plan-page'), billingTextsReady()),
  'UpgradePlanPage',
)
const ModifyBillingInfo = page(
  () =>
    withTexts(import('../features/billing/routes/modify-billing-info-page'), billingTextsReady()),
  'ModifyBillingInfoPage',
)

const UserRecords = page(
  () => withTexts(import('../features/clients/routes/user-records-page'), clientTextsReady()),
  'UserRecordsPage',
)

const UserDetails = page(
  () => withTexts(import('../features/clients/routes/user-details-page'), clientTextsReady()),
  'UserDetailsPage',
)

// The aura and chakra pages of a scan share their module, and so their loader.
const scanStartPages = () =>
  withTexts(import('../features/clients/routes/scan-start-page'), clientTextsReady())
const scanScreenPages = () =>
  withTexts(import('../features/clients/routes/scan-screen-page'), clientTextsReady())
const AuraScan = page(scanStartPages, 'AuraScanPage')
const ChakraScan = page(scanStartPages, 'ChakraScanPage')
const AuraScreen = page(scanScreenPages, 'AuraScreenPage')
const ChakraScreen = page(scanScreenPages, 'ChakraScreenPage')

const Support = page(
  () => withTexts(import('../features/support/routes/support-page'), supportTextsReady()),
  'SupportPage',
)
const SendMail = page(
  () => withTexts(import('../features/support/routes/send-mail-page'), supportTextsReady()),
  'SendMailPage',
)
const MailSent = page(
  () => withTexts(import('../features/support/routes/mail-sent-page'), supportTextsReady()),
  'MailSentPage',
)

// The information pages share one chunk (client/features/info/pages.ts) and their texts.
const infoPages = () => withTexts(import('../features/info/pages'), infoTextsReady())
const About = page(infoPages, 'AboutPage')
const Solfeggio = page(infoPages, 'SolfeggioPage')
const Disclaimer = page(infoPages, 'DisclaimerPage')
const Messages = page(infoPages, 'MessagesPage')
const PrivacyPolicy = page(infoPages, 'PrivacyPolicyPage')
const TermsOfUse = page(infoPages, 'TermsOfUsePage')
const HowTo = page(infoPages, 'HowToPage')
const Help = page(infoPages, 'HelpPage')

// The console's page brings its texts' loader itself: nothing of the console is in the entry
// but this line (the first render of /login is held to its budget).
const Admin = page(
  () =>
    import('../features/admin/routes/admin-page').then(async (module) => {
      await module.adminTextsReady()
      return module
    }),
  'AdminPage',
)

/** My Account's own pages (spec core §2: sub-paths of /my-account). */
const MY_ACCOUNT_PAGES: Record<string, Page> = {
  'add-credit-card': AddCreditCard,
  'single-payment': SinglePayment,
  'subscribe-payment': SubscribePayment,
  'modify-billing-info': ModifyBillingInfo,
  'billing-history': BillingHistory,
}

/** /my-account and its sub-paths; any other sub-path is not found. */
function MyAccountArea() {
  return (
    <Routes>
      <Route index element={<RoutePage page={MyAccount} />} />
      {Object.entries(MY_ACCOUNT_PAGES).map(([path, Sub]) => (
        <Route key={path} path={path} caseSensitive element={<RoutePage page={Sub} />} />
      ))}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  )
}

/** The page of every path of the route table (domain/routes.ts), or where it leads. */
const PAGES: Record<
  AppPath,
  { Page: Page; redirect?: never } | { redirect: string; Page?: never }
> = {
  '/login': { Page: Login },
  '/signup': { Page: Signup },
  '/signup/:code': { Page: Signup },
  '/signup-confirm': { Page: SignupConfirm },
  '/signed': { Page: Signed },
  '/forgot-password': { Page: ForgotPassword },
  '/reset-password': { Page: ResetPassword },
  '/resend-confirmation-code': { Page: ResendCode },
  '/logout': { Page: Logout },
  '/my-account/*': { Page: { loaded: MyAccountArea } },
  '/add-credit-card': { Page: AddCreditCard },
  '/modify-billing-info': { Page: ModifyBillingInfo },
  '/billing-history': { Page: BillingHistory },
  '/upgrade-plan': { Page: UpgradePlan },
  '/home': { Page: Home },
  '/panel-info/:id': { Page: PanelInfo },
  '/harmonizing-screen/:id': { Page: Harmonizing },
  '/harmonized-complete': { Page: HarmonizedComplete },
  '/aura-user-record': { Page: UserRecords },
  '/user-details': { Page: UserDetails },
  '/aura-scan': { Page: AuraScan },
  '/aura-screen': { Page: AuraScreen },
  '/chakra-scan': { Page: ChakraScan },
  '/chakra-screen': { Page: ChakraScreen },
  '/about': { Page: About },
  '/solfeggio-frequencies': { Page: Solfeggio },
  '/disclaimer': { Page: Disclaimer },
  '/messages': { Page: Messages },
  '/privacy-policy': { Page: PrivacyPolicy },
  '/terms-of-use': { Page: TermsOfUse },
  '/how-to': { Page: HowTo },
  '/help': { Page: Help },
  '/support': { Page: Support },
  '/send-mail': { Page: SendMail },
  '/mail-sent': { Page: MailSent },
  '/admin': { Page: Admin },
  '/': { redirect: SIGNED_IN_LANDING_PATH },
}

type Params = Record<string, string | undefined>

/**
 * Resolves in a task after the current one. Asking for a chunk costs the task that asks a
 * `modulepreload` link for each of its imports: the code that reads a page's data is asked for
 * after the entry's own evaluation, in a task of its own, as the page's code is (preloadRoute).
 * Its requests are not: the session's, and the panels' texts, go out at once, ahead of the code.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * The data a page asks for first, fetched before the page's code has arrived. The panel texts
 * are the same for everyone: they are asked for at once, beside the session and the code that
 * reads them. Access is asked for as soon as the session says someone is signed in (a visitor
 * would only be refused).
 */
const PAGE_DATA: Partial<Record<AppPath, (params: Params, language: Language) => Promise<void>>> = {
  '/home': async (_params, language) => {
    requestEarly('/api/panels')
    await nextTask()
    const { panelsQuery } = await import('../lib/panel-queries')
    await Promise.all([queryClient.prefetchQuery(panelsQuery(language)), prefetchAccess()])
  },
  '/panel-info/:id': async ({ id }, language) => {
    if (!id) return
    requestEarly(`/api/panels/${id}`)
    await nextTask()
    const { panelQuery } = await import('../lib/panel-queries')
    await queryClient.prefetchQuery(panelQuery(id, language))
  },
  // Asked for once the session says who is signed in; with the page's code, not after it, so
  // the page shows its plan and prices at once rather than grow under the reader's eyes.
  '/my-account/*': async (params) => {
    // The area's own router picks the page, so its code is asked for here, in a task of its
    // own as preloadRoute does.
    const sub = params['*']
    const code = sub ? MY_ACCOUNT_PAGES[sub] : MyAccount
    setTimeout(() => code?.preload?.(), 0)
    if (!sub) await nextTask().then(prefetchMyAccount)
  },
  '/aura-user-record': () => nextTask().then(prefetchClients),
  '/harmonizing-screen/:id': async ({ id }, language) => {
    if (id) requestEarly(`/api/panels/${id}`)
    requestEarly('/api/affirmations')
    await nextTask()
    const { panelQuery, affirmationsQuery } = await import('../lib/panel-queries')
    await Promise.all([
      id ? queryClient.prefetchQuery(panelQuery(id, language)) : undefined,
      queryClient.prefetchQuery(affirmationsQuery(language)),
      prefetchAccess(),
    ])
  },
}

/**
 * The data of /my-account itself (not its sub-pages): its plan, prices, cards, access, and the
 * media a member with access may keep offline. Asked for as soon as the session names the member,
 * not once billing's code has arrived and run: on a slow phone that was a round trip more before
 * the page, whose first paint waited for every request already under way.
 */
async function prefetchMyAccount() {
  const session = await queryClient.fetchQuery(sessionQuery)
  if (!session.user) return
  // Later in the visit the code is here already, and the answers may be in the cache.
  const early: string[] = []
  if (!firstPageWasShown()) {
    const access = session.access as { hasAccess?: unknown } | undefined
    early.push('/api/billing/plan', '/api/billing/account', '/api/billing/prices')
    if (access?.hasAccess === true) early.push('/api/harmonize/media')
  }
  for (const path of early) requestEarly(path)
  try {
    const [billing, { harmonizeMediaQuery }] = await Promise.all([
      import('../features/billing/public'),
      import('../lib/harmonize-media'),
    ])
    await Promise.all([
      // As My Account asks it, keeping the member's copy for a visit without network.
      queryClient.prefetchQuery(billing.planQueryWithCopy(queryClient)),
      queryClient.prefetchQuery(billing.billingAccountQuery),
      queryClient.prefetchQuery(billing.pricesQuery),
      prefetchAccess().then((hasAccess) =>
        hasAccess ? queryClient.prefetchQuery(harmonizeMediaQuery()) : undefined,
      ),
    ])
  } finally {
    forgetEarly(early)
  }
}

/** The first page of the practitioner's clients, once access says the list is theirs to see. */
async function prefetchClients() {
  const [hasAccess, { clientPageQuery }] = await Promise.all([
    prefetchAccess(),
    import('../features/clients/api'),
  ])
  // Without access the server refuses the list (402, an error in the browser's console) and the
  // page says why instead of asking.
  if (hasAccess) await queryClient.prefetchQuery(clientPageQuery('', null))
}

/** A member's access, from the session's answer or asked for when it lacks it; whether they have it. */
async function prefetchAccess(): Promise<boolean> {
  const [session, { accessQuery, seedAccess }] = await Promise.all([
    queryClient.fetchQuery(sessionQuery),
    import('../features/access/public'),
  ])
  if (!session.user) return false
  if (!seedAccess(queryClient, session.access)) await queryClient.prefetchQuery(accessQuery)
  return queryClient.getQueryData(accessQuery.queryKey)?.hasAccess === true
}

/**
 * Starts what the page at `pathname` will need, all at once: who is signed in, the page's code
 * and its first data. Before this, each waited for the one before it (the language's texts, the
 * session, the code, then the data). The code is asked for in a task of its own: the browser
 * starts each of its chunks' downloads (a `modulepreload` link apiece) in the task that asks,
 * and with the entry's own evaluation that made one task of 35 to 50 ms here, about 150 ms on
 * Lighthouse's slowed-down phone. The data is not: asked for later than the code, My Account
 * showed before its plan and prices and grew under the reader (CLS 0.07).
 */
export function preloadRoute(pathname: string, language: Language) {
  void queryClient.prefetchQuery(sessionQuery)
  const route = matchAppRoute(pathname)
  if (!route) return
  const path = route.path as AppPath
  const { Page } = PAGES[path]
  if (!Page) return
  const params = matchPath(path, pathname.split(/[?#]/)[0] ?? '/')?.params ?? {}
  void PAGE_DATA[path]?.(params, language).catch(() => {})
  setTimeout(() => Page.preload?.(), 0)
}

/**
 * Members' pages that show before the session has answered, from their HTML on: what they show
 * until then is reference data anyone may read (the panels' texts), and the build renders them
 * with it (scripts/prerender-pages.ts). Each of them must render nothing of the member's own
 * before it knows who that is.
 */
const SHOWN_BEFORE_SESSION: ReadonlySet<AppPath> = new Set(['/home', '/panel-info/:id'])

/** Declarative routes: the data router's loaders and actions would cost 19 KB of first render. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {APP_ROUTES.map(({ path, access }) => {
          const { Page, redirect } = PAGES[path]
          return (
            <Route
              key={path}
              path={path}
              // As the server matches (domain/routes.ts): /Login is not /login but a 404, in
              // the server's HTML and in the browser alike.
              caseSensitive
              element={
                <RouteGuard access={access} shownBeforeSession={SHOWN_BEFORE_SESSION.has(path)}>
                  <Suspense fallback={<FullScreenSpinner />}>
                    {Page ? <RoutePage page={Page} /> : <Navigate to={redirect} replace />}
                  </Suspense>
                </RouteGuard>
              }
            />
          )
        })}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  )
}
