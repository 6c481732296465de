import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildUser, TEST_PASSWORD } from '../../../tests/support/factories'
import { makeOperator } from '../../../tests/support/operators'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import { renderApp } from '../../lib/testing/render-app'

// The console's pages against the real server: an operator with the second factor passed.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

const post = (url: string, body: object) =>
  fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  })

/** Signs an operator in and passes the second factor in this page's session. */
async function openConsole() {
  const operator = await signedInMember(server)
  await makeOperator(server.app, operator.email)
  const { secret } = await (
    await post('/api/operator-factor/set-up', { password: TEST_PASSWORD })
  ).json()
  const confirmed = await post('/api/operator-factor/set-up/confirm', {
    code: new TOTP({ secret: Secret.fromBase32(secret) }).generate(),
  })
  expect(confirmed.status).toBe(200)
  await renderApp('/admin')
  await screen.findByTestId('overview')
}

describe('the console', () => {
  it('filters the members as the search is typed, and a member’s page leads back to the same list', async () => {
    const tag = `quintana${Date.now()}`
    const found = await buildUser(server.app, { name: `Ana ${tag}` })
    await buildUser(server.app, { name: 'Someone Else' })
    await openConsole()
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'Members' }))
    await user.type(await screen.findByLabelText('E-mail or name'), tag)
    await waitFor(() => {
      const rows = within(screen.getByTestId('members')).getAllByRole('listitem')
      expect(rows.map((row) => row.textContent)).toEqual([
        expect.stringContaining(found.user.email),
      ])
    })
    // Announced to screen readers too.
    expect(screen.getByText('1 member shown.')).toBeTruthy()

    await user.click(screen.getByRole('link', { name: found.user.email }))
    expect((await screen.findByTestId('member-email')).textContent).toBe(found.user.email)
    await user.click(screen.getByRole('link', { name: 'Members' }))
    expect(((await screen.findByLabelText('E-mail or name')) as HTMLInputElement).value).toBe(tag)
  })

  it('asks why before blocking, in place, and says what blocking will do', async () => {
    const { user: member } = await buildUser(server.app)
    await openConsole()
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'Members' }))
    await user.type(await screen.findByLabelText('E-mail or name'), member.email)
    await user.click(await screen.findByRole('link', { name: member.email }))
    await user.click(await screen.findByRole('button', { name: 'Block account' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByTestId('action-effect').textContent).toContain(
      `${member.email} will be signed out on every device`,
    )
    await user.click(within(dialog).getByRole('button', { name: 'Block' }))
    expect(
      await within(dialog).findByText('Say why, in a few words: the audit log keeps it.'),
    ).toBeTruthy()
    expect(within(dialog).getByLabelText('Reason').getAttribute('aria-invalid')).toBe('true')
  })
})
