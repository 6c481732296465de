import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { payOnceResponseSchema } from '../../../domain/billing'
import { type Invoice, invoicesResponseSchema } from '../../../domain/billing-plans'
import { formatShortDay } from '../../../domain/format'
import { apiRequest } from '../../lib/api-client'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import { post, priceOf, sandboxCard } from '../../lib/testing/billing'
import { renderApp } from '../../lib/testing/render-app'

// The invoices screen (spec core §2, §3 and §9), against the real server and its sandbox.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

const title = () => screen.getByTestId('header-title')
const utcToday = () => formatShortDay(new Date(), 'en')

/**
 * Pays ONE PAYMENT as the pay screen does, with this page's session: the card field makes a
 * payment method, Pay now charges it. The bank answers in a job, and the invoice is made then,
 * so this waits until the invoice list has it.
 */
async function payOnePayment(): Promise<Invoice> {
  const card = await sandboxCard()
  const price = await priceOf('one_payment')
  await apiRequest(
    '/api/billing/one-payment',
    payOnceResponseSchema,
    post({ priceId: price.id, paymentMethodId: card, attemptId: crypto.randomUUID() }),
  )
  return waitFor(
    async () => {
      const { invoices } = await apiRequest('/api/billing/invoices', invoicesResponseSchema)
      const [invoice] = invoices
      if (!invoice) throw new Error('no invoice yet: the bank has not answered')
      return invoice
    },
    { timeout: 30_000, interval: 250 },
  )
}

/** The texts of the table's only row, cell by cell. */
async function onlyRow() {
  const table = await screen.findByRole('table')
  const rows = within(table).getAllByTestId('invoice-row')
  expect(rows).toHaveLength(1)
  const row = rows[0] as HTMLElement
  return {
    row,
    cells: within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent),
  }
}

describe('Invoices', () => {
  it('says when there is none yet, under the notice, and Go back leads to My Account', async () => {
    await signedInMember(server)
    await renderApp('/billing-history')
    await screen.findByRole('heading', { level: 1, name: 'Invoices' })
    expect(title().textContent).toBe('My Subscription')
    expect(screen.getByTestId('invoice-notice').textContent).toBe(
      'The invoice will be generated about 24 hours after we have received your payment.',
    )
    expect(await screen.findByText('No invoices yet.')).toBeTruthy()
    expect(screen.queryByRole('table')).toBeNull()
    expect(screen.queryByText('Loading your invoices…')).toBeNull()
    expect((await screen.findByTestId('sandbox-notice')).textContent).toBe(
      'Sandbox — no real charges',
    )

    await userEvent.setup().click(screen.getByRole('button', { name: 'Go back' }))
    await waitFor(() => expect(title().textContent).toBe('My Account'))
  })

  it('shows a paid ONE PAYMENT as a row: what was bought, its reference, date, amount, Paid and its PDF', async () => {
    await signedInMember(server)
    const before = utcToday()
    const invoice = await payOnePayment()
    const after = utcToday()
    await renderApp('/my-account/billing-history')
    await screen.findByRole('heading', { level: 1, name: 'Invoices' })
    expect(title().textContent).toBe('My Subscription')

    const table = await screen.findByRole('table', { name: 'Invoices' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Reference', 'Date', 'Amount', 'Status', 'Invoice'])
    for (const th of within(table).getAllByRole('columnheader')) {
      expect(th.getAttribute('scope')).toBe('col')
    }
    const { row, cells } = await onlyRow()
    const [product, reference, date, amount, status] = cells
    expect(product).toBe('ONE PAYMENT')
    expect(reference).toMatch(/^HZ-\d{6}$/)
    expect(reference).toBe(invoice.number)
    // Made while this test ran: today in UTC (either side of a midnight it may have crossed).
    expect([before, after]).toContain(date)
    expect(amount).toBe('US$149.00')
    expect(status).toBe('Paid')

    // The name starts with the word the eye sees, so voice control reaches it too.
    const pdf = within(row).getByRole('link', { name: `PDF of invoice ${invoice.number}` })
    expect(pdf.textContent).toBe('PDF')
    expect(pdf.getAttribute('href')).toMatch(/^\/api\/billing\/invoices\/in_[A-Za-z0-9]+\/pdf$/)
    expect(pdf.getAttribute('target')).toBe('_blank')
    expect(pdf.getAttribute('rel')).toBe('noopener')

    // A phone gets the same invoice as a card, nothing hidden off-screen (CSS picks one).
    const card = within(screen.getByRole('list', { name: 'Invoices' })).getByTestId('invoice-card')
    for (const shown of ['ONE PAYMENT', invoice.number, 'US$149.00', 'Paid', 'PDF']) {
      expect(card.textContent).toContain(shown)
    }
  })

  it('speaks Spanish', async () => {
    await signedInMember(server, { language: 'es' })
    await payOnePayment()
    await renderApp('/billing-history', { language: 'es' })
    await screen.findByRole('heading', { level: 1, name: 'Facturas' })
    expect(title().textContent).toBe('Mi suscripción')
    expect(screen.getByTestId('invoice-notice').textContent).toBe(
      'La factura se generará unas 24 horas después de que hayamos recibido tu pago.',
    )
    const table = await screen.findByRole('table', { name: 'Facturas' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Producto', 'Referencia', 'Fecha', 'Importe', 'Estado', 'Factura'])
    const { row, cells } = await onlyRow()
    expect(cells.slice(0, 5)).toEqual([
      'PAGO ÚNICO',
      expect.stringMatching(/^HZ-\d{6}$/),
      expect.stringMatching(/^\d{1,2} [a-z]{3} \d{4}$/),
      '149,00\u00a0US$',
      'Pagada',
    ])
    expect(
      within(row)
        .getByRole('link', { name: `PDF de la factura ${cells[1]}` })
        .getAttribute('href'),
    ).toMatch(/^\/api\/billing\/invoices\/in_[A-Za-z0-9]+\/pdf$/)
    expect(screen.getByRole('button', { name: 'Volver' })).toBeTruthy()
  })
})
