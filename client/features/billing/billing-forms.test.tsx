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
import { parseExpiry } from './components/card-fields'

// Add Credit Card and the saved cards of My Account, against the real server and its sandbox.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement
const title = () => screen.getByTestId('header-title')
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')

async function typeCard(
  number: string,
  { expiry = `12 / ${nextYear}`, cvc = '123', send = 'Save card' as string | null } = {},
) {
  const user = userEvent.setup()
  // The card field shows once the account has said which one (ours or Stripe's).
  await screen.findByLabelText('Card number')
  await user.clear(field('Card number'))
  await user.type(field('Card number'), number)
  await user.clear(field('Expiry date'))
  await user.type(field('Expiry date'), expiry)
  await user.clear(field('Security code'))
  await user.type(field('Security code'), cvc)
  if (send) await user.click(screen.getByRole('button', { name: send }))
}

describe('Add Credit Card', () => {
  it('says in red under each field what is wrong, and sends nothing', async () => {
    await signedInMember(server)
    await renderApp('/my-account/add-credit-card')
    await screen.findByRole('heading', { name: 'Add Credit Card' })
    expect(title().textContent).toBe('My Subscription')
    expect((await screen.findByTestId('sandbox-notice')).textContent).toBe(
      'Sandbox — no real charges',
    )

    await typeCard('4242 4242 4242 4241', { expiry: '13 / 40', cvc: '1' })
    expect(await screen.findByText('Your card number is invalid.')).toBeTruthy()
    expect(screen.getByText("Your card's expiration date is invalid.")).toBeTruthy()
    expect(screen.getByText("Your card's security code is incomplete.")).toBeTruthy()
    expect(field('Card number').getAttribute('aria-invalid')).toBe('true')

    await typeCard('4242424242424242', { expiry: '01 / 20' })
    expect(await screen.findByText("Your card's expiration date is in the past.")).toBeTruthy()
  })

  it('shows the bank’s refusal in red and stays; a good card goes to My Account as the default', async () => {
    await signedInMember(server)
    await renderApp('/my-account/add-credit-card')
    await screen.findByRole('heading', { name: 'Add Credit Card' })

    await typeCard('4000 0000 0000 0002')
    const refusal = await screen.findByText('Your card was declined.')
    expect(refusal.getAttribute('role')).toBe('alert')
    expect(title().textContent).toBe('My Subscription')

    await userEvent.setup().selectOptions(field('Card type'), 'debit')
    await typeCard('4242 4242 4242 4242')
    await waitFor(() => expect(title().textContent).toBe('My Account'))
    const cards = await screen.findByTestId('saved-cards')
    expect(within(cards).getByText('Visa ending in 4242')).toBeTruthy()
    expect(within(cards).getByText('Default')).toBeTruthy()
    expect(screen.getByTestId('snackbar').textContent).toBe('Your card has been saved.')
  })

  it('asks the member to answer the bank’s check (3-D Secure): failed, nothing is saved; confirmed, the card is', async () => {
    await signedInMember(server)
    await renderApp('/my-account/add-credit-card')
    await screen.findByRole('heading', { name: 'Add Credit Card' })
    const user = userEvent.setup()

    await typeCard('4000 0025 0000 3155')
    const check = await screen.findByRole('dialog', { name: 'Confirm this card with your bank' })
    await user.click(within(check).getByRole('button', { name: 'Fail the check' }))
    expect(
      await screen.findByText(
        'Your bank could not confirm this card, so it was not saved. Try again or use another card.',
      ),
    ).toBeTruthy()
    expect(title().textContent).toBe('My Subscription')

    await typeCard('4000 0025 0000 3155')
    const again = await screen.findByRole('dialog', { name: 'Confirm this card with your bank' })
    await user.click(within(again).getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(title().textContent).toBe('My Account'))
    const cards = await screen.findByTestId('saved-cards')
    expect(within(cards).getByText('Visa ending in 3155')).toBeTruthy()
  })

  it('speaks Spanish, the bank’s refusal included', async () => {
    await signedInMember(server, { language: 'es' })
    await renderApp('/my-account/add-credit-card', { language: 'es' })
    await screen.findByRole('heading', { name: 'Añadir tarjeta de crédito' })
    const user = userEvent.setup()
    const send = async (number: string) => {
      await screen.findByLabelText('Número de tarjeta')
      await user.clear(field('Número de tarjeta'))
      await user.type(field('Número de tarjeta'), number)
      await user.clear(field('Fecha de caducidad'))
      await user.type(field('Fecha de caducidad'), `12/${nextYear}`)
      await user.clear(field('Código de seguridad'))
      await user.type(field('Código de seguridad'), '123')
      await user.click(screen.getByRole('button', { name: 'Guardar tarjeta' }))
    }
    await send('4111111111111111')
    expect(
      await screen.findByText(
        'Tu tarjeta ha sido rechazada. El entorno de pruebas solo acepta números de tarjeta de prueba, como 4242 4242 4242 4242.',
      ),
    ).toBeTruthy()
    // Saved: this test card fails only when it is charged.
    await send('4000000000009995')
    await waitFor(() => expect(title().textContent).toBe('Mi cuenta'))
  })
})

describe('saved cards on My Account', () => {
  it('says when there is none, and makes another card the default or removes one', async () => {
    await signedInMember(server)
    await renderApp('/my-account')
    expect(await screen.findByText('No card saved yet.')).toBeTruthy()

    const user = userEvent.setup()
    for (const number of ['4242424242424242', '5555555555554444']) {
      await user.click(screen.getByRole('link', { name: 'Add Credit Card' }))
      await screen.findByRole('heading', { name: 'Add Credit Card' })
      await typeCard(number)
      await screen.findByTestId('saved-cards')
    }
    const cards = screen.getByTestId('saved-cards')
    await waitFor(() => expect(within(cards).getAllByRole('listitem')).toHaveLength(2))
    await user.click(within(cards).getByRole('button', { name: 'Make default' }))
    await waitFor(() =>
      expect(within(cards).getAllByRole('listitem')[0]?.textContent).toContain(
        'Mastercard ending in 4444',
      ),
    )
    await user.click(within(cards).getByRole('button', { name: 'Remove the card ending in 4444' }))
    await waitFor(() => expect(within(cards).getAllByRole('listitem')).toHaveLength(1))
    expect(within(cards).getByText('Default')).toBeTruthy()
  })
})

describe('the expiry field', () => {
  it('reads MM/YY and MM/YYYY, with or without spaces', () => {
    expect(parseExpiry('12 / 30')).toEqual({ expMonth: 12, expYear: 2030 })
    expect(parseExpiry('7/2031')).toEqual({ expMonth: 7, expYear: 2031 })
    expect(parseExpiry('13/30')).toBeNull()
    expect(parseExpiry('12-30')).toBeNull()
  })
})

describe('Modify Billing Info', () => {
  it('shows both notices, starts from the member’s name and e-mail, and names each missing field', async () => {
    const member = await signedInMember(server)
    await renderApp('/modify-billing-info')
    // The header says the page's title too; the notices show the page itself has loaded.
    const notices = await screen.findByTestId('billing-notices')
    expect(title().textContent).toBe('Modify Billing Info')
    expect(notices.textContent).toContain(
      'The changes in your billing information will be effective from your next invoice.',
    )
    expect(notices.textContent).toContain(
      'IMPORTANT: Invoices generation for the United Kingdom could be delayed up to one month due to Brexit.',
    )
    await waitFor(() => expect(field('Customer Name').value).toBe(member.name))
    expect(field('Billing Email').value).toBe(member.email)

    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Please enter your address')).toBeTruthy()
    expect(screen.getByText('Please enter your postal code')).toBeTruthy()
    expect(screen.getByText('Please choose your country')).toBeTruthy()
  })

  it('saves the address, which My Account then shows', async () => {
    await signedInMember(server)
    await renderApp('/my-account/modify-billing-info', { language: 'es' })
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Dirección, línea 1'), 'Calle Mayor 1')
    await user.type(field('Ciudad'), 'Madrid')
    await user.type(field('Código postal'), '28013')
    const country = field('País') as unknown as HTMLSelectElement
    await waitFor(() => expect(country.options.length).toBeGreaterThan(200))
    await user.selectOptions(country, 'ES')
    expect(country.selectedOptions[0]?.textContent).toBe('España')
    const state = (await screen.findByLabelText('Estado o provincia')) as HTMLSelectElement
    await user.selectOptions(state, 'Madrid, Comunidad de')
    await user.click(screen.getByRole('button', { name: 'Guardar' }))

    await waitFor(() => expect(title().textContent).toBe('Mi cuenta'))
    const shown = await screen.findByTestId('billing-info')
    await waitFor(() => expect(shown.textContent).toContain('Calle Mayor 1'))
    expect(shown.textContent).toContain('28013 Madrid')
    expect(shown.textContent).toContain('Madrid, Comunidad de, España')
  })

  it('offers the states of the chosen country only, and none where the country has none', async () => {
    await signedInMember(server)
    await renderApp('/modify-billing-info')
    const user = userEvent.setup()
    const country = (await screen.findByLabelText('Country')) as HTMLSelectElement
    await waitFor(() => expect(country.options.length).toBeGreaterThan(200))
    expect(screen.queryByLabelText('State or province')).toBeNull()

    await user.selectOptions(country, 'US')
    const state = (await screen.findByLabelText('State or province')) as HTMLSelectElement
    await waitFor(() => expect(state.options.length).toBeGreaterThan(50))
    await user.selectOptions(state, 'California')
    expect(state.value).toBe('California')

    await user.selectOptions(country, 'CA')
    await waitFor(() =>
      expect([...state.options].map((option) => option.text)).toContain('Ontario'),
    )
    await waitFor(() => expect(state.value).toBe(''))

    await user.selectOptions(country, 'VA')
    await waitFor(() => expect(screen.queryByLabelText('State or province')).toBeNull())
  })
})

describe('One payment (Pay now)', () => {
  async function openPayPage(language: 'en' | 'es' = 'en') {
    await signedInMember(server, { language })
    await renderApp('/my-account/single-payment', { language })
    return screen.findByRole('radio')
  }

  it('has the only price plan chosen already, and waits for the whole card before Pay now', async () => {
    const plan = (await openPayPage()) as HTMLInputElement
    await waitFor(() => expect(plan.checked).toBe(true))
    const user = userEvent.setup()
    const payNow = screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement
    expect(payNow.disabled).toBe(true)
    await user.type(field('Card number'), '4242424242424242')
    await user.type(field('Expiry date'), `12/${nextYear}`)
    expect(payNow.disabled).toBe(true)
    await user.type(field('Security code'), '123')
    expect(payNow.disabled).toBe(false)
    expect(screen.queryByText('*Select a Price Plan first')).toBeNull()
  })

  it('shows the payment in progress, then paid', async () => {
    const plan = await openPayPage()
    const user = userEvent.setup()
    expect(plan.closest('label')?.textContent).toContain('ONE PAYMENTUS$149.00')
    await user.click(plan)
    await user.type(field('Invoice copy (optional)'), 'copy@example.com')
    await typeCard('4242 4242 4242 4242', { send: 'Pay now' })
    expect((await screen.findByTestId('payment-status')).textContent).toBe(
      'Payment Status: in progress...',
    )
    const paid = await screen.findByTestId('payment-paid', undefined, { timeout: 30_000 })
    expect(paid.textContent).toContain('Paid. The panels are open to you.')
    expect(screen.queryByTestId('payment-status')).toBeNull()
  })

  it('says Payment failed with the bank’s reason, in Spanish too', async () => {
    const plan = await openPayPage('es')
    const user = userEvent.setup()
    await user.click(plan)
    await user.type(field('Número de tarjeta'), '4000000000000002')
    await user.type(field('Fecha de caducidad'), `12/${nextYear}`)
    await user.type(field('Código de seguridad'), '123')
    await user.click(screen.getByRole('button', { name: 'Pagar ahora' }))
    expect(
      await screen.findByText('El pago ha fallado. Tu tarjeta ha sido rechazada.'),
    ).toBeTruthy()
  })
})
