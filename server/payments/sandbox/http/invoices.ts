import type { FastifyInstance } from 'fastify'
import type { GatewayInvoice, GatewayPrice } from '../../gateway'
import type { SandboxGateway } from '../gateway'
import { asDraft, draftRoutes, unnumberedInvoice } from './drafts'
import {
  expandOf,
  invalidRequest,
  LIST_PARAMS,
  listPage,
  missingResource,
  onlyKnown,
  optionalBoolean,
  optionalHash,
  optionalInteger,
  optionalText,
  type Params,
  paramsOf,
  requiredText,
  StripeHttpError,
} from './protocol'
import { renderInvoice, renderPaymentIntent, type WireInvoice } from './render'

// Invoices: every plan's months, their retries, and what an upgrade charges. An invoice lists the
// charges that tried to pay it (its `payments`) only when asked to expand them, as Stripe does;
// that list is how the app tells a plan's charge from a one-time payment.

/** `…[0][price]` of a list of one, with nothing else in it but `allowed`. */
function onlyPriceOf(list: unknown, param: string, allowed: readonly string[]): Params {
  if (!Array.isArray(list) || list.length !== 1 || typeof list[0] !== 'object' || !list[0]) {
    throw invalidRequest(`The sandbox previews one ${param}[0].`, { param })
  }
  const item = list[0] as Params
  onlyKnown(item, allowed, `${param}[0]`)
  requiredText(item, 'price', `${param}[0][price]`)
  return item
}

/**
 * What an upgrade is previewed as. To a monthly price (FOUR PAYMENTS): the plan's item moved to
 * it now, its months starting again, the unused time credited and everything invoiced at once.
 * To a one-time price (ONE PAYMENT): the plan cancelled now with its unused time credited, and
 * the price as an invoice item.
 */
function upgradeAsked(params: Params): {
  subscription: string
  price: string
  prorationDate?: number
} {
  onlyKnown(params, ['customer', 'subscription', 'subscription_details', 'invoice_items'])
  const subscription = requiredText(params, 'subscription')
  const details = optionalHash(params, 'subscription_details') ?? {}
  if (params.invoice_items === undefined) {
    onlyKnown(
      details,
      ['items', 'proration_behavior', 'billing_cycle_anchor'],
      'subscription_details',
    )
    const anchor = optionalHash(details, 'billing_cycle_anchor')
    if (anchor) onlyKnown(anchor, ['type'], 'subscription_details[billing_cycle_anchor]')
    if (details.proration_behavior !== 'always_invoice' || anchor?.type !== 'now') {
      throw invalidRequest(
        'The sandbox previews a move to a monthly price as charged now with its months starting again: subscription_details[proration_behavior]=always_invoice and [billing_cycle_anchor][type]=now.',
        { param: 'subscription_details' },
      )
    }
    const item = onlyPriceOf(details.items, 'subscription_details[items]', ['id', 'price'])
    requiredText(item, 'id', 'subscription_details[items][0][id]')
    return { subscription, price: String(item.price) }
  }
  onlyKnown(details, ['cancel_now', 'proration_behavior', 'proration_date'], 'subscription_details')
  if (details.cancel_now !== 'true' || details.proration_behavior !== 'create_prorations') {
    throw invalidRequest(
      'The sandbox previews a move to a one-time price as the plan cancelled now with its unused time credited: subscription_details[cancel_now]=true and [proration_behavior]=create_prorations.',
      { param: 'subscription_details' },
    )
  }
  const item = onlyPriceOf(params.invoice_items, 'invoice_items', ['price'])
  // The unused time counted from this moment rather than now, as Stripe does.
  const prorationDate = optionalInteger(
    details,
    'proration_date',
    'subscription_details[proration_date]',
  )
  return {
    subscription,
    price: String(item.price),
    ...(prorationDate === undefined ? {} : { prorationDate }),
  }
}

export function invoiceRoutes(
  app: FastifyInstance,
  gateway: SandboxGateway,
  { pdfBase }: { pdfBase?: string | undefined } = {},
): void {
  /**
   * What rendering a request's invoices reads besides them (the customer's charges, the lines'
   * prices, the plans), each read once per request: a page of a hundred invoices is not a
   * hundred reads of the same charges.
   */
  function reads() {
    const once = <T>(load: (id: string) => Promise<T>) => {
      const loaded = new Map<string, Promise<T>>()
      return (id: string) => {
        let found = loaded.get(id)
        if (!found) {
          found = load(id)
          loaded.set(id, found)
        }
        return found
      }
    }
    return {
      charges: once((customer) => gateway.listPaymentIntents(customer)),
      price: once((id) => gateway.retrievePrice(id)),
      subscription: once((id) => gateway.retrieveSubscription(id)),
    }
  }

  async function render(
    invoice: GatewayInvoice,
    withPayments: boolean,
    read = reads(),
  ): Promise<WireInvoice> {
    const charges = withPayments
      ? (await read.charges(invoice.customer)).filter((intent) =>
          invoice.payment_intents.includes(intent.id),
        )
      : []
    // Stripe names each line's product, and the plan's item on a plan's invoice.
    const prices: GatewayPrice[] = []
    for (const line of invoice.lines.data) {
      const price = line.price ? await read.price(line.price) : null
      if (price) prices.push(price)
    }
    const subscription = invoice.subscription ? await read.subscription(invoice.subscription) : null
    const rendered = renderInvoice(invoice, charges, { prices, subscription, pdfBase })
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
    const read = reads()
    const data = await Promise.all(
      page.data.map((invoice) => render(invoice, expand.has('data.payments'), read)),
    )
    return { ...page, data }
  })

  app.post('/v1/invoices/create_preview', async (request) => {
    const params = paramsOf(request)
    const asked = upgradeAsked(params)
    const subscription = await gateway.retrieveSubscription(asked.subscription)
    if (!subscription) throw missingResource('subscription', asked.subscription, 'subscription')
    if (requiredText(params, 'customer') !== subscription.customer) {
      throw invalidRequest('The subscription belongs to another customer.', { param: 'customer' })
    }
    const price = await gateway.retrievePrice(asked.price)
    if (!price) throw missingResource('price', asked.price, 'price')
    if ((price.type === 'recurring') !== (params.invoice_items === undefined)) {
      throw invalidRequest(
        price.type === 'recurring'
          ? 'A monthly price is previewed as the plan moved to it, not as an invoice item.'
          : 'A one-time price is previewed as an invoice item.',
      )
    }
    const { amount, credit } = await gateway.previewUpgrade(subscription.id, {
      price: price.id,
      ...(asked.prorationDate === undefined ? {} : { prorationDate: asked.prorationDate }),
    })
    const now = subscription.current_period_start
    const monthly = price.type === 'recurring'
    const preview = unnumberedInvoice({
      id: `upcoming_in_${subscription.id.slice('sub_'.length)}`,
      customer: await gateway.retrieveCustomer(subscription.customer),
      customerId: subscription.customer,
      subscription: monthly ? subscription.id : null,
      reason: monthly ? 'subscription_update' : 'manual',
      lines: [
        {
          id: 'il_previewprice',
          description: price.nickname.replaceAll('_', ' '),
          amount,
          price: price.id,
          proration: false,
          period: { start: now, end: now },
        },
        ...(credit
          ? [
              {
                id: 'il_previewcredit',
                description: 'Unused time',
                amount: credit,
                price: null,
                proration: true,
                period: { start: now, end: subscription.current_period_end },
              },
            ]
          : []),
      ],
      now,
      metadata: { user_id: subscription.metadata.user_id },
    })
    // A preview is a draft: never numbered, never charged.
    return asDraft(
      renderInvoice(preview, [], { prices: [price], subscription: monthly ? subscription : null }),
    )
  })

  draftRoutes(app, gateway, (invoice) => render(invoice, false))

  app.post<{ Params: { id: string } }>('/v1/invoices/:id/void', async (request) => {
    onlyKnown(paramsOf(request), [])
    return render(await gateway.voidInvoice(request.params.id), false)
  })

  app.post<{ Params: { id: string } }>('/v1/invoices/:id/pay', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['payment_method', 'off_session'])
    // The app pays an invoice with the member present, which Stripe assumes only when told
    // (off_session is true by default): the bank may ask for its check then.
    if (optionalBoolean(params, 'off_session') !== false) {
      throw invalidRequest(
        'The sandbox pays an invoice with the member present only: send off_session=false.',
        { param: 'off_session' },
      )
    }
    // Without a card named, Stripe charges the customer's default card.
    const named = optionalText(params, 'payment_method')
    const invoice = await gateway.retrieveInvoice(request.params.id)
    if (!invoice) throw missingResource('invoice', request.params.id, 'invoice')
    const card =
      named ??
      (await gateway.retrieveCustomer(invoice.customer))?.invoice_settings.default_payment_method
    if (!card) {
      throw invalidRequest(
        'This customer has no attached payment source or default payment method.',
        { code: 'resource_missing' },
      )
    }
    const paid = await gateway.payInvoice(request.params.id, { paymentMethod: card })
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
    // The bank asks the member to confirm the charge: Stripe's 402, the charge waiting for it.
    if (latest?.status === 'requires_action') {
      throw new StripeHttpError(402, {
        type: 'card_error',
        code: 'invoice_payment_intent_requires_action',
        message:
          'This payment requires additional user action before it can be completed successfully.',
        payment_intent: renderPaymentIntent(latest),
      })
    }
    return render(paid, false)
  })
}
