import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:net'
import type { FastifyInstance } from 'fastify'
import qs from 'qs'
import type { Database } from '../../db/client'
import { WEBHOOK_PATH } from '../../server/payments/plugin'
import { createSandboxGateway } from '../../server/payments/sandbox/gateway'
import { startSandboxServer } from '../../server/payments/sandbox/server'

// Stripe, as an app in Stripe mode meets it in tests: the sandbox's Stripe-compatible server on
// a database of its own, with an account's three keys, posting its events to the app's webhook
// as Stripe does. The app under test runs with PAYMENTS=stripe and STRIPE_API_URL pointed here,
// so it knows nothing of the sandbox: cards reach it only through setup intents confirmed from
// the page.

/** Where the stand-in says its invoices' PDFs are (never fetched: the app only links to them). */
export const STRIPE_PDFS = 'https://pay.stripe.com/invoice/acct_standin'

const key = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`

export async function startStripeStandIn(db: Database) {
  const secretKey = key('sk_test_')
  const publishableKey = key('pk_test_')
  const webhookSecret = key('whsec_')
  const sandbox = createSandboxGateway(db, { webhookSecret })
  const start = (port?: number) =>
    startSandboxServer({
      gateway: sandbox,
      secretKey,
      publishableKey,
      record: true,
      invoicePdfBase: STRIPE_PDFS,
      ...(port === undefined ? {} : { port }),
    })
  let server = await start()
  const outage: { attempts: number; server: Server | null } = { attempts: 0, server: null }
  const url = server.url
  return {
    url,
    publishableKey,
    webhookSecret,
    sandbox,
    get server() {
      return server
    },
    /**
     * Stripe out of reach until `comeBack`: every connection to its address is cut at once, and
     * counted (`attempts`), so a test sees the app try.
     */
    async goAway() {
      await server.close()
      const port = Number(new URL(url).port)
      await new Promise<void>((resolve, reject) => {
        const cut = createServer((socket) => {
          outage.attempts += 1
          socket.destroy()
        })
        cut.once('error', reject)
        cut.listen(port, '127.0.0.1', () => resolve())
        outage.server = cut
      })
    },
    outage,
    /** Stripe answering again, at the same address. */
    async comeBack() {
      const cut = outage.server
      if (cut) await new Promise<void>((resolve) => cut.close(() => resolve()))
      outage.server = null
      server = await start(Number(new URL(url).port))
    },
    /** The app's configuration for Stripe mode against this stand-in. */
    env: {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_PUBLISHABLE_KEY: publishableKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: url,
    },
    /** Events go to the app's webhook endpoint, signed; charges settle at once. */
    sendEventsTo(app: () => FastifyInstance) {
      sandbox.connectWebhooks(async ({ payload, signature }) => {
        const response = await app().inject({
          method: 'POST',
          url: WEBHOOK_PATH,
          payload,
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        })
        if (response.statusCode !== 200) {
          throw new Error(`the webhook endpoint answered ${response.statusCode}`)
        }
      })
    },
    /**
     * What Stripe.js does with the card typed into its field (createPaymentMethod): a card
     * made with the publishable key, its numbers never passing through the app. Answers
     * Stripe's JSON.
     */
    async makeCard(number: string) {
      const response = await fetch(`${url}/v1/payment_methods`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: qs.stringify({
          key: publishableKey,
          type: 'card',
          card: {
            number,
            exp_month: 12,
            exp_year: new Date().getUTCFullYear() + 1,
            cvc: '123',
          },
        }),
      })
      return (await response.json()) as {
        id?: string
        error?: { code: string; decline_code?: string; message: string }
      }
    },
    close: () => server.close(),
  }
}
