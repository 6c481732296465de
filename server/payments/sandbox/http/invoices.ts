import type { FastifyInstance } from 'fastify'
import type { GatewayInvoice, GatewayPrice } from '../../gateway'
import type { SandboxGateway } from '../gateway'
import {
  expandOf,
  LIST_PARAMS,
  listPage,
  missingResource,
  onlyKnown,
  optionalBoolean,
  paramsOf,
  requiredText,
  StripeHttpError,
} from './protocol'
import { renderInvoice, renderPaymentIntent, type WireInvoice } from './render'

// Invoices: every plan's months, their retries, and what an upgrade charges. An invoice lists the
// charges that tried to pay it (its `payments`) only when asked to expand them, as Stripe does;
// that list is how the app tells a plan's charge from a one-time payment.

export function invoiceRoutes(app: FastifyInstance, gateway: SandboxGateway): void {
  async function render(invoice: GatewayInvoice, withPayments: boolean): Promise<WireInvoice> {
    const charges = withPayments
      ? (await gateway.listPaymentIntents(invoice.customer)).filter((intent) =>
          invoice.payment_intents.includes(intent.id),
        )
      : []
    // Stripe names each line's product, and the plan's item on a plan's invoice.
    const prices: GatewayPrice[] = []
    for (const line of invoice.lines.data) {
      const price = line.price ? await gateway.retrievePrice(line.price) : null
      if (price) prices.push(price)
    }
    const subscription = invoice.subscription
      ? await gateway.retrieveSubscription(invoice.subscription)
      : null
    const rendered = renderInvoice(invoice, charges, { prices, subscription })
    if (withPayments) return rendered
    const { payments: _, ...rest } = rendered
    return rest
  }

  app.get<{ Params: { id: string } }>('/v1/invoices/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['expand'])
    const expand = expandOf(params, ['payments'])
    const invoice = await gateway.retrieveInvoice(request.params.id)
    if (!invoice) throw missingResource('invoice', request.params.id, 'invoice')
    return render(invoice, expand.has('payments'))
  })

  app.get('/v1/invoices', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['customer', 'expand', ...LIST_PARAMS])
    const expand = expandOf(params, ['data.payments'])
    const page = listPage(
      await gateway.listInvoices(requiredText(params, 'customer')),
      params,
      '/v1/invoices',
    )
    const data = await Promise.all(
      page.data.map((invoice) => render(invoice, expand.has('data.payments'))),
    )
    return { ...page, data }
  })

  app.post<{ Params: { id: string } }>('/v1/invoices/:id/pay', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['payment_method', 'off_session'])
    optionalBoolean(params, 'off_session')
    const paid = await gateway.payInvoice(request.params.id, {
      paymentMethod: requiredText(params, 'payment_method'),
    })
    // A card the bank refused at once is Stripe's 402, carrying the charge as it now is.
    const latest = paid.payment_intent
      ? (await gateway.listPaymentIntents(paid.customer)).find(
          (intent) => intent.id === paid.payment_intent,
        )
      : undefined
    const refusal = latest?.status === 'requires_payment_method' && latest.last_payment_error
    if (latest && refusal) {
      throw new StripeHttpError(402, {
        type: 'card_error',
        code: refusal.code,
        ...(refusal.decline_code ? { decline_code: refusal.decline_code } : {}),
        message: refusal.message,
        payment_intent: renderPaymentIntent(latest),
      })
    }
    return render(paid, false)
  })
}
