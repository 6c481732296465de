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

// Pay now tried again after a refusal, against the real server and its sandbox. A server of its
// own: every refusal counts against the one client address the tests share, and past the first
// three the bank's reason is no longer said (card-tries.ts); these tests read three reasons.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')

describe('Pay now again after a refusal', () => {
  it('never shows an earlier card’s refusal for a new try, and a failed bank check on a payment says nothing was charged', async () => {
    await signedInMember(server)
    await renderApp('/my-account/single-payment')
    const plan = (await screen.findByRole('radio')) as HTMLInputElement
    await waitFor(() => expect(plan.checked).toBe(true))
    const user = userEvent.setup()
    const payWith = async (number: string) => {
      for (const [label, value] of [
        ['Card number', number],
        ['Expiry date', `12/${nextYear}`],
        ['Security code', '123'],
      ] as const) {
        await user.clear(field(label))
        await user.type(field(label), value)
      }
      const payNow = screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement
      await waitFor(() => expect(payNow.disabled).toBe(false))
      await user.click(payNow)
    }

    // The bank refuses this card's payment a moment after Pay now.
    await payWith('4000000000009995')
    await waitFor(
      () =>
        expect(screen.getByRole('alert').textContent).toBe(
          'Payment failed. Your card has insufficient funds.',
        ),
      { timeout: 30_000 },
    )

    // Another card, whose bank checks it: failed, no payment was made.
    const failed =
      'Payment failed. Your bank could not confirm this payment, so nothing was charged. Try again or use another card.'
    await payWith('4000002500003155')
    let check = await screen.findByRole('dialog', { name: 'Confirm this card with your bank' })
    // The new try has no answer yet: the earlier card's refusal is gone.
    expect(screen.queryByText(/insufficient funds/)).toBeNull()
    await user.click(within(check).getByRole('button', { name: 'Fail the check' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(failed))
    expect(screen.queryByText(/it was not saved/)).toBeNull()

    // Pay now once more: while the bank's check is open, no earlier answer is shown; confirmed
    // (the card, then the payment), it is paid.
    await user.click(screen.getByRole('button', { name: 'Pay now' }))
    check = await screen.findByRole('dialog', { name: 'Confirm this card with your bank' })
    expect(screen.queryByRole('alert')).toBeNull()
    await user.click(within(check).getByRole('button', { name: 'Confirm' }))
    check = await screen.findByRole('dialog', { name: 'Confirm this payment with your bank' })
    expect(screen.queryByRole('alert')).toBeNull()
    await user.click(within(check).getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByTestId('payment-paid', {}, { timeout: 30_000 })).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
  }, 90_000)

  it('reads as two sentences in Spanish, the bank’s reason as it says it', async () => {
    await signedInMember(server, { language: 'es' })
    await renderApp('/my-account/single-payment', { language: 'es' })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('radio'))
    await user.type(field('Número de tarjeta'), '4000002500003155')
    await user.type(field('Fecha de caducidad'), `12/${nextYear}`)
    await user.type(field('Código de seguridad'), '123')
    await user.click(screen.getByRole('button', { name: 'Pagar ahora' }))
    const check = await screen.findByRole('dialog', {
      name: 'Confirma esta tarjeta con tu banco',
    })
    await user.click(within(check).getByRole('button', { name: 'No superar la comprobación' }))
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'El pago ha fallado. Tu banco no pudo confirmar este pago, así que no se ha cobrado nada. Inténtalo de nuevo o usa otra tarjeta.',
      ),
    )
  }, 60_000)
})
