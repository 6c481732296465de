import { createHash, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { vi } from 'vitest'
import type { Invoice, PlanState } from '../../domain/billing-plans'
import { buildUser } from './factories'

/** A confirmed member of `app` with a session, and that session as a `cookie` header. */
export async function memberWithCookie(app: FastifyInstance) {
  const { user, session } = await buildUser(app)
  return { user, cookie: session?.header ?? '' }
}

/**
 * The address a member's calls come from: one of their own, derived from the session cookie, as
 * every e2e test is a visitor of its own (`ownClientAddress`). Limits counted per address (card
 * tries) would otherwise add up over all the members of a test file. A visitor with no cookie
 * calls from inject's 127.0.0.1.
 */
function addressOf(cookie: string): string {
  if (!cookie) return '127.0.0.1'
  const digest = createHash('sha256').update(cookie).digest()
  return `10.${digest[0]}.${digest[1]}.${((digest[2] ?? 0) % 254) + 1}`
}

/**
 * JSON calls through `inject`, as the browser makes them: with the member's cookie (empty for a
 * visitor) and the interface language, from the member's own address (`from` puts every call
 * at one address instead). `app` is read at each call, so a test file can make its caller
 * before its app is built: `const call = apiCallsTo(() => testApp.app)`.
 */
export function apiCallsTo(app: () => FastifyInstance, { from }: { from?: string } = {}) {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    cookie: string,
    body?: unknown,
    language = 'en',
  ) =>
    app().inject({
      method,
      url,
      headers: { cookie, 'accept-language': language },
      remoteAddress: from ?? addressOf(cookie),
      ...(body === undefined ? {} : { payload: body as object }),
    })
}

/**
 * Billing through the API as the screens use it: the price of a plan, the sandbox's card
 * field, and saving a card (the member's first becomes the default).
 */
export function billingCallsTo(call: ReturnType<typeof apiCallsTo>) {
  const nextYear = new Date().getUTCFullYear() + 1
  async function priceOf(cookie: string, plan: string): Promise<string> {
    const prices = (await call('GET', '/api/billing/prices', cookie)).json().prices as {
      id: string
      plan: string
    }[]
    const price = prices.find((candidate) => candidate.plan === plan)
    if (!price) throw new Error(`no ${plan} price`)
    return price.id
  }
  async function cardField(cookie: string, number: string): Promise<string> {
    const made = await call('POST', '/api/billing/sandbox/cards', cookie, {
      number,
      expMonth: 12,
      expYear: nextYear,
      cvc: '123',
    })
    if (made.statusCode !== 200) throw new Error(`the card field refused ${number}: ${made.body}`)
    return made.json().id
  }
  async function saveCard(cookie: string, number: string): Promise<string> {
    const id = await cardField(cookie, number)
    const saved = await call('POST', '/api/billing/cards', cookie, {
      paymentMethodId: id,
      cardType: 'credit',
    })
    if (saved.statusCode !== 200) throw new Error(`the card was not saved: ${saved.body}`)
    return id
  }
  return { priceOf, cardField, saveCard }
}

/** My Account's plan and invoices as the page reads them, and a wait for the plan's next state. */
export function planCallsTo(call: ReturnType<typeof apiCallsTo>) {
  const planOf = async (cookie: string) =>
    (await call('GET', '/api/billing/plan', cookie)).json() as PlanState
  const invoicesOf = async (cookie: string) =>
    (await call('GET', '/api/billing/invoices', cookie)).json().invoices as Invoice[]
  /** The plan once `ready` holds, as My Account's polling sees it. */
  const planWhen = (cookie: string, ready: (state: PlanState) => boolean): Promise<PlanState> =>
    vi.waitFor(
      async () => {
        const state = await planOf(cookie)
        if (!ready(state)) throw new Error(`plan not there yet: ${JSON.stringify(state)}`)
        return state
      },
      { timeout: 30_000, interval: 200 },
    )
  return { planOf, invoicesOf, planWhen }
}

/**
 * A member of `app` whose SUBSCRIPTION started with the test card that always pays, once its
 * first invoice is paid, as Start Now on My Account leaves them.
 */
export async function subscriberOf(app: FastifyInstance) {
  const call = apiCallsTo(() => app)
  const { priceOf, saveCard } = billingCallsTo(call)
  const { planWhen, invoicesOf } = planCallsTo(call)
  const { user, cookie } = await memberWithCookie(app)
  await saveCard(cookie, '4242424242424242')
  const started = await call('POST', '/api/billing/plan/start', cookie, {
    priceId: await priceOf(cookie, 'subscription'),
    attemptId: randomUUID(),
  })
  if (started.statusCode !== 200) throw new Error(`the plan did not start: ${started.body}`)
  await planWhen(cookie, (state) => state.subscription?.status === 'active')
  const [invoice] = await invoicesOf(cookie)
  if (invoice?.status !== 'paid') throw new Error('the first invoice is not paid')
  return { user, cookie, invoice }
}
