import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { configure, render } from '@testing-library/react'
import { I18nextProvider } from 'react-i18next'
import { MemoryRouter } from 'react-router'
import type { Language } from '../../../domain/i18n'
import { AppRoutes } from '../../app/routes'
import { HeaderSlotProvider } from '../header-slot'
import { i18n, i18nReady, setLanguage } from '../i18n'
import { NotificationsProvider } from '../notifications'

// These tests wait on a real server (Argon2 hashes, mail jobs, a database) on a shared, busy
// machine: findBy and waitFor give an answer 10 s instead of Testing Library's 1 s.
configure({ asyncUtilTimeout: 10_000 })

/**
 * Renders the whole app (layout, route guards, snackbar, lazy pages) at `path`, as main.tsx
 * does, with a query cache of its own so no test sees another's session.
 */
export async function renderApp(
  path: string,
  { state, language = 'en' }: { state?: unknown; language?: Language } = {},
) {
  await i18nReady
  await setLanguage(language)
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <NotificationsProvider>
          <HeaderSlotProvider>
            <MemoryRouter initialEntries={[{ pathname: path, state }]}>
              <AppRoutes />
            </MemoryRouter>
          </HeaderSlotProvider>
        </NotificationsProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  )
}
