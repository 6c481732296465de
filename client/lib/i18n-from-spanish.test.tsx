import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { I18nextProvider } from 'react-i18next'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'

// A visitor who chose Spanish before: only the Spanish catalogue loads at start. English is
// the fallback in name only then, so switching to it must wait for its catalogue, or every text
// would be its key for a moment. The choice is read when the module loads, so it is stored
// before the app's modules are imported.
localStorage.setItem('harmonize.language', 'es')
const { i18n, i18nReady } = await import('./i18n')
const { NotificationsProvider } = await import('./notifications')
const { Header } = await import('../app/layout/header')
const { visitorQueryClient } = await import('./testing/query-client')

describe('interface language chosen before', () => {
  it('starts in Spanish alone, and reaches English without showing a key', async () => {
    await i18nReady
    expect(i18n.language).toBe('es')
    expect(document.documentElement.lang).toBe('es')
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false)

    render(
      <QueryClientProvider client={visitorQueryClient()}>
        <I18nextProvider i18n={i18n}>
          <NotificationsProvider>
            <MemoryRouter initialEntries={['/login']}>
              <Header onOpenMenu={() => {}} />
            </MemoryRouter>
          </NotificationsProvider>
        </I18nextProvider>
      </QueryClientProvider>,
    )
    const title = screen.getByTestId('header-title')
    expect(title.textContent).toBe('Iniciar sesión')
    const shown = new Set<string>()
    const observer = new MutationObserver(() => shown.add(title.textContent ?? ''))
    observer.observe(title, { childList: true, characterData: true, subtree: true })

    await userEvent.selectOptions(screen.getByLabelText('Elegir idioma'), 'en')
    await waitFor(() => expect(title.textContent).toBe('Sign In'))
    observer.disconnect()
    expect([...shown]).toEqual(['Sign In'])
    expect(document.documentElement.lang).toBe('en')
  })
})
