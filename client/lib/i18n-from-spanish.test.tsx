import { screen, waitFor } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'

// A visitor who chose Spanish before: only the Spanish catalogue loads at start. English is
// the fallback in name only then, so switching to it must wait for its catalogue, or every text
// would be its key for a moment. The choice is read when the module loads, so it is stored
// before the app's modules are imported.
localStorage.setItem('harmonize.language', 'es')
const { i18n, i18nReady } = await import('./i18n')
const { renderVisitorHeader } = await import('./testing/visitor-header')

describe('interface language chosen before', () => {
  it('starts in Spanish alone, and reaches English without showing a key', async () => {
    await i18nReady
    expect(i18n.language).toBe('es')
    expect(document.documentElement.lang).toBe('es')
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false)

    const { title, titlesShown } = renderVisitorHeader('/login')
    expect(title.textContent).toBe('Iniciar sesión')

    await userEvent.selectOptions(screen.getByLabelText('Elegir idioma'), 'en')
    await waitFor(() => expect(title.textContent).toBe('Sign In'))
    expect(titlesShown()).toEqual(['Sign In'])
    expect(document.documentElement.lang).toBe('en')
  })
})
