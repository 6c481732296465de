import '../styles.css'
import { StrictMode, startTransition } from 'react'
import { BrowserRouter } from 'react-router'
import { afterFirstPage } from '../lib/after-first-page'
import { currentLanguage, i18nReady } from '../lib/i18n'
import { whenOnline } from '../lib/network-status'
import { isPrerendered, takePageQueries } from '../lib/prerendered'
import { queryClient } from '../lib/query-client'
import { App } from './app'
import { AppRoutes, preloadRoute } from './routes'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
const container: HTMLElement = root

// The session, the page's code and its data start now, beside the language's texts.
preloadRoute(window.location.pathname, currentLanguage())

// The first render waits for the chosen language's texts (one small chunk), so no key is ever
// shown; if that chunk cannot arrive, the app still starts rather than stay blank. A page the
// server sent as HTML (client/app/prerender.tsx) is hydrated: it stays on screen, and usable,
// while its code arrives. React's DOM renderer is a chunk of its own, imported here: the browser
// evaluates it in a task apart from the rest of the app, where together they made one task that
// blocked a phone for 180 ms (ADR 0026). The prerendered pages ask for it beside the entry.
function startApp() {
  Promise.all([import('react-dom/client'), i18nReady.catch(() => {})]).then(
    ([{ createRoot, hydrateRoot }]) => {
      const app = (
        <StrictMode>
          <App>
            {/* Without transitions a navigation shows the next page's spinner at once (spec: a
                blue spinner while a route loads). With them React keeps the old page on screen,
                still usable, under the new URL until the next page's code arrives. */}
            <BrowserRouter useTransitions={false}>
              <AppRoutes />
            </BrowserRouter>
          </App>
        </StrictMode>
      )
      // As a transition, React renders the app in slices of a few milliseconds and lets the
      // browser in between: started as a plain update, a phone's main thread was blocked for
      // the whole of it (Lighthouse's total blocking time).
      startTransition(() => {
        if (isPrerendered(window.location, currentLanguage())) {
          // With the answers the HTML was rendered with (a panel's texts): the first render
          // must be the HTML's, whatever the network said meanwhile.
          takePageQueries(queryClient)
          hydrateRoot(container, app)
        } else {
          createRoot(container).render(app)
        }
      })
    },
    (error: unknown) => {
      // Offline before the renderer was cached: it comes with the network, and the page the
      // server sent stays readable meanwhile. Online, a new deploy replaced it: the next visit
      // loads the new one.
      if (!navigator.onLine) whenOnline(startApp)
      else reportError(error)
    },
  )
}
startApp()

// The service worker precaches the app shell so it opens offline after one visit. It starts
// once the first page is on screen: its code and the precache's downloads are not needed to show
// that page, and on a phone they competed with it for the network.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  afterFirstPage(startServiceWorker)
}

/** Offline, the worker's code and script could only fail to arrive: they wait for the network. */
function startServiceWorker() {
  whenOnline(() => {
    import('../lib/pwa-register').then(
      ({ startPwa }) => startPwa(),
      () => {
        // The network went while the chunk was on its way: it is asked again once it is back.
        // Otherwise a new deploy replaced it, and the next visit registers the worker.
        if (!navigator.onLine) startServiceWorker()
      },
    )
  })
}
