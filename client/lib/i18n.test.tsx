import { screen, waitFor } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { i18n, i18nReady } from './i18n'
import { renderVisitorHeader } from './testing/visitor-header'

// Only the chosen language's catalogue is loaded at start; the other arrives when the person
// switches, and the switch waits for it (docs/strings.md).

describe('interface language', () => {
  it('starts with the chosen catalogue only, and switches once the other has arrived', async () => {
    await i18nReady
    expect(i18n.language).toBe('en')
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true)
    expect(i18n.hasResourceBundle('es', 'translation')).toBe(false)

    const { title, titlesShown } = renderVisitorHeader('/login')
    expect(title.textContent).toBe('Sign In')

    await userEvent.selectOptions(screen.getByLabelText('Choose language'), 'es')
    await waitFor(() => expect(title.textContent).toBe('Iniciar sesión'))

    expect(titlesShown()).toEqual(['Iniciar sesión'])
    expect(i18n.hasResourceBundle('es', 'translation')).toBe(true)
    expect(document.documentElement.lang).toBe('es')
    expect(localStorage.getItem('harmonize.language')).toBe('es')
    expect((screen.getByLabelText('Elegir idioma') as HTMLSelectElement).value).toBe('es')
  })
})
