import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { planStateSchema } from '../../../domain/billing-plans'
import { startStripeStandIn } from '../../../tests/support/stripe-standin'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import { apiRequest } from '../../lib/api-client'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import { renderApp } from '../../lib/testing/render-app'
import { installStripeJsStandIn } from '../../lib/testing/stripe-js-standin'

// Add Credit Card and Pay now in Stripe mode: the app runs with PAYMENTS=stripe against a
// Stripe-compatible stand-in, and the page's card field is Stripe's (here a stand-in for
// Stripe.js, which cannot be fetched in tests). The card is typed into Stripe's field, confirmed
// with Stripe, and only its id reaches the app.

let server: AppServer
let stripeSide: { environment: TestEnvironment; app: FastifyInstance }
let standIn: Awaited<ReturnType<typeof startStripeStandIn>>

beforeAll(async () => {
  const environment = await createTestEnvironment()
  stripeSide = { environment, app: await environment.build() }
  standIn = await startStripeStandIn(stripeSide.app.db)
  server = await startAppServer(standIn.env)
  standIn.sendEventsTo(() => server.app)
  installStripeJsStandIn(standIn.url)
}, 180_000)
afterAll(async () => {
  await server?.close()
  await standIn?.close()
  await stripeSide?.app.close()
  await stripeSide?.environment.destroy()
})
beforeEach(() => signOut())

const title = () => screen.getByTestId('header-title')

/** Types a card into Stripe's field, as the member does. */
async function typeIntoStripe(number: string) {
  const user = userEvent.setup()
  const field = await screen.findByTestId('stripe-card-field')
  const [cardNumber, expiry, cvc] = await within(field).findAllByRole('textbox')
  for (const [input, text] of [
    [cardNumber, number],
    [expiry, '12 / 40'],
    [cvc, '123'],
  ] as const) {
    if (!input) throw new Error('Stripe’s field has three parts')
    await user.clear(input)
    await user.type(input, text)
  }
}

describe('Add Credit Card in Stripe mode', () => {
  it('takes the card in Stripe’s field, shows Stripe’s refusal in red, and saves a good card', async () => {
    await signedInMember(server)
    await renderApp('/my-account/add-credit-card')
    await screen.findByRole('heading', { name: 'Add Credit Card' })
    // Stripe mode takes real money: no sandbox notice, no test cards, none of our card fields.
    await screen.findByTestId('stripe-card-field')
    expect(screen.queryByTestId('sandbox-notice')).toBeNull()
    expect(screen.queryByLabelText('Expiry date')).toBeNull()
    const save = screen.getByRole('button', { name: 'Save card' }) as HTMLButtonElement
    expect(save.disabled).toBe(true)

    await typeIntoStripe('4000000000000002')
    await waitFor(() => expect(save.disabled).toBe(false))
    const user = userEvent.setup()
    await user.click(save)
    const refusal = await screen.findByText('Your card was declined.')
    expect(refusal.closest('[role="alert"]')).toBeTruthy()
    expect(title().textContent).toBe('My Subscription')

    await typeIntoStripe('5555555555554444')
    await user.click(save)
    await waitFor(() => expect(title().textContent).toBe('My Account'))
    const cards = await screen.findByTestId('saved-cards')
    expect(within(cards).getByText('Mastercard ending in 4444')).toBeTruthy()
    expect(within(cards).getByText('Default')).toBeTruthy()
  })
})

describe('the bank’s check in Stripe mode (3-D Secure)', () => {
  it('runs in Stripe’s page: failed, it says so in the member’s language; completed, the card is saved', async () => {
    await signedInMember(server, { language: 'es' })
    await renderApp('/my-account/add-credit-card', { language: 'es' })
    await screen.findByRole('heading', { name: 'Añadir tarjeta de crédito' })
    const user = userEvent.setup()
    const save = async () => {
      const button = screen.getByRole('button', { name: 'Guardar tarjeta' }) as HTMLButtonElement
      await waitFor(() => expect(button.disabled).toBe(false))
      await user.click(button)
    }

    await typeIntoStripe('4000002500003155')
    await save()
    const bank = await screen.findByRole('dialog', { name: '3D Secure 2 Test Page' })
    await user.click(within(bank).getByRole('button', { name: 'Fail' }))
    expect(
      await screen.findByText(
        'Tu banco no pudo confirmar esta tarjeta, así que no se ha guardado. Inténtalo de nuevo o usa otra tarjeta.',
      ),
    ).toBeTruthy()

    await save()
    const again = await screen.findByRole('dialog', { name: '3D Secure 2 Test Page' })
    await user.click(within(again).getByRole('button', { name: 'Complete' }))
    await waitFor(() => expect(title().textContent).toBe('Mi cuenta'))
    expect(within(await screen.findByTestId('saved-cards')).getByText(/3155/)).toBeTruthy()
  })
})

describe('Pay now in Stripe mode', () => {
  it('pays ONE PAYMENT with the card typed into Stripe’s field, in Spanish', async () => {
    await signedInMember(server, { language: 'es' })
    await renderApp('/my-account/single-payment', { language: 'es' })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('radio'))
    await typeIntoStripe('4242424242424242')
    await user.click(screen.getByRole('button', { name: 'Pagar ahora' }))
    expect(await screen.findByTestId('payment-paid', {}, { timeout: 15_000 })).toBeTruthy()
  })
})

describe('Pay now in Stripe mode with a card whose bank checks each payment (3-D Secure)', () => {
  it('runs the bank’s check of the payment in Stripe’s page: failed, nothing is charged; completed, it is paid', async () => {
    await signedInMember(server, { language: 'es' })
    await renderApp('/my-account/single-payment', { language: 'es' })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('radio'))
    await typeIntoStripe('4000002500003155')
    /** Stripe's test page for the bank's check, answered as the member chooses. */
    const answerBank = async (button: 'Complete' | 'Fail') => {
      const bank = await screen.findByRole('dialog', { name: '3D Secure 2 Test Page' })
      await user.click(within(bank).getByRole('button', { name: button }))
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    }
    const payNow = async () => {
      const button = screen.getByRole('button', { name: 'Pagar ahora' }) as HTMLButtonElement
      await waitFor(() => expect(button.disabled).toBe(false))
      await user.click(button)
    }

    // The card is checked when it is saved, then the payment is checked on its own.
    await payNow()
    await answerBank('Complete')
    await answerBank('Fail')
    expect(
      await screen.findByText(
        /Tu banco no pudo confirmar este pago, así que no se ha cobrado nada\./,
      ),
    ).toBeTruthy()
    expect(screen.queryByTestId('payment-paid')).toBeNull()

    await payNow()
    await answerBank('Complete')
    await answerBank('Complete')
    expect(await screen.findByTestId('payment-paid', {}, { timeout: 15_000 })).toBeTruthy()
  })
})

describe('Start Now in Stripe mode with a card whose bank checks each payment (3-D Secure)', () => {
  it('runs the bank’s check of the first month in Stripe’s page, then the plan is active', async () => {
    await signedInMember(server)
    await renderApp('/my-account/add-credit-card')
    const user = userEvent.setup()
    await typeIntoStripe('4000002500003155')
    const save = screen.getByRole('button', { name: 'Save card' }) as HTMLButtonElement
    await waitFor(() => expect(save.disabled).toBe(false))
    await user.click(save)
    const cardCheck = await screen.findByRole('dialog', { name: '3D Secure 2 Test Page' })
    await user.click(within(cardCheck).getByRole('button', { name: 'Complete' }))
    await waitFor(() => expect(title().textContent).toBe('My Account'))

    const section = await screen.findByRole('region', { name: 'My Subscription' })
    await user.click(await within(section).findByRole('radio', { name: /^SUBSCRIPTION/ }))
    await user.click(within(section).getByRole('button', { name: 'Start Now' }))
    const paymentCheck = await screen.findByRole('dialog', { name: '3D Secure 2 Test Page' })
    await user.click(within(paymentCheck).getByRole('button', { name: 'Complete' }))
    await waitFor(
      async () =>
        expect((await apiRequest('/api/billing/plan', planStateSchema)).subscription?.status).toBe(
          'active',
        ),
      { timeout: 30_000, interval: 250 },
    )
  }, 60_000)
})
