import { randomBytes } from 'node:crypto'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import qs from 'qs'
import { STRIPE_API_VERSION } from '../events'
import { GatewayError } from '../gateway'
import { digestOf } from '../idempotency'
import type { SandboxGateway } from './gateway'
import { catalogRoutes } from './http/catalog'
import { customerRoutes } from './http/customers'
import { invoiceRoutes } from './http/invoices'
import { paymentIntentRoutes } from './http/payment-intents'
import { paymentMethodRoutes } from './http/payment-methods'
import {
  fromGatewayError,
  invalidRequest,
  type Params,
  paramsOf,
  StripeHttpError,
} from './http/protocol'
import { refundRoutes } from './http/refunds'
import { setupIntentRoutes } from './http/setup-intents'
import { subscriptionRoutes } from './http/subscriptions'
import { testClockRoutes } from './http/test-clocks'

// The sandbox as Stripe's HTTP API on loopback, so the app reaches it through the official SDK
// (pointed here with its host, port and protocol options) and sandbox mode runs the same code
// that takes real money. It speaks Stripe's protocol strictly where a difference would hide a
// bug that real Stripe would show: test keys in a Bearer header, the pinned API version, form
// bodies in Stripe's bracket encoding, unknown parameters refused, errors in Stripe's shape and
// statuses, and idempotency keys (required here on every POST, which Stripe only recommends, so
// a POST the app sends without one fails in tests rather than in production).

/** A request as the server received it, for tests to check what the app sent. */
export interface RecordedRequest {
  method: string
  /** Without the query string. */
  path: string
  query: Params
  headers: { 'stripe-version': string | null; 'idempotency-key': string | null }
  /** Which kind of key the request carried, if any. */
  key: 'secret' | 'publishable' | null
  /** The parsed form body; a card's number and security code are never kept. */
  body: Params
}

export interface SandboxServer {
  /** `http://127.0.0.1:<port>`, for the SDK's host, port and protocol. */
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

/** Stripe's form bodies nest objects and lists in brackets, a few levels deep. */
const FORM = { depth: 5, arrayLimit: 1_000, parameterLimit: 10_000 } as const

/** The routes a publishable key may call, as Stripe.js does from the browser. */
const PUBLISHABLE_ROUTES = [
  /^POST \/v1\/payment_methods$/,
  /^GET \/v1\/setup_intents\/seti_[A-Za-z0-9]+$/,
  /^POST \/v1\/setup_intents\/seti_[A-Za-z0-9]+\/(confirm|authenticate)$/,
  /^GET \/v1\/payment_intents\/pi_[A-Za-z0-9]+$/,
  /^POST \/v1\/payment_intents\/pi_[A-Za-z0-9]+\/authenticate$/,
]

const isPublishableRoute = (route: string) =>
  PUBLISHABLE_ROUTES.some((pattern) => pattern.test(route))

/** How long an idempotency key's answer is kept: Stripe keeps them for 24 hours. */
const KEY_LIFETIME_MS = 24 * 3600 * 1000

interface Answer {
  statusCode: number
  payload: string
}

interface RememberedKey {
  /** The endpoint and parameters of the first request: another use of the key is refused. */
  fingerprint: string
  at: number
  answer: Promise<Answer>
}

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? request.url

/** The endpoint and the exact parameters: a key used again must come with the same. */
const fingerprintOf = (request: FastifyRequest) =>
  digestOf({ method: request.method, path: pathOf(request), params: paramsOf(request) })

const headerOf = (request: FastifyRequest, name: string) => {
  const value = request.headers[name]
  return typeof value === 'string' ? value : null
}

/** A card as recorded: its number cut to the last four digits, its code dropped. */
function maskedCard(card: unknown): unknown {
  if (!card || typeof card !== 'object' || Array.isArray(card)) return card
  const { number, cvc: _, ...rest } = card as Params
  return { ...rest, ...(typeof number === 'string' ? { number: `…${number.slice(-4)}` } : {}) }
}

/** The body as recorded, with no card number or security code in it (Stripe.js nests the card). */
function recordedBody(body: Params): Params {
  const data = body.payment_method_data
  return {
    ...body,
    ...(body.card ? { card: maskedCard(body.card) } : {}),
    ...(data && typeof data === 'object' && !Array.isArray(data)
      ? { payment_method_data: { ...data, card: maskedCard((data as Params).card) } }
      : {}),
  }
}

const masked = (key: string) => `${key.slice(0, 8)}${'*'.repeat(8)}${key.slice(-4)}`

export async function startSandboxServer(options: {
  gateway: SandboxGateway
  /** The one secret key accepted; any `sk_test_…` key when absent. */
  secretKey?: string
  /** The one publishable key accepted; any `pk_test_…` key when absent. */
  publishableKey?: string
  /** Keep every request for tests to read; the app's own server keeps none. */
  record?: boolean
  /**
   * Where invoices say their PDFs are, as Stripe's name theirs (tests standing in for Stripe).
   * Unset, as for the app's own sandbox, whose PDFs the app renders: invoices name none.
   */
  invoicePdfBase?: string
  /** A port of its own; a free one when absent (tests start Stripe again where it was). */
  port?: number
}): Promise<SandboxServer> {
  const { gateway, secretKey } = options
  const requests: RecordedRequest[] = []
  const keys = new Map<string, RememberedKey>()
  const pending = new WeakMap<FastifyRequest, (answer: Answer) => void>()
  const kinds = new WeakMap<FastifyRequest, 'secret' | 'publishable'>()

  const app = Fastify({
    logger: false,
    routerOptions: { querystringParser: (text) => qs.parse(text, FORM) },
  })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, qs.parse(String(body), FORM)),
  )

  /** Which key the request carries; Stripe.js sends its publishable key in the body. */
  function authenticate(request: FastifyRequest): 'secret' | 'publishable' {
    const header = headerOf(request, 'authorization')
    const bearer = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : ''
    const publishableRoute = isPublishableRoute(`${request.method} ${pathOf(request)}`)
    const inBody = publishableRoute ? paramsOf(request).key : undefined
    const key = bearer || (typeof inBody === 'string' ? inBody : '')
    if (!key) {
      throw invalidRequest(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        { status: 401 },
      )
    }
    if (key.startsWith('pk_test_')) {
      if (options.publishableKey !== undefined && key !== options.publishableKey) {
        throw invalidRequest(`Invalid API Key provided: ${masked(key)}`, { status: 401 })
      }
      if (publishableRoute) return 'publishable'
      throw invalidRequest(
        'This API call cannot be made with a publishable API key. Please use a secret API key.',
        { status: 401 },
      )
    }
    // Live keys are refused too: nothing in the sandbox may look like it takes real money.
    if (!key.startsWith('sk_test_') || (secretKey !== undefined && key !== secretKey)) {
      throw invalidRequest(`Invalid API Key provided: ${masked(key)}`, { status: 401 })
    }
    return 'secret'
  }

  /**
   * The first answer again for a key already used (waiting for it while the first request
   * runs), or null for a new key, whose answer is kept once sent.
   */
  async function replay(request: FastifyRequest, key: string): Promise<Answer | null> {
    const fingerprint = fingerprintOf(request)
    const known = keys.get(key)
    if (known && Date.now() - known.at < KEY_LIFETIME_MS) {
      if (known.fingerprint !== fingerprint) {
        throw new StripeHttpError(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        })
      }
      return known.answer
    }
    // Insertion order is age order: the expired keys are at the front.
    for (const [old, remembered] of keys) {
      if (Date.now() - remembered.at < KEY_LIFETIME_MS) break
      keys.delete(old)
    }
    keys.delete(key)
    let settle: (answer: Answer) => void = () => {}
    const answer = new Promise<Answer>((resolve) => {
      settle = resolve
    })
    keys.set(key, { fingerprint, at: Date.now(), answer })
    pending.set(request, settle)
    return null
  }

  app.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', `req_${randomBytes(12).toString('base64url')}`)
    reply.header('stripe-version', STRIPE_API_VERSION)
    // Pages call the routes Stripe.js calls from any origin, as they call Stripe's API; the
    // secret key's routes are for servers, and no page is told it may read them.
    const asked = headerOf(request, 'access-control-request-method')
    const path = pathOf(request)
    const forPages = (method: string) => isPublishableRoute(`${method} ${path}`)
    if (request.method === 'OPTIONS') {
      if (!asked || !forPages(asked)) return reply.code(404).send()
      reply.header('access-control-allow-origin', '*')
      reply.header('access-control-allow-methods', 'GET, POST')
      const headers = headerOf(request, 'access-control-request-headers')
      if (headers) reply.header('access-control-allow-headers', headers)
      return reply.code(204).send()
    }
    if (forPages(request.method)) reply.header('access-control-allow-origin', '*')
  })

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const recorded: RecordedRequest = {
      method: request.method,
      path: pathOf(request),
      query: request.query && typeof request.query === 'object' ? (request.query as Params) : {},
      headers: {
        'stripe-version': headerOf(request, 'stripe-version'),
        'idempotency-key': headerOf(request, 'idempotency-key'),
      },
      key: null,
      body: request.method === 'GET' ? {} : recordedBody(paramsOf(request)),
    }
    if (options.record) requests.push(recorded)
    recorded.key = authenticate(request)
    kinds.set(request, recorded.key)
    // Stripe.js sends neither header: the page's calls are answered in the account's version,
    // and a confirmation is made once by its client secret. The app's own calls must send both.
    if (recorded.key === 'publishable') return
    const version = headerOf(request, 'stripe-version')
    if (version !== STRIPE_API_VERSION) {
      throw invalidRequest(
        version
          ? `Invalid Stripe API version: ${version}. This sandbox answers ${STRIPE_API_VERSION} only.`
          : `No Stripe-Version header: this sandbox answers ${STRIPE_API_VERSION} only, and the app pins it.`,
      )
    }
    if (request.method !== 'POST') return
    const key = headerOf(request, 'idempotency-key')
    if (!key) {
      throw invalidRequest(
        'No Idempotency-Key header: the sandbox refuses a POST without one, since the app must send one, made from its own record of the attempt, with every POST to Stripe.',
      )
    }
    if (key.length > 255) {
      throw invalidRequest('Idempotency keys are up to 255 characters long.')
    }
    const first = await replay(request, key)
    if (first) {
      reply.header('idempotent-replayed', 'true')
      reply.code(first.statusCode).type('application/json; charset=utf-8')
      return reply.send(first.payload)
    }
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const settle = pending.get(request)
    if (!settle) return payload
    pending.delete(request)
    settle({ statusCode: reply.statusCode, payload: String(payload) })
    // Stripe keeps even its 500s, but a failure of the sandbox itself (its database gone for a
    // moment) says nothing about the request: the key is forgotten so a retry runs again. The
    // in-process sandbox's own record of creation keys still makes a creation happen once.
    const key = headerOf(request, 'idempotency-key')
    if (key && reply.statusCode >= 500) keys.delete(key)
    return payload
  })

  app.setErrorHandler((error, request, reply) => {
    let answer: StripeHttpError
    if (error instanceof StripeHttpError) answer = error
    else if (error instanceof GatewayError) answer = fromGatewayError(error)
    else if (
      error instanceof Error &&
      'statusCode' in error &&
      typeof error.statusCode === 'number' &&
      error.statusCode < 500
    ) {
      // Fastify's own refusals: a body that is not a form, one too large, a malformed URL.
      answer = invalidRequest(error.message, { status: error.statusCode })
    } else {
      const message = error instanceof Error ? error.message : String(error)
      answer = new StripeHttpError(500, {
        type: 'api_error',
        message: `The sandbox failed on ${request.method} ${pathOf(request)}: ${message}`,
      })
    }
    return reply.code(answer.statusCode).send({ error: answer.body })
  })

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${request.method}: ${pathOf(request)}).`,
      },
    }),
  )

  catalogRoutes(app, gateway)
  customerRoutes(app, gateway)
  paymentMethodRoutes(app, gateway, (request) => kinds.get(request) ?? null)
  paymentIntentRoutes(app, gateway, (request) => kinds.get(request) ?? null)
  setupIntentRoutes(app, gateway, (request) => kinds.get(request) ?? null)
  subscriptionRoutes(app, gateway)
  invoiceRoutes(app, gateway, { pdfBase: options.invoicePdfBase })
  testClockRoutes(app, gateway)
  refundRoutes(app, gateway)

  const url = await app.listen({ host: '127.0.0.1', port: options.port ?? 0 })
  return {
    url,
    requests,
    close: () => app.close(),
  }
}
