import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { I18nextProvider } from 'react-i18next'
import { MemoryRouter } from 'react-router'
import { Header } from '../../app/layout/header'
import { firstPageShown } from '../after-first-page'
import { i18n } from '../i18n'
import { NotificationsProvider } from '../notifications'
import { sessionQueryKey } from '../session'

/**
 * A query cache that already knows nobody is signed in, for rendering a piece of the layout
 * without a server: nothing goes stale, so nothing is fetched.
 */
export function visitorQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  })
  client.setQueryData(sessionQueryKey, { user: null })
  return client
}

/**
 * The header alone, as a visitor sees it at `path`. Returns its title and every text the title
 * has shown since, so a key shown for a moment cannot go unseen.
 */
export function renderVisitorHeader(path: string) {
  // Alone, the header is the page: its controls wait for a page on screen (useFirstPageShown).
  firstPageShown()
  render(
    <QueryClientProvider client={visitorQueryClient()}>
      <I18nextProvider i18n={i18n}>
        <NotificationsProvider>
          <MemoryRouter initialEntries={[path]}>
            <Header onOpenMenu={() => {}} />
          </MemoryRouter>
        </NotificationsProvider>
      </I18nextProvider>
    </QueryClientProvider>,
  )
  const title = screen.getByTestId('header-title')
  const shown = new Set<string>()
  new MutationObserver(() => shown.add(title.textContent ?? '')).observe(title, {
    childList: true,
    characterData: true,
    subtree: true,
  })
  return { title, titlesShown: () => [...shown] }
}
