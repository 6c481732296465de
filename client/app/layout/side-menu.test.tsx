import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import { renderApp } from '../../lib/testing/render-app'

// The side drawer as a visitor and as a member sees it (spec core §2), against the real server
// that says who is signed in.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

async function openMenu() {
  const user = userEvent.setup()
  const button = await screen.findByRole<HTMLButtonElement>('button', { name: 'Open menu' })
  // The menu opens once the first page's code has run (useFirstPageShown).
  await waitFor(() => expect(button.disabled).toBe(false))
  await user.click(button)
  const menu = await screen.findByTestId('side-menu')
  // The modal menu turns the page's pointer events off and its own back on a render later.
  await waitFor(() => expect(menu.style.pointerEvents).toBe('auto'))
  return { user, button, menu }
}

describe('side menu', () => {
  it('offers a visitor only the ways into an account', async () => {
    await renderApp('/login')
    const { menu } = await openMenu()
    expect(within(menu).getByRole('heading', { name: 'Welcome' })).toBeTruthy()
    const links = within(menu).getAllByRole('link')
    expect(links.map((link) => link.textContent)).toEqual([
      'Sign In',
      'Create an Account',
      'Confirm your code',
      'Forgot your password?',
    ])
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/login',
      '/signup',
      '/signup-confirm',
      '/forgot-password',
    ])
  })

  it('lists the spec items for a member, in order, ending with Log Out', async () => {
    const member = await signedInMember(server, { name: 'Ada Lovelace' })
    await renderApp('/my-account')
    await screen.findByTestId('account-email')
    const { menu } = await openMenu()
    expect(within(menu).getByRole('heading', { name: `Welcome, ${member.name}` })).toBeTruthy()
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'About',
      'Solfeggio science',
      'Medical Disclaimer',
      'Messages in Water',
      'Privacy Policy & Terms',
      'How-To',
      'Home',
      'User Records',
      'Aura',
      'Chakra',
      'My Account',
      'Support',
      'Log Out',
    ])
  })

  it('gives focus back to the menu button when Escape closes it', async () => {
    await renderApp('/login')
    const { user, button, menu } = await openMenu()
    await waitFor(() => expect(menu.contains(document.activeElement)).toBe(true))
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('side-menu')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(button))
  })

  it('gives focus back to the menu button when its close button is used', async () => {
    await renderApp('/login')
    const { user, button, menu } = await openMenu()
    await user.click(within(menu).getByRole('button', { name: 'Close menu' }))
    await waitFor(() => expect(screen.queryByTestId('side-menu')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(button))
  })
})

describe('the language selector', () => {
  it("saves a member's choice on the account, so e-mails and other devices follow it", async () => {
    const member = await signedInMember(server, { language: 'en' })
    await renderApp('/home')
    // The member's menu shows once the page knows who is signed in.
    const { user, menu } = await openMenu()
    await within(menu).findByRole('link', { name: 'Log Out' })
    await user.keyboard('{Escape}')
    const select = (await screen.findByTestId('language-select')) as HTMLSelectElement
    await user.selectOptions(select, 'es')
    await waitFor(async () => {
      const { rows } = await server.app.database.executeSql(
        'select language from "user" where id = $1',
        [member.id],
      )
      expect(rows[0]?.language).toBe('es')
    })
  })
})
