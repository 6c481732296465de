import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { sandboxObjects } from '../../../db/schema/billing'
import { setUpTestApp, usingPostgres } from '../../../tests/support/test-app'
import { createSandboxGateway } from './gateway'

// When the sandbox's bank answers a charge, the charge, the invoice it pays and the plan that
// invoice starts change at once, as one answer of Stripe's does. A member's page that syncs at
// that moment must never read the charge paid beside a plan still waiting for it.
//
// Only PostgreSQL can show a half-made change: it has connections that read while another
// writes. PGlite has one connection, so nothing reads while a change is under way.

const testApp = setUpTestApp()
const nextYear = new Date().getUTCFullYear() + 1

describe("the sandbox's bank", () => {
  it.skipIf(!usingPostgres)(
    'settles a charge together with the invoice it pays and the plan it starts',
    async () => {
      const { db } = testApp.app
      const sandbox = createSandboxGateway(db, { webhookSecret: 'whsec_test' })
      const waiting: string[] = []
      sandbox.connectBank(async (id) => {
        waiting.push(id)
      })

      await sandbox.createProduct({ id: 'prod_settle', name: 'Plans' }, { idempotencyKey: 'p' })
      const price = await sandbox.createPrice(
        {
          product: 'prod_settle',
          nickname: 'SUBSCRIPTION',
          unitAmount: 1_500,
          currency: 'usd',
          plan: 'subscription',
        },
        { idempotencyKey: 'price' },
      )
      const customer = await sandbox.createCustomer(
        { email: 'settle@example.com', name: 'Ada Settle', userId: 'user-settle' },
        { idempotencyKey: 'customer' },
      )
      const card = await sandbox.cardField.createCardPaymentMethod({
        number: '4242424242424242',
        expMonth: 12,
        expYear: nextYear,
        cvc: '123',
      })
      await sandbox.attachPaymentMethod(card.id, { customer: customer.id })
      await sandbox.updateCustomer(customer.id, { defaultPaymentMethod: card.id })
      const plan = await sandbox.createSubscription(
        {
          customer: customer.id,
          price: price.id,
          paymentMethod: card.id,
          installments: null,
          metadata: { plan: 'subscription', user_id: 'user-settle', price_id: price.id },
        },
        { idempotencyKey: 'plan' },
      )
      expect(plan.status).toBe('incomplete')
      const [charge] = waiting
      if (!charge) throw new Error('the first invoice made no charge')

      // Another connection holds the plan, so the bank's answer stops when it reaches it.
      let release = () => {}
      let held = () => {}
      const holding = new Promise<void>((resolve) => {
        held = resolve
      })
      const holder = db.transaction(async (tx) => {
        await tx
          .select({ id: sandboxObjects.id })
          .from(sandboxObjects)
          .where(eq(sandboxObjects.id, plan.id))
          .for('update')
        held()
        await new Promise<void>((resolve) => {
          release = resolve
        })
      })
      await holding
      const settling = sandbox.settlePaymentIntent(charge)
      try {
        await expect
          .poll(
            async () => {
              const [row] = await db
                .select({ blocked: sql<number>`count(*)::int` })
                .from(sql`pg_stat_activity`)
                .where(sql`datname = current_database() and wait_event_type = 'Lock'`)
              return row?.blocked
            },
            { timeout: 10_000 },
          )
          .toBe(1)

        // Read from outside while the answer waits on the plan: nothing of it shows yet.
        const [intent] = await sandbox.listPaymentIntents(customer.id)
        const [invoice] = await sandbox.listInvoices(customer.id)
        expect({ charge: intent?.status, invoice: invoice?.status }).toEqual({
          charge: 'processing',
          invoice: 'open',
        })
      } finally {
        release()
        await holder
        await settling
      }
      const [paid] = await sandbox.listPaymentIntents(customer.id)
      const [paidInvoice] = await sandbox.listInvoices(customer.id)
      expect({
        charge: paid?.status,
        invoice: paidInvoice?.status,
        plan: (await sandbox.retrieveSubscription(plan.id))?.status,
      }).toEqual({ charge: 'succeeded', invoice: 'paid', plan: 'active' })
    },
  )
})
