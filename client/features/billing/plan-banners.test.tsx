import { cleanup, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { billingAccountSchema } from '../../../domain/billing'
import { planStateSchema } from '../../../domain/billing-plans'
import { advanceBillingClock } from '../../../tests/support/billing-clock'
import { apiRequest } from '../../lib/api-client'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import { activeSubscription, post, sandboxCard } from '../../lib/testing/billing'
import { renderApp } from '../../lib/testing/render-app'

// /home's word on the plan when the plan closes the panels, My Subscription's reminder box
// (issue 29) and its status beside a refused renewal, against the real server and its sandbox. A server of its own: the plan tests in
// plans.test.tsx use up the card limits of the one client address they share.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

const planState = () => apiRequest('/api/billing/plan', planStateSchema)

describe('a paused plan on /home', () => {
  it('says the plan is paused instead of no payment found, and Resume opens the panels, in Spanish too', async () => {
    await signedInMember(server, { language: 'es' })
    await activeSubscription()
    await apiRequest('/api/billing/plan/pause', planStateSchema, { method: 'POST' })
    await renderApp('/home', { language: 'es' })
    const banner = await screen.findByTestId('paused-banner', {}, { timeout: 15_000 })
    expect(banner.textContent).toContain('Tu plan está en pausa')
    expect(screen.queryByTestId('no-payment')).toBeNull()
    await waitFor(() =>
      expect(screen.getAllByTestId('panel-card-locked').length).toBeGreaterThan(0),
    )

    await userEvent.setup().click(within(banner).getByRole('button', { name: 'Reanudar' }))
    await waitFor(() => expect(screen.queryByTestId('paused-banner')).toBeNull(), {
      timeout: 30_000,
    })
    await waitFor(() => expect(screen.queryAllByTestId('panel-card-locked')).toHaveLength(0), {
      timeout: 30_000,
    })
    expect((await planState()).subscription?.status).toBe('active')
  }, 90_000)
})

/** My Account's plan section, once it has said what the plan is. */
async function planSection(name: string) {
  const section = await screen.findByRole('region', { name })
  await waitFor(() => expect(within(section).queryByText(/Loading|Cargando/)).toBeNull())
  return section
}

describe('My Subscription', () => {
  it('offers the reminder before each monthly payment, off until ticked; ticked, it stays on after a reload, and it is gone once the renewal is cancelled', async () => {
    await signedInMember(server, { language: 'es' })
    await activeSubscription()
    await renderApp('/my-account', { language: 'es' })
    const section = await planSection('Mi suscripción')
    const user = userEvent.setup()
    const box = await within(section).findByRole('checkbox', {
      name: 'Avisarme por correo 3 días antes de cada pago mensual',
    })
    expect((box as HTMLInputElement).checked).toBe(false)
    expect(box.getAttribute('aria-describedby')).toBeTruthy()
    await user.click(box)
    await waitFor(async () => expect((await planState()).renewalReminders).toBe(true))
    expect((box as HTMLInputElement).checked).toBe(true)

    cleanup()
    await renderApp('/my-account', { language: 'es' })
    const again = await planSection('Mi suscripción')
    const kept = await within(again).findByRole('checkbox', { name: /^Avisarme por correo/ })
    expect((kept as HTMLInputElement).checked).toBe(true)

    await apiRequest('/api/billing/plan/cancel', planStateSchema, post())
    cleanup()
    await renderApp('/my-account', { language: 'es' })
    const cancelled = await planSection('Mi suscripción')
    await within(cancelled).findByRole('button', { name: 'Reactivar suscripción' })
    expect(within(cancelled).queryByRole('checkbox', { name: /^Avisarme por correo/ })).toBeNull()
  }, 60_000)

  it('does not offer the reminder while the plan is paused, as no payment is coming, and offers it again once resumed', async () => {
    await signedInMember(server)
    await activeSubscription()
    await apiRequest('/api/billing/plan/pause', planStateSchema, post())
    await renderApp('/my-account')
    const paused = await planSection('My Subscription')
    await within(paused).findByRole('button', { name: /^Resume/ })
    expect(within(paused).queryByRole('checkbox', { name: /^E-mail me/ })).toBeNull()

    await apiRequest('/api/billing/plan/resume', planStateSchema, post())
    cleanup()
    await renderApp('/my-account')
    const resumed = await planSection('My Subscription')
    await within(resumed).findByRole('checkbox', {
      name: 'E-mail me 3 days before each monthly payment',
    })
  }, 60_000)
})

describe('a renewal the bank refused, being tried again', () => {
  it('reads Unpaid beside the failed-payment banner, never a green Active, in Spanish too', async () => {
    const member = await signedInMember(server)
    await activeSubscription()
    // 9995 is saved without complaint; every charge to it is refused for insufficient funds.
    await apiRequest(
      '/api/billing/cards',
      billingAccountSchema,
      post({
        paymentMethodId: await sandboxCard('4000000000009995'),
        cardType: 'credit',
        makeDefault: true,
      }),
    )
    await advanceBillingClock(server.app, member.email, 31)
    // The bank answers the renewal's charge a moment later, as Stripe's webhook would.
    await waitFor(
      async () => {
        const state = await planState()
        expect(state.subscription?.status).toBe('past_due')
        expect(state.paymentFailed).toBe(true)
      },
      { timeout: 30_000, interval: 250 },
    )

    await renderApp('/my-account')
    const section = await planSection('My Subscription')
    await within(section).findByText(/^The last payment was refused\. We will try the card again/)
    expect(await screen.findByTestId('payment-failed-banner')).toBeTruthy()
    expect(within(section).getByTestId('plan-status').textContent).toBe('Unpaid')

    cleanup()
    await renderApp('/my-account', { language: 'es' })
    const spanish = await planSection('Mi suscripción')
    await within(spanish).findByText(/^El último pago fue rechazado\./)
    expect(within(spanish).getByTestId('plan-status').textContent).toBe('Sin pagar')
  }, 90_000)
})
