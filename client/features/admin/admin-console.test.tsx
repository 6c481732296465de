import { randomUUID } from 'node:crypto'
import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { apiCallsTo, planCallsTo, subscriberOf } from '../../../tests/support/api-calls'
import { buildUser, TEST_PASSWORD } from '../../../tests/support/factories'
import { makeWav } from '../../../tests/support/media'
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

  it('refunds part of a paid invoice: it offers what is left, refuses more in place, then shows what came back; and mails it again', async () => {
    const { user: member, cookie, invoice } = await subscriberOf(server.app)
    const { invoicesOf } = planCallsTo(apiCallsTo(() => server.app))
    const total = `US$${(invoice.total / 100).toFixed(2)}`

    await openConsole()
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'Members' }))
    await user.type(await screen.findByLabelText('E-mail or name'), member.email)
    await user.click(await screen.findByRole('link', { name: member.email }))
    await user.click(
      await screen.findByRole('button', { name: `Refund invoice ${invoice.number}` }),
    )
    const dialog = await screen.findByRole('dialog', { name: `Refund invoice ${invoice.number}` })
    const amount = within(dialog).getByLabelText('Amount to give back (USD)') as HTMLInputElement
    expect(amount.value).toBe((invoice.total / 100).toFixed(2))
    expect(within(dialog).getByTestId('refund-paid').textContent).toBe(`Paid: ${total}.`)

    await user.clear(amount)
    await user.type(amount, '9999')
    await user.type(within(dialog).getByLabelText('Reason'), 'A session did not play')
    await user.click(within(dialog).getByRole('button', { name: 'Give it back' }))
    expect(
      await within(dialog).findByText(
        'Enter an amount from $0.01 up to what is left to give back, such as 15 or 7.50.',
      ),
    ).toBeTruthy()

    await user.clear(amount)
    await user.type(amount, '5')
    expect(within(dialog).getByTestId('action-effect').textContent).toContain(
      'US$5.00 goes back to the card that paid this invoice',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Give it back' }))
    expect(await screen.findByText('Refund made: US$5.00.')).toBeTruthy()
    expect((await screen.findByTestId('member-invoice-refunded')).textContent).toBe(
      'US$5.00 refunded',
    )
    expect((await invoicesOf(cookie))[0]?.refunded).toBe(500)

    // Mailing it again says where it goes, and that nothing is charged.
    await user.click(screen.getByRole('button', { name: `Re-send invoice ${invoice.number}` }))
    const resend = await screen.findByRole('dialog', { name: `Re-send invoice ${invoice.number}` })
    expect(resend.textContent).toContain(
      `Invoice ${invoice.number} goes again by e-mail, as its first mail went, to ${member.email}. Nothing is charged.`,
    )
    await user.click(within(resend).getByRole('button', { name: 'Send it' }))
    expect(await screen.findByText(`Invoice ${invoice.number} is on its way.`)).toBeTruthy()
  })

  it('lists a job that gave up with why, and Retry runs it again and takes it off the list', async () => {
    let refusing = true
    const name = `test.flaky-${randomUUID().slice(0, 8)}`
    const queue = await server.app.jobs.define<{ to: string }>(
      name,
      {
        retryLimit: 0,
        retryDelaySeconds: 1,
        expireInSeconds: 30,
        describe: ({ to }) => `to ${to}`,
      },
      async () => {
        if (refusing) throw new Error('the mail server said 421 try later')
      },
    )
    const about = `to ${randomUUID()}@example.com`
    await queue.send({ to: about.slice(3) })
    await waitFor(
      async () =>
        expect((await server.app.jobs.failed()).some((job) => job.about === about)).toBe(true),
      { timeout: 20_000 },
    )
    await openConsole()
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'Jobs' }))
    const row = (await screen.findByText(about)).closest('li')
    if (!row) throw new Error('the job has no row')
    expect(within(row).getByTestId('job-error').textContent).toBe(
      'After 1 try: the mail server said 421 try later',
    )
    refusing = false
    await user.click(within(row).getByRole('button', { name: `Retry: ${name} — ${about}` }))
    const dialog = await screen.findByRole('dialog', { name: 'Retry this job' })
    await user.click(within(dialog).getByRole('button', { name: 'Retry now' }))
    expect(await screen.findByText('The job is running again.')).toBeTruthy()
    await waitFor(() => expect(screen.queryByText(about)).toBeNull())
  })

  it('uploads a backing track from the Media page, lists it, and removes it after asking', async () => {
    const name = `ocean-${randomUUID().slice(0, 8)}.wav`
    await openConsole()
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'Media' }))
    await user.click(await screen.findByRole('button', { name: 'Upload' }))
    expect(await screen.findByText('Choose a file to upload.')).toBeTruthy()

    const file = new File([new Uint8Array(makeWav(0.2))], name, { type: 'audio/wav' })
    await user.upload(screen.getByLabelText('File'), file)
    expect(
      screen.getByText(/An audio file \(.+\): it becomes the backing track every session plays\./),
    ).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Upload' }))
    const key = `WH_BackingTrack-${name}`
    expect(await screen.findByText(`${key} is uploaded.`)).toBeTruthy()
    const row = (await within(await screen.findByTestId('media-list')).findByText(key)).closest(
      'li',
    )
    if (!row) throw new Error('the file has no row')
    expect(row.textContent).toContain('Backing track')

    await user.click(within(row).getByRole('button', { name: `Remove ${key}` }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove this file' })
    expect(dialog.textContent).toContain(`${key} is deleted from storage`)
    await user.click(within(dialog).getByRole('button', { name: 'Remove it' }))
    expect(await screen.findByText('File removed.')).toBeTruthy()
    await waitFor(() => expect(screen.queryByText(key)).toBeNull())
    expect(await server.app.storage.get(`medias/${key}`)).toBeNull()
  })
})
