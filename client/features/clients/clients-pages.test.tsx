import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENTS_PAGE_SIZE, clientRecordSchema } from '../../../domain/clients'
import { apiRequest } from '../../lib/api-client'
import { type AppServer, signedInMember, startAppServer } from '../../lib/testing/app-server'
import { renderApp } from '../../lib/testing/render-app'
import { uploadClientPhoto } from './api'

// The records list and the client form against the real server: pages of clients, search,
// the empty state, and the form's errors.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())

async function practitionerWithClients(count: number) {
  await signedInMember(server, { access: true })
  const photo = await uploadClientPhoto(new Blob([PNG], { type: 'image/png' }))
  for (let index = 0; index < count; index++) {
    const body = {
      firstName: `Client ${String(index).padStart(2, '0')}`,
      lastName: index === 7 ? 'Quintana' : 'Smith',
      email: `client${index}@example.com`,
      phone: '+34600123456',
      birthDate: null,
      affirmation: 'I am calm.',
      photoNumber: photo.number,
      consent: true,
    }
    await apiRequest('/api/clients', clientRecordSchema, {
      method: 'POST',
      body: JSON.stringify(body),
    })
  }
}

const rows = () => screen.queryAllByTestId('client-row')

describe('the records list', () => {
  it('shows a page, then the next one, and finds a client by part of the name', async () => {
    await practitionerWithClients(CLIENTS_PAGE_SIZE + 5)
    await renderApp('/aura-user-record')
    await waitFor(() => expect(rows().length).toBeGreaterThanOrEqual(CLIENTS_PAGE_SIZE))
    // The next page comes with the button (or by itself, where the end scrolls into view).
    const more = screen.queryByRole('button', { name: 'Show more' })
    if (more) await userEvent.click(more)
    await waitFor(() => expect(rows()).toHaveLength(CLIENTS_PAGE_SIZE + 5))
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull()
    expect(
      within(rows()[0] as HTMLElement)
        .getByRole('link', { name: /^Open / })
        .getAttribute('href'),
    ).toMatch(/^\/user-details#[0-9a-f-]{36}$/)

    await userEvent.type(screen.getByTestId('client-search'), 'quint')
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(rows()[0]?.textContent).toContain('Client 07 Quintana')
    await userEvent.type(screen.getByTestId('client-search'), 'zzz')
    expect((await screen.findByTestId('records-empty')).textContent).toBe(
      "No client's name contains “quintzzz”.",
    )
  })

  it('says No Records found when there are none, in Spanish too', async () => {
    await practitionerWithClients(0)
    await renderApp('/aura-user-record', { language: 'es' })
    expect((await screen.findByTestId('records-empty')).textContent).toBe(
      'No se encontraron registros',
    )
  })

  it('without access says so, and asks the server for no client', async () => {
    await signedInMember(server)
    await renderApp('/aura-user-record')
    expect((await screen.findByTestId('no-payment')).textContent).toBe(
      'Sorry, no payment found yet.',
    )
    expect(screen.queryByTestId('client-search')).toBeNull()
  })
})

describe('the client form', () => {
  it('announces each missing field, the affirmation too, and points the field at its error', async () => {
    await signedInMember(server, { access: true })
    await renderApp('/user-details')
    await userEvent.click(await screen.findByRole('button', { name: 'Start' }, { timeout: 15_000 }))
    const affirmation = await screen.findByRole('textbox', { name: 'Positive affirmation' })
    await waitFor(() => expect(affirmation.getAttribute('aria-invalid')).toBe('true'))
    const error = screen
      .getAllByRole('alert')
      .find((alert) => alert.textContent === 'Affirmation is required')
    expect(error).toBeDefined()
    expect(affirmation.getAttribute('aria-describedby')).toBe(error?.id)
  })
})
