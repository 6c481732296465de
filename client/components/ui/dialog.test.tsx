import { render, screen, waitFor } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { useState } from 'react'
import { I18nextProvider } from 'react-i18next'
import { describe, expect, it } from 'vitest'
import { i18n, i18nReady } from '../../lib/i18n'
import { NotificationsProvider } from '../../lib/notifications'
import { Dialog } from './dialog'

function Opener() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Change password
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Change password">
        <input aria-label="Current password" />
      </Dialog>
    </>
  )
}

describe('Dialog', () => {
  it('gives focus back to the button that opened it, after Escape or its close button', async () => {
    await i18nReady
    const user = userEvent.setup()
    render(
      <I18nextProvider i18n={i18n}>
        <NotificationsProvider>
          <Opener />
        </NotificationsProvider>
      </I18nextProvider>,
    )
    const button = screen.getByRole('button', { name: 'Change password' })
    for (const close of [
      () => user.keyboard('{Escape}'),
      () => user.click(screen.getByRole('button', { name: 'Close' })),
    ]) {
      await user.click(button)
      const dialog = await screen.findByRole('dialog', { name: 'Change password' })
      await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
      await close()
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
      await waitFor(() => expect(document.activeElement).toBe(button))
    }
  })
})
