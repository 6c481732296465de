import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { accessResponseSchema } from '../../../domain/access-codes'
import { cardConfirmResponseSchema, payOnceResponseSchema } from '../../../domain/billing'
import { planStateSchema } from '../../../domain/billing-plans'
import { formatDay, formatMoney } from '../../../domain/format'
import { apiRequest } from '../../lib/api-client'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import { activeSubscription, post, priceOf, sandboxCard, saveCard } from '../../lib/testing/billing'
import { renderApp } from '../../lib/testing/render-app'

// The monthly plans: My Account's 'My Subscription' section, the subscribe page and the upgrade
// page (spec core §2), against the real server and its sandbox.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())

const title = () => screen.getByTestId('header-title')
const utcToday = () => new Date().toISOString().slice(0, 10)
const planState = () => apiRequest('/api/billing/plan', planStateSchema)

/** My Account's plan section, once it has said what the plan is. */
async function planSection(name = 'My Subscription') {
  const section = await screen.findByRole('region', { name })
  await waitFor(() => expect(within(section).queryByText(/Loading|Cargando/)).toBeNull())
  return section
}

const detail = (section: HTMLElement) => within(section).getByTestId('plan-summary').textContent

/**
 * Start Now was pressed: 'in progress' while the bank answers (unless it answered first), then
 * on to the panels once the plan is active.
 */
async function inProgressThenPanels(inProgress = 'Payment Status: in progress...', home = 'Home') {
  const seen = await waitFor(() => {
    const progress = screen.queryByTestId('plan-payment-status')
    if (progress) return progress.textContent
    if (title().textContent === home) return home
    throw new Error('neither in progress nor on the panels')
  })
  expect([inProgress, home]).toContain(seen)
  await waitFor(() => expect(title().textContent).toBe(home), { timeout: 30_000 })
}

/** From the panels back to My Account, through the side menu. */
async function backToMyAccount(openMenu = 'Open menu', myAccount = 'My Account') {
  const user = userEvent.setup()
  await user.click(screen.getByRole('button', { name: openMenu }))
  const menu = await screen.findByTestId('side-menu')
  // The modal menu turns the page's pointer events off and its own back on a render later;
  // a click in between would land on nothing (CI caught one).
  await waitFor(() => expect(menu.style.pointerEvents).toBe('auto'))
  await user.click(within(menu).getByRole('link', { name: myAccount }))
  await waitFor(() => expect(title().textContent).toBe(myAccount))
}

describe('My Subscription on My Account', () => {
  it('without a card says there is no plan yet and sends to Add a card, with no Start Now', async () => {
    await signedInMember(server)
    await renderApp('/my-account')
    const section = await planSection()
    await within(section).findByText('No plan yet. Choose one of the price plans below.')
    expect(detail(section)).toContain('Add a card first: plans are charged to your default card.')
    expect(within(section).queryByRole('button', { name: 'Start Now' })).toBeNull()
    expect(within(section).queryByRole('radio')).toBeNull()
    expect(within(section).queryByTestId('plan-status')).toBeNull()

    const addCard = within(section).getByRole('link', { name: 'Add a card' })
    expect(addCard.getAttribute('href')).toBe('/my-account/add-credit-card')
    await userEvent.setup().click(addCard)
    await screen.findByRole('heading', { name: 'Add Credit Card' })
  })

  it('asks for a price first, then starts the SUBSCRIPTION: in progress, the panels, then Active until it renews', async () => {
    await signedInMember(server)
    await saveCard()
    await renderApp('/my-account')
    const section = await planSection()
    const user = userEvent.setup()
    const startNow = await within(section).findByRole('button', { name: 'Start Now' })
    expect(detail(section)).toContain('No plan yet.')
    expect(detail(section)).not.toContain('Add a card first')

    await user.click(startNow)
    expect(await within(section).findByText('*Select a Price Plan first')).toBeTruthy()
    expect((await planState()).subscription).toBeNull()

    await user.click(within(section).getByRole('radio', { name: /^SUBSCRIPTION/ }))
    expect(within(section).queryByText('*Select a Price Plan first')).toBeNull()
    await user.click(startNow)
    await inProgressThenPanels()
    await backToMyAccount()

    const state = await planState()
    expect(state.subscription?.plan).toBe('subscription')
    const renews = formatDay(state.subscription?.currentPeriodEnd ?? '', 'en')
    expect(renews > utcToday()).toBe(true)
    const mine = await planSection()
    await waitFor(() => expect(within(mine).getByTestId('plan-status').textContent).toBe('Active'))
    expect(detail(mine)).toContain('SUBSCRIPTIONUS$15.00 a month')
    expect(within(mine).getByText(`Renews on ${renews}.`)).toBeTruthy()
    expect(renews).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/)
    expect(within(mine).queryByTestId('plan-payment-status')).toBeNull()
    expect(within(mine).getByRole('button', { name: 'Cancel Renewal' })).toBeTruthy()
    expect(
      within(mine).getByRole('button', { name: 'Pause (no charges, no sessions)' }),
    ).toBeTruthy()
    expect(within(mine).getByRole('link', { name: 'Upgrade plan' }).getAttribute('href')).toBe(
      '/upgrade-plan',
    )
    expect(within(mine).queryByRole('button', { name: 'Start Now' })).toBeNull()
    expect(within(mine).queryByRole('button', { name: 'Resume' })).toBeNull()
    expect(within(mine).queryByRole('radio')).toBeNull()
  }, 60_000)

  it('asks before Cancel Renewal; NO changes nothing, YES keeps access to the end, and Reactivate takes it back', async () => {
    await signedInMember(server)
    const started = await activeSubscription()
    const periodEnd = formatDay(started.subscription?.currentPeriodEnd ?? '', 'en')
    await renderApp('/my-account')
    const section = await planSection()
    const user = userEvent.setup()
    await within(section).findByText(`Renews on ${periodEnd}.`)

    await user.click(within(section).getByRole('button', { name: 'Cancel Renewal' }))
    let dialog = await screen.findByRole('dialog', { name: 'Cancel the renewal?' })
    expect(dialog.textContent).toContain(
      `Your plan will not renew. You keep access until ${periodEnd}.`,
    )
    expect(within(dialog).getByRole('button', { name: 'YES' })).toBeTruthy()
    await user.click(within(dialog).getByRole('button', { name: 'NO' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(within(section).getByText(`Renews on ${periodEnd}.`)).toBeTruthy()
    expect(within(section).getByRole('button', { name: 'Cancel Renewal' })).toBeTruthy()
    expect(within(section).queryByRole('button', { name: 'Reactivate Subscription' })).toBeNull()
    expect((await planState()).subscription?.cancelAtPeriodEnd).toBe(false)

    await user.click(within(section).getByRole('button', { name: 'Cancel Renewal' }))
    dialog = await screen.findByRole('dialog', { name: 'Cancel the renewal?' })
    await user.click(within(dialog).getByRole('button', { name: 'YES' }))
    expect(
      await within(section).findByText(`Renewal cancelled: your access lasts until ${periodEnd}.`),
    ).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(within(section).getByTestId('plan-status').textContent).toBe('Active')
    expect(within(section).queryByText(`Renews on ${periodEnd}.`)).toBeNull()
    expect(within(section).queryByRole('button', { name: 'Cancel Renewal' })).toBeNull()
    expect(within(section).queryByRole('button', { name: /^Pause/ })).toBeNull()
    // Taking the cancellation back needs no price.
    expect(within(section).queryByRole('radio')).toBeNull()
    await waitFor(() =>
      expect(screen.getByTestId('snackbar').textContent).toBe('Your plan will not renew.'),
    )
    expect((await planState()).subscription?.cancelAtPeriodEnd).toBe(true)

    await user.click(within(section).getByRole('button', { name: 'Reactivate Subscription' }))
    expect(await within(section).findByText(`Renews on ${periodEnd}.`)).toBeTruthy()
    expect(within(section).queryByText('*Select a Price Plan first')).toBeNull()
    expect(within(section).queryByRole('button', { name: 'Reactivate Subscription' })).toBeNull()
    expect(within(section).getByRole('button', { name: 'Cancel Renewal' })).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByTestId('snackbar').textContent).toBe('Your plan is going on.'),
    )
    const after = await planState()
    expect(after.subscription?.cancelAtPeriodEnd).toBe(false)
    expect(after.subscription?.id).toBe(started.subscription?.id)
  }, 60_000)

  it('asks before Pause, saying what becomes of the month paid for; NO changes nothing, YES pauses, offering Resume only while paused, and resumes', async () => {
    await signedInMember(server)
    const started = await activeSubscription()
    const periodEnd = formatDay(started.subscription?.currentPeriodEnd ?? '', 'en')
    await renderApp('/my-account')
    const section = await planSection()
    const user = userEvent.setup()
    await within(section).findByText(`Renews on ${periodEnd}.`)
    expect(within(section).queryByRole('button', { name: 'Resume' })).toBeNull()

    const pauseButton = within(section).getByRole('button', {
      name: 'Pause (no charges, no sessions)',
    })
    await user.click(pauseButton)
    let dialog = await screen.findByRole('dialog', { name: 'Pause your subscription?' })
    expect(dialog.textContent).toContain(
      `The panels close now, and nothing is charged while it is paused. The days already paid for, up to ${periodEnd}, are not refunded: resume before then and you use the rest of them, with the next payment on ${periodEnd} as usual; resume later and a new month starts that day and is charged then.`,
    )
    // Focus is in the dialog, and back on Pause once NO closed it.
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
    await user.click(within(dialog).getByRole('button', { name: 'NO' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(pauseButton))
    expect(within(section).getByText(`Renews on ${periodEnd}.`)).toBeTruthy()
    expect(within(section).getByTestId('plan-status').textContent).toBe('Active')
    expect(within(section).queryByRole('button', { name: 'Resume' })).toBeNull()
    expect((await planState()).subscription?.status).toBe('active')

    await user.click(pauseButton)
    dialog = await screen.findByRole('dialog', { name: 'Pause your subscription?' })
    await user.click(within(dialog).getByRole('button', { name: 'YES' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(
      await within(section).findByText('Paused: no charges and no sessions until you resume.'),
    ).toBeTruthy()
    expect(within(section).getByTestId('plan-status').textContent).toBe('Paused')
    expect(within(section).queryByText(`Renews on ${periodEnd}.`)).toBeNull()
    expect(within(section).getByRole('button', { name: 'Resume' })).toBeTruthy()
    expect(within(section).queryByRole('button', { name: /^Pause/ })).toBeNull()
    expect(within(section).queryByRole('button', { name: 'Cancel Renewal' })).toBeNull()
    expect(within(section).queryByRole('link', { name: 'Upgrade plan' })).toBeNull()
    await waitFor(() =>
      expect(screen.getByTestId('snackbar').textContent).toBe('Your subscription is paused.'),
    )
    const paused = await planState()
    expect(paused.subscription?.status).toBe('paused')

    await user.click(within(section).getByRole('button', { name: 'Resume' }))
    expect(await within(section).findByText(`Renews on ${periodEnd}.`)).toBeTruthy()
    expect(within(section).getByTestId('plan-status').textContent).toBe('Active')
    expect(
      within(section).queryByText('Paused: no charges and no sessions until you resume.'),
    ).toBeNull()
    expect(within(section).queryByRole('button', { name: 'Resume' })).toBeNull()
    expect(
      within(section).getByRole('button', { name: 'Pause (no charges, no sessions)' }),
    ).toBeTruthy()
    expect(within(section).getByRole('button', { name: 'Cancel Renewal' })).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByTestId('snackbar').textContent).toBe(
        'Your subscription is running again.',
      ),
    )
    expect((await planState()).subscription?.status).toBe('active')
  }, 60_000)

  it('speaks Spanish, from Empezar ahora to Activa, and Pausar asks first', async () => {
    await signedInMember(server, { language: 'es' })
    await saveCard()
    await renderApp('/my-account', { language: 'es' })
    const section = await planSection('Mi suscripción')
    const user = userEvent.setup()
    await within(section).findByText(
      'Todavía no tienes un plan. Elige uno de los planes de precios de abajo.',
    )
    const startNow = within(section).getByRole('button', { name: 'Empezar ahora' })
    await user.click(startNow)
    expect(await within(section).findByText('*Selecciona primero un plan de precios')).toBeTruthy()

    // The catalog's plan names are translated like any other text.
    const subscription = within(section).getByRole('radio', { name: /^SUSCRIPCIÓN/ })
    expect(subscription.closest('label')?.textContent?.replace(/\s/g, ' ')).toBe(
      'SUSCRIPCIÓN15,00 US$ al mes',
    )
    await user.click(subscription)
    await user.click(startNow)
    await inProgressThenPanels('Estado del pago: en curso...', 'Inicio')
    await backToMyAccount('Abrir menú', 'Mi cuenta')

    const renews = formatDay((await planState()).subscription?.currentPeriodEnd ?? '', 'es')
    const mine = await planSection('Mi suscripción')
    await waitFor(() => expect(within(mine).getByTestId('plan-status').textContent).toBe('Activa'))
    expect(within(mine).getByText(`Se renueva el ${renews}.`)).toBeTruthy()
    expect(within(mine).getByText('SUSCRIPCIÓN')).toBeTruthy()
    expect(within(mine).getByRole('button', { name: 'Cancelar renovación' })).toBeTruthy()
    expect(
      within(mine).getByRole('button', { name: 'Pausar (sin cobros ni sesiones)' }),
    ).toBeTruthy()
    expect(within(mine).getByRole('link', { name: 'Mejorar el plan' })).toBeTruthy()
    expect(within(mine).queryByRole('button', { name: 'Empezar ahora' })).toBeNull()

    await user.click(within(mine).getByRole('button', { name: 'Pausar (sin cobros ni sesiones)' }))
    const dialog = await screen.findByRole('dialog', { name: '¿Pausar tu suscripción?' })
    expect(dialog.textContent).toContain(
      `Los paneles se cierran ahora y no se cobra nada mientras esté en pausa. Los días ya pagados, hasta el ${renews}, no se devuelven: si la reanudas antes, usas los que quedan y el siguiente pago es el ${renews}, como siempre; si la reanudas después, ese día empieza un mes nuevo y se cobra entonces.`,
    )
    await user.click(within(dialog).getByRole('button', { name: 'SÍ' }))
    await waitFor(() =>
      expect(within(mine).getByTestId('plan-status').textContent).toBe('En pausa'),
    )
    expect((await planState()).subscription?.status).toBe('paused')
  }, 60_000)
})

describe('after ONE PAYMENT', () => {
  it('offers nothing more to buy or start, and asks for no card', async () => {
    await signedInMember(server)
    const price = await priceOf('one_payment')
    await apiRequest(
      '/api/billing/one-payment',
      payOnceResponseSchema,
      post({
        priceId: price.id,
        paymentMethodId: await sandboxCard(),
        attemptId: crypto.randomUUID(),
      }),
    )
    await waitFor(
      async () => {
        const { hasAccess } = await apiRequest('/api/access', accessResponseSchema)
        if (!hasAccess) throw new Error('the bank has not answered')
      },
      { timeout: 30_000, interval: 250 },
    )
    await renderApp('/my-account')
    const section = await planSection()
    await within(section).findByText('Paid — access for good')
    expect(within(section).queryByText(/Canceled|Renews|next one/)).toBeNull()
    expect(within(section).queryByText(/Add a card first/)).toBeNull()
    const plans = await screen.findByTestId('price-plans')
    await waitFor(() => expect(within(plans).getAllByRole('listitem')).toHaveLength(3))
    expect(within(plans).queryAllByRole('link')).toEqual([])
  })
})

describe('Start a plan (/my-account/subscribe-payment)', () => {
  it('says what FOUR PAYMENTS is and which card pays, then Start Now leads to the panels', async () => {
    await signedInMember(server)
    await saveCard()
    await renderApp('/my-account/subscribe-payment')
    await screen.findByRole('heading', { level: 1, name: 'Start a plan' })
    expect(title().textContent).toBe('My Subscription')
    expect((await screen.findByTestId('plan-card')).textContent).toBe(
      'Charged to Visa ending in 4242',
    )
    const user = userEvent.setup()
    const four = await screen.findByRole('radio', { name: /^FOUR PAYMENTS/ })
    expect(four.closest('label')?.textContent).toBe('FOUR PAYMENTSUS$39.00 × 4 months')
    // ONE PAYMENT is bought on its own page.
    expect(screen.getAllByRole('radio')).toHaveLength(2)
    const note = 'Four monthly payments, then it ends by itself and your access stays.'
    expect(screen.queryByText(note)).toBeNull()

    await user.click(screen.getByRole('button', { name: 'Start Now' }))
    expect(await screen.findByText('*Select a Price Plan first')).toBeTruthy()
    expect((await planState()).subscription).toBeNull()

    await user.click(four)
    expect(await screen.findByText(note)).toBeTruthy()
    expect(screen.queryByText('*Select a Price Plan first')).toBeNull()
    await user.click(screen.getByRole('radio', { name: /^SUBSCRIPTION/ }))
    expect(
      await screen.findByText(
        'Every month until you cancel the renewal. Pause it whenever you like.',
      ),
    ).toBeTruthy()
    expect(screen.queryByText(note)).toBeNull()
    await user.click(four)
    await screen.findByText(note)

    await user.click(screen.getByRole('button', { name: 'Start Now' }))
    await inProgressThenPanels()
    const { subscription } = await planState()
    expect(subscription?.plan).toBe('four_payments')
    expect(subscription?.status).toBe('active')
    expect(subscription?.installments).toEqual({ paid: 1, total: 4 })
  }, 60_000)
})

describe('Upgrade plan', () => {
  it('shows the credit for the unused month and what is due now before upgrading to FOUR PAYMENTS', async () => {
    await signedInMember(server)
    await activeSubscription()
    await renderApp('/upgrade-plan')
    await screen.findByRole('heading', { level: 1, name: 'Upgrade plan' })
    expect(title().textContent).toBe('My Subscription')
    const user = userEvent.setup()
    const four = await screen.findByRole('radio', { name: /^FOUR PAYMENTS/ })
    expect(screen.queryByRole('radio', { name: /^SUBSCRIPTION/ })).toBeNull()
    expect(screen.queryByTestId('upgrade-preview')).toBeNull()

    await user.click(four)
    const preview = await screen.findByTestId('upgrade-preview')
    const amountAfter = (label: string) =>
      within(preview).getByText(label).nextElementSibling?.textContent ?? ''
    const credit = amountAfter('Credit for the unused part of this month')
    // Nearly the whole month of the $15.00 subscription is unused: it was started just now.
    expect(credit).toMatch(/^-US\$1[45]\.\d{2}$/)
    const creditCents = Math.round(Number(credit.replace(/[-US$]/g, '')) * 100)
    expect(creditCents).toBeGreaterThan(1_400)
    expect(creditCents).toBeLessThanOrEqual(1_500)
    expect(amountAfter('Due now')).toBe(formatMoney(3_900 - creditCents, 'en'))
    // Nothing changed yet.
    expect((await planState()).subscription?.plan).toBe('subscription')
  }, 60_000)

  it('says upgrades are for an active monthly subscription to a member without one', async () => {
    await signedInMember(server)
    await renderApp('/upgrade-plan')
    await screen.findByRole('heading', { level: 1, name: 'Upgrade plan' })
    expect(await screen.findByText('Upgrades are for an active monthly subscription.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'My Subscription' }).getAttribute('href')).toBe(
      '/my-account',
    )
    expect(screen.queryByRole('radio')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Upgrade' })).toBeNull()
  })
})

describe('a card whose bank checks each payment made with the member present (3-D Secure)', () => {
  /** The card saved through the bank's check of it, as Add Credit Card does. */
  async function checkedCard() {
    const paymentMethodId = await sandboxCard('4000002500003155')
    const confirmed = await apiRequest(
      '/api/billing/cards/confirm',
      cardConfirmResponseSchema,
      post({ paymentMethodId }),
    )
    await apiRequest(
      '/api/billing/sandbox/setups/check',
      cardConfirmResponseSchema,
      post({ clientSecret: confirmed.clientSecret, outcome: 'complete' }),
    )
  }

  it('Start Now shows the bank’s check of the payment: failed, it says so and the invoice stays to pay; paid again and confirmed, on to the panels', async () => {
    await signedInMember(server)
    await checkedCard()
    await renderApp('/my-account')
    const section = await planSection()
    const user = userEvent.setup()
    await user.click(await within(section).findByRole('radio', { name: /^SUBSCRIPTION/ }))
    await user.click(await within(section).findByRole('button', { name: 'Start Now' }))

    const check = await screen.findByRole('dialog', { name: 'Confirm this payment with your bank' })
    await user.click(within(check).getByRole('button', { name: 'Fail the check' }))
    expect(
      await within(section).findByText(
        'Your bank could not confirm this payment, so nothing was charged. Try again or use another card.',
      ),
    ).toBeTruthy()
    const banner = await screen.findByTestId('payment-failed-banner')
    expect((await planState()).subscription?.status).not.toBe('active')

    await user.click(within(banner).getByRole('button', { name: 'Pay US$15.00 now' }))
    const again = await screen.findByRole('dialog', { name: 'Confirm this payment with your bank' })
    await user.click(within(again).getByRole('button', { name: 'Confirm' }))
    await waitFor(async () => expect((await planState()).subscription?.status).toBe('active'), {
      timeout: 30_000,
      interval: 250,
    })
    // Said where the member clicked: paid, with the invoice's PDF.
    const paid = await within(banner).findByText(
      /^Paid: invoice .+ is settled\. Thank you!$/,
      {},
      {
        timeout: 15_000,
      },
    )
    expect(paid).toBeTruthy()
    expect(within(banner).getByRole('link', { name: /^PDF of invoice / })).toBeTruthy()
  }, 60_000)

  it('a check the page never ran waits on My Account, in Spanish, until the member confirms it with the bank', async () => {
    await signedInMember(server, { language: 'es' })
    await checkedCard()
    const price = await priceOf('subscription')
    const started = await apiRequest(
      '/api/billing/plan/start',
      planStateSchema,
      post({ priceId: price.id, attemptId: crypto.randomUUID() }),
    )
    expect(started.bankCheck).not.toBeNull()
    await renderApp('/my-account', { language: 'es' })
    const banner = await screen.findByTestId('bank-check-banner')
    expect(banner.textContent).toContain(
      'Tu banco te pide confirmar el pago de 15,00\u00a0US$ (3-D Secure). Hasta entonces no se cobra.',
    )
    const user = userEvent.setup()
    await user.click(within(banner).getByRole('button', { name: 'Confirmar con tu banco' }))
    const check = await screen.findByRole('dialog', { name: 'Confirma este pago con tu banco' })
    await user.click(within(check).getByRole('button', { name: 'Confirmar' }))
    await waitFor(async () => expect((await planState()).subscription?.status).toBe('active'), {
      timeout: 30_000,
      interval: 250,
    })
    await waitFor(() => expect(screen.queryByTestId('bank-check-banner')).toBeNull())
  }, 60_000)
})
