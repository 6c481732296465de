import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { I18nextProvider } from 'react-i18next'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { Header } from '../app/layout/header'
import { i18n, i18nReady } from './i18n'
import { NotificationsProvider } from './notifications'
import { visitorQueryClient } from './testing/query-client'

// Only the chosen language's catalogue is loaded at start; the other arrives when the person
// switches, and the switch waits for it (docs/strings.md).

describe('interface language', () => {
  it('starts with the chosen catalogue only, and switches once the other has arrived', async () => {
    await i18nReady
    expect(i18n.language).toBe('en')
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true)
    expect(i18n.hasResourceBundle('es', 'translation')).toBe(false)

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
    expect(title.textContent).toBe('Sign In')

    // Every text the title shows on the way, so a key shown for a moment cannot go unseen.
    const shown = new Set<string>()
    const observer = new MutationObserver(() => shown.add(title.textContent ?? ''))
    observer.observe(title, { childList: true, characterData: true, subtree: true })

    await userEvent.selectOptions(screen.getByLabelText('Choose language'), 'es')
    await waitFor(() => expect(title.textContent).toBe('Iniciar sesión'))
    observer.disconnect()

    expect([...shown]).toEqual(['Iniciar sesión'])
    expect(i18n.hasResourceBundle('es', 'translation')).toBe(true)
    expect(document.documentElement.lang).toBe('es')
    expect(localStorage.getItem('harmonize.language')).toBe('es')
    expect((screen.getByLabelText('Elegir idioma') as HTMLSelectElement).value).toBe('es')
  })
})
