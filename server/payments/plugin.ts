import { randomBytes } from 'node:crypto'
import fp from 'fastify-plugin'
import type { Database } from '../../db/client'
import { type Config, ConfigError } from '../config'
import type { PaymentGateway } from './gateway'
import { createSandboxGateway, isSandboxGateway } from './sandbox/gateway'

// The payments plugin: picks the gateway the configuration names and runs the sandbox's bank and
// clock in durable jobs. The contract both gateways answer to is in payments-gateway.ts, which
// imports nothing of ours at run time, so the gateways can import it without importing this file.

/** Where the provider's events are posted (the billing feature's route). */
export const WEBHOOK_PATH = '/api/billing/webhook'

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentGateway
  }
}

/** The gateway the configuration names (the server's and the operator command's). */
export function createPaymentGateway(config: Config, db: Database): PaymentGateway {
  if (config.PAYMENTS === 'stripe') {
    // Refused rather than half-working: card data must never reach a gateway that is not there.
    throw new ConfigError([
      'PAYMENTS=stripe is not available in this version yet; leave PAYMENTS unset for the sandbox',
    ])
  }
  // The sandbox signs its events as Stripe does. Each process makes a secret of its own (its
  // events go to its own endpoint) unless one is named: tests sign events of their own with it.
  return createSandboxGateway(db, {
    webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString('base64url')}`,
  })
}

export const paymentsPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const gateway = createPaymentGateway(config, app.db)
    if (isSandboxGateway(gateway)) {
      // The sandbox's bank answers a moment later in a durable job, as a provider's webhook does.
      const bank = await app.jobs.define<{ paymentIntentId: string }>(
        'sandbox.bank',
        {
          retryLimit: 5,
          retryDelaySeconds: 5,
          expireInSeconds: 60,
          startWithin: { minSeconds: 0.5, maxSeconds: 1.5 },
          describe: (job) => `sandbox charge ${job.paymentIntentId}`,
        },
        ({ paymentIntentId }) => gateway.settlePaymentIntent(paymentIntentId),
      )
      gateway.connectBank((paymentIntentId) => bank.send({ paymentIntentId }))
      // Renewals, installments and retries run when a customer's clock reaches them.
      const clock = await app.jobs.define<{ customer: string }>(
        'sandbox.clock',
        {
          retryLimit: 5,
          retryDelaySeconds: 30,
          expireInSeconds: 300,
          describe: (job) => `sandbox clock of ${job.customer}`,
        },
        ({ customer }) => gateway.runDue(customer),
      )
      gateway.connectScheduler((customer, at) => clock.send({ customer }, { at }))
      // Its events reach the webhook endpoint as Stripe's do, signed, through the whole request
      // path (the signature check, the event record, the sync job). Not delivered is an error,
      // so the job that caused the event runs again.
      gateway.connectWebhooks(async ({ payload, signature }) => {
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
      for (const customer of await gateway.customersWithLivePlans()) await clock.send({ customer })
    }
    app.decorate('payments', gateway)
  },
  { name: 'payments', dependencies: ['db', 'jobs'] },
)
