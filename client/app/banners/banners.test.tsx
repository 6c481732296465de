import { act, render, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { I18nextProvider } from 'react-i18next'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n, i18nReady, setLanguage } from '../../lib/i18n'
import { type InstallPromptEvent, setPwaState } from '../../lib/pwa-state'
import { PwaBanners } from './pwa-banners'

// The install and update banners (spec: public flows §2 Banners) against the state the service
// worker registration feeds them (client/lib/pwa-register.ts, which needs a real browser: see
// tests/e2e/banners.spec.ts).

function renderBanners() {
  return render(
    <I18nextProvider i18n={i18n}>
      <PwaBanners />
    </I18nextProvider>,
  )
}

/** What the browser's `beforeinstallprompt` hands over, with its prompt recorded. */
function installPromptEvent() {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as InstallPromptEvent
  const prompt = vi.fn(async () => ({ outcome: 'accepted' }))
  event.prompt = prompt
  return { event, prompt }
}

beforeAll(async () => {
  // The banners' lazy chunk (lucide's icons are a large module to transform) arrives before the
  // tests time what appears.
  await import('./banners')
})
beforeEach(async () => {
  await i18nReady
  await setLanguage('en')
})
afterEach(() =>
  act(() => setPwaState({ installPrompt: null, installFromSafari: false, update: null })),
)

describe('install banner', () => {
  it("shows on the browser's install event and opens its prompt once", async () => {
    renderBanners()
    expect(screen.queryByTestId('install-banner')).toBeNull()
    const { event, prompt } = installPromptEvent()
    act(() => {
      window.dispatchEvent(event)
    })
    // Kept for our banner: the browser's own mini-infobar is not shown.
    expect(event.defaultPrevented).toBe(true)
    const banner = await screen.findByTestId('install-banner')
    expect(banner.textContent).toContain('You can install this app in your device!')

    await userEvent.click(within(banner).getByRole('button', { name: 'Install App' }))
    expect(prompt).toHaveBeenCalledTimes(1)
    // The prompt cannot be shown twice.
    await waitFor(() => expect(screen.queryByTestId('install-banner')).toBeNull())
  })

  it('stays closed for the running build, and shows again for another one', async () => {
    const { event } = installPromptEvent()
    act(() => setPwaState({ installPrompt: event }))
    const first = renderBanners()
    const banner = await screen.findByTestId('install-banner')
    await userEvent.click(within(banner).getByRole('button', { name: 'Close the install notice' }))
    expect(screen.queryByTestId('install-banner')).toBeNull()
    first.unmount()

    const again = renderBanners()
    // The lazy chunk is already loaded: anything it renders is there at once.
    await waitFor(() => expect(screen.queryByTestId('install-banner')).toBeNull())
    again.unmount()

    localStorage.setItem('harmonize.install-banner.closed', 'an older build')
    renderBanners()
    expect(await screen.findByTestId('install-banner')).toBeTruthy()
  })

  it('on iOS outside Safari, points to Safari and offers no button', async () => {
    act(() => setPwaState({ installFromSafari: true }))
    renderBanners()
    const banner = await screen.findByTestId('install-banner')
    expect(banner.querySelector('p')?.textContent).toBe(
      'You can install the app from safari and it could be a better option!',
    )
    expect(
      within(banner)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Close the install notice'])
  })
})

describe('update banner', () => {
  it('applies the waiting version, and once closed stays closed for that version only', async () => {
    const apply = vi.fn()
    act(() => setPwaState({ update: { version: 'v2', apply } }))
    const first = renderBanners()
    const banner = await screen.findByTestId('update-banner')
    expect(banner.querySelector('p')?.textContent).toBe('There is a new app version!')
    await userEvent.click(within(banner).getByRole('button', { name: 'Update App' }))
    expect(apply).toHaveBeenCalledTimes(1)

    await userEvent.click(within(banner).getByRole('button', { name: 'Close the update notice' }))
    expect(screen.queryByTestId('update-banner')).toBeNull()
    first.unmount()
    renderBanners()
    await waitFor(() => expect(screen.queryByTestId('update-banner')).toBeNull())

    act(() => setPwaState({ update: { version: 'v3', apply } }))
    expect(await screen.findByTestId('update-banner')).toBeTruthy()
  })

  it('speaks Spanish', async () => {
    await setLanguage('es')
    act(() => setPwaState({ update: { version: 'v2', apply: () => {} }, installFromSafari: true }))
    renderBanners()
    const update = await screen.findByTestId('update-banner')
    expect(update.querySelector('p')?.textContent).toBe('¡Hay una nueva versión de la aplicación!')
    expect(within(update).getByRole('button', { name: 'Actualizar aplicación' })).toBeTruthy()
    expect(screen.getByTestId('install-banner').querySelector('p')?.textContent).toBe(
      'Puedes instalar la aplicación desde Safari, ¡y podría ser una mejor opción!',
    )
  })
})
