import { randomBytes, randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import { solveHumanCheck } from '../support/human-check'
import type { Cluster } from './cluster'

// A member as a browser is one, over real HTTP through the balancer: cookies kept between
// calls, and an address of their own (the balancer adds it as X-Forwarded-For), so limits
// counted per address are each member's.

export const PASSWORD = 'Water-Glass-432!'

export interface Answer {
  status: number
  body: string
  /** The server that answered, as the balancer says (the tests' nginx adds it). */
  upstream: string
  // What JSON.parse gives: the tests read the answers they expect.
  json(): ReturnType<typeof JSON.parse>
}

export class Visitor {
  readonly cookies = new Map<string, string>()
  /** Every server that answered this visitor through the balancer. */
  readonly servedBy = new Set<string>()
  readonly address =
    `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${((randomBytes(1)[0] ?? 0) % 250) + 1}`

  constructor(private readonly cluster: Cluster) {}

  /** A call through the balancer, or straight to one server (`via`). */
  async call(
    method: string,
    path: string,
    body?: unknown,
    via = this.cluster.url,
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      'accept-language': 'en',
      'x-forwarded-for': this.address,
      origin: this.cluster.url,
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const send = () =>
      fetch(`${via}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    // A kept-alive connection the balancer closed as this request went out (its workers
    // replaced on a reload) fails before any answer: a browser sends the request again on a new
    // connection, and so does this member.
    const response = await send().catch((error: Error & { cause?: { code?: string } }) => {
      if (error.cause?.code !== 'UND_ERR_SOCKET' && error.cause?.code !== 'ECONNRESET') throw error
      return send()
    })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))
      if (!value || expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await response.text()
    const upstream = response.headers.get('x-upstream') ?? ''
    if (upstream) this.servedBy.add(upstream)
    return { status: response.status, body: text, upstream, json: () => JSON.parse(text) }
  }

  /** A solved human check, its challenge fetched from `via`. */
  async humanCheck(via = this.cluster.url): Promise<string> {
    const challenge = await this.call('GET', '/api/captcha/challenge', undefined, via)
    if (challenge.status !== 200)
      throw new Error(`no challenge: ${challenge.status} ${challenge.body}`)
    return solveHumanCheck(challenge.json())
  }
}

const expectOk = (what: string, answer: Answer) => {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.body}`)
  return answer
}

/** Waits until `check` holds, asking every 100 ms, or throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`)
    await delay(100)
  }
}

/** Signs up, confirms with the code the mail brought, and signs in: a member with a session. */
export async function newMember(cluster: Cluster): Promise<{ member: Visitor; email: string }> {
  const member = new Visitor(cluster)
  const email = `scale-${randomUUID()}@example.com`
  expectOk(
    'sign-up',
    await member.call('POST', '/api/account/sign-up', {
      name: 'Scale Tester',
      email,
      password: PASSWORD,
      humanCheck: await member.humanCheck(),
    }),
  )
  const mail = await cluster.smtp.waitForMessage((message) => message.to.includes(email), 30_000)
  const code = mail.text.match(/\b(\d{6})\b/)?.[1]
  if (!code) throw new Error(`no code in the mail to ${email}`)
  expectOk('confirm', await member.call('POST', '/api/account/confirm', { email, code }))
  expectOk(
    'sign-in',
    await member.call('POST', '/api/account/sign-in', {
      email,
      password: PASSWORD,
      rememberMe: false,
      humanCheck: await member.humanCheck(),
    }),
  )
  return { member, email }
}

/** Saves the sandbox's card that always pays and starts the SUBSCRIPTION, until it is active. */
export async function pay(member: Visitor): Promise<void> {
  const card = expectOk(
    'card field',
    await member.call('POST', '/api/billing/sandbox/cards', {
      number: '4242424242424242',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 1,
      cvc: '123',
    }),
  ).json().id as string
  expectOk(
    'save card',
    await member.call('POST', '/api/billing/cards', { paymentMethodId: card, cardType: 'credit' }),
  )
  const prices = expectOk('prices', await member.call('GET', '/api/billing/prices')).json()
    .prices as { id: string; plan: string }[]
  const price = prices.find((each) => each.plan === 'subscription')
  if (!price) throw new Error('no subscription price')
  expectOk(
    'start plan',
    await member.call('POST', '/api/billing/plan/start', {
      priceId: price.id,
      attemptId: randomUUID(),
    }),
  )
  await until('the plan to be active', async () => {
    const plan = await member.call('GET', '/api/billing/plan')
    return plan.status === 200 && plan.json().subscription?.status === 'active'
  })
}

/** Starts a session on the first panel and finishes it: its id. */
export async function play(member: Visitor): Promise<string> {
  const panels = expectOk('panels', await member.call('GET', '/api/panels')).json()
  const panelId = (Array.isArray(panels) ? panels : panels.panels)[0]?.id as string
  const started = expectOk(
    'start session',
    await member.call('POST', '/api/harmonize/sessions', { panelId }),
  ).json()
  const id = String(started.id ?? started.sessionId)
  expectOk('complete', await member.call('POST', `/api/harmonize/sessions/${id}/complete`))
  return id
}
