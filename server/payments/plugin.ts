import { randomBytes } from 'node:crypto'
import fp from 'fastify-plugin'
import type { Database } from '../../db/client'
import { type Config, ConfigError } from '../config'
import type { PaymentGateway } from './gateway'
import { createSandboxGateway, type SandboxGateway } from './sandbox/gateway'
import { startSandboxServer } from './sandbox/server'
import { createStripeGateway } from './stripe'

// The payments plugin. The app talks to payments through one gateway, the Stripe SDK's: in
// sandbox mode it is pointed at the sandbox's Stripe-compatible server, started here on
// loopback, so sandbox mode runs the code that takes real money. The sandbox's bank and clock
// run in durable jobs, and its events reach the webhook endpoint as Stripe's do.

/** Where the provider's events are posted (the billing feature's route). */
export const WEBHOOK_PATH = '/api/billing/webhook'

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentGateway
    /** In sandbox mode, the sandbox behind its server (tests reach its bank and events). */
    paymentsSandbox: SandboxGateway | null
  }
}

export interface Payments {
  gateway: PaymentGateway
  sandbox: SandboxGateway | null
  close(): Promise<void>
}

const secret = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`

/** The gateway the configuration names (the server's and the operator command's). */
export async function openPayments(config: Config, db: Database): Promise<Payments> {
  if (config.PAYMENTS === 'stripe') {
    const { STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET } = config
    // The configuration refuses to load without them; this keeps the types honest.
    if (!STRIPE_SECRET_KEY || !STRIPE_PUBLISHABLE_KEY || !STRIPE_WEBHOOK_SECRET) {
      throw new ConfigError(['PAYMENTS=stripe needs the three Stripe keys'])
    }
    const gateway = createStripeGateway({
      secretKey: STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      publishableKey: STRIPE_PUBLISHABLE_KEY,
      ...(config.STRIPE_API_URL ? { apiUrl: config.STRIPE_API_URL } : {}),
      // Only when asked for: Stripe deletes a test clock, and its customers, after some days.
      testClocks: config.STRIPE_TEST_CLOCKS,
      kind: 'stripe',
    })
    return { gateway, sandbox: null, close: async () => {} }
  }
  // The sandbox signs its events as Stripe does. Each process makes a secret of its own (its
  // events go to its own endpoint) unless one is named: tests sign events of their own with it.
  const webhookSecret = config.STRIPE_WEBHOOK_SECRET ?? secret('whsec_')
  const sandbox = createSandboxGateway(db, { webhookSecret })
  // Keys of this process only: nothing outside it can call its sandbox's server.
  const secretKey = secret('sk_test_')
  const publishableKey = secret('pk_test_')
  const server = await startSandboxServer({ gateway: sandbox, secretKey, publishableKey })
  const gateway = createStripeGateway({
    secretKey,
    webhookSecret,
    apiUrl: server.url,
    publishableKey,
    testClocks: true,
    kind: 'sandbox',
  })
  return { gateway, sandbox, close: () => server.close() }
}

/** When the sandbox's bank answers a charge: a random moment in this window after it is made. */
export interface BankDelay {
  minSeconds: number
  maxSeconds: number
}

/**
 * The product's window. The answer to the request that made a charge never depends on the bank:
 * the bank's job starts after that request has answered.
 */
export const SANDBOX_BANK_DELAY: BankDelay = { minSeconds: 0.5, maxSeconds: 1.5 }

/** Settings for tests, which wait for the bank's answer to each charge they make. */
export interface PaymentsOptions {
  /**
   * Replaces the sandbox bank's window (default `SANDBOX_BANK_DELAY`). Tests that only wait
   * for the bank's answer narrow it (tests/support's QUICK_BANK keeps its earliest moment).
   */
  sandboxBankDelay?: BankDelay
}

export const paymentsPlugin = fp<{ config: Config; options?: PaymentsOptions }>(
  async (app, { config, options = {} }) => {
    const { gateway, sandbox, close } = await openPayments(config, app.db)
    app.addHook('onClose', close)
    if (sandbox) {
      // The sandbox's bank answers a moment later in a durable job, as a provider's webhook does.
      const bank = await app.jobs.define<{ paymentIntentId: string }>(
        'sandbox.bank',
        {
          retryLimit: 5,
          retryDelaySeconds: 5,
          expireInSeconds: 60,
          startWithin: options.sandboxBankDelay ?? SANDBOX_BANK_DELAY,
          describe: (job) => job.paymentIntentId,
        },
        ({ paymentIntentId }) => sandbox.settlePaymentIntent(paymentIntentId),
      )
      sandbox.connectBank((paymentIntentId) => bank.send({ paymentIntentId }))
      // Renewals, installments and retries run when a customer's clock reaches them.
      const clock = await app.jobs.define<{ customer: string }>(
        'sandbox.clock',
        {
          retryLimit: 5,
          retryDelaySeconds: 30,
          expireInSeconds: 300,
          describe: (job) => job.customer,
        },
        ({ customer }) => sandbox.runDue(customer),
      )
      sandbox.connectScheduler((customer, at) => clock.send({ customer }, { at }))
      // Its events reach the webhook endpoint as Stripe's do, signed, through the whole request
      // path (the signature check, the event record, the sync job). Not delivered is an error,
      // so the job that caused the event runs again.
      sandbox.connectWebhooks(async ({ payload, signature }) => {
        const response = await app.inject({
          method: 'POST',
          url: WEBHOOK_PATH,
          payload,
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        })
        if (response.statusCode !== 200) {
          throw new Error(`the webhook endpoint answered ${response.statusCode}: ${response.body}`)
        }
      })
      // What was scheduled by a process that is gone (or by the CLI, which has no jobs) is
      // looked at again once; each run schedules the next.
      for (const customer of await sandbox.customersWithLivePlans()) await clock.send({ customer })
    }
    app.decorate('payments', gateway)
    app.decorate('paymentsSandbox', sandbox)
  },
  { name: 'payments', dependencies: ['db', 'jobs'] },
)
