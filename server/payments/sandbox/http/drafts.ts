import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewayCustomer, GatewayInvoice, GatewayPrice } from '../../gateway'
import type { SandboxGateway } from '../gateway'
import {
  idempotencyKeyOf,
  invalidRequest,
  metadataOf,
  missingResource,
  onlyKnown,
  onlyKnownMetadata,
  optionalBoolean,
  optionalHash,
  optionalText,
  paramsOf,
  requiredInteger,
  requiredText,
} from './protocol'
import { type DraftItem, renderInvoice, renderInvoiceItem, type WireInvoice } from './render'

// Invoices made by hand: ONE PAYMENT bought as an upgrade is a draft with the price and a credit
// for the plan's unused time, finalized, then paid; paid, it ends the plan. A draft lives in the
// server's memory until it is finalized, as the server's record of idempotency keys does: the
// sandbox's store holds only finalized invoices, under the draft's id (Stripe keeps it).

interface Draft {
  id: string
  customer: string
  /** On the customer's clock. */
  created: number
  /** On the server's own clock (real time), for forgetting it. */
  madeAt: number
  metadata: { user_id: string; ends_subscription?: string }
  items: DraftItem[]
}

/**
 * An invoice not numbered yet (a draft, a preview) in the stored shape, for renderInvoice: its
 * lines, the customer's details as they are now, nothing paid.
 */
export function unnumberedInvoice(input: {
  id: string
  customer: GatewayCustomer | null
  customerId: string
  subscription: string | null
  reason: GatewayInvoice['billing_reason']
  lines: GatewayInvoice['lines']['data']
  now: number
  metadata: GatewayInvoice['metadata']
}): GatewayInvoice {
  const total = input.lines.reduce((sum, line) => sum + line.amount, 0)
  const { now, customer } = input
  return {
    id: input.id,
    object: 'invoice',
    number: '',
    customer: input.customerId,
    subscription: input.subscription,
    status: 'open',
    billing_reason: input.reason,
    currency: 'usd',
    subtotal: total,
    total,
    amount_due: Math.max(0, total),
    amount_paid: 0,
    lines: { data: input.lines },
    customer_name: customer?.name ?? '',
    customer_email: customer?.email ?? '',
    customer_address: customer?.address ?? null,
    receipt_email: null,
    payment_intent: null,
    payment_intents: [],
    attempt_count: 0,
    next_payment_attempt: null,
    status_transitions: { finalized_at: now, paid_at: null, voided_at: null },
    period_start: now,
    period_end: now,
    metadata: input.metadata,
    created: now,
  }
}

/** Stored in the shape of a finished invoice, answered as Stripe answers a draft. */
export function asDraft(rendered: WireInvoice): WireInvoice {
  const { payments: _, ...rest } = rendered
  return {
    ...rest,
    status: 'draft',
    number: null,
    status_transitions: { ...rest.status_transitions, finalized_at: null },
  }
}

export function draftRoutes(
  app: FastifyInstance,
  gateway: SandboxGateway,
  renderFinal: (invoice: GatewayInvoice) => Promise<WireInvoice>,
): void {
  const drafts = new Map<string, Draft>()

  async function renderDraft(draft: Draft): Promise<WireInvoice> {
    const prices = draft.items.flatMap((item) => (item.price ? [item.price] : []))
    const invoice = unnumberedInvoice({
      id: draft.id,
      customer: await gateway.retrieveCustomer(draft.customer),
      customerId: draft.customer,
      subscription: null,
      reason: 'manual',
      lines: draft.items.map((item) => ({
        id: `il_${item.id.slice('ii_'.length)}`,
        description: item.description,
        amount: item.amount,
        price: item.price?.id ?? null,
        proration: false,
        period: item.period,
      })),
      now: draft.created,
      metadata: draft.metadata,
    })
    return asDraft(renderInvoice(invoice, [], { prices, subscription: null }))
  }

  function draftOf(request: FastifyRequest<{ Params: { id: string } }>): Draft {
    const draft = drafts.get(request.params.id)
    if (!draft) throw missingResource('invoice', request.params.id, 'invoice')
    return draft
  }

  app.post('/v1/invoices', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, [
      'customer',
      'collection_method',
      'auto_advance',
      'pending_invoice_items_behavior',
      'metadata',
    ])
    // Charged to the customer's card when paid, never by itself, with only the items added to
    // it: a draft is what the app finalizes and pays in the same request.
    if (
      params.collection_method !== 'charge_automatically' ||
      optionalBoolean(params, 'auto_advance') !== false ||
      params.pending_invoice_items_behavior !== 'exclude'
    ) {
      throw invalidRequest(
        'The sandbox makes drafts charged when paid and holding only their own items: collection_method=charge_automatically, auto_advance=false, pending_invoice_items_behavior=exclude.',
        { param: 'auto_advance' },
      )
    }
    const customerId = requiredText(params, 'customer')
    const customer = await gateway.retrieveCustomer(customerId)
    if (!customer) throw missingResource('customer', customerId, 'customer')
    const metadata = metadataOf(params) ?? {}
    onlyKnownMetadata(metadata, ['user_id', 'ends_subscription'], 'invoice')
    if (metadata.user_id !== customer.metadata.user_id) {
      throw invalidRequest("The sandbox traces each invoice to the customer's user.", {
        param: 'metadata[user_id]',
      })
    }
    const draft: Draft = {
      id: `in_${randomBytes(12).toString('hex')}`,
      customer: customerId,
      // On the customer's clock, as Stripe dates what it makes for a customer on a test clock:
      // the app credits the unused time as of this moment.
      created: await gateway.timeOf(customerId),
      madeAt: Date.now(),
      metadata: {
        user_id: metadata.user_id,
        ...(metadata.ends_subscription ? { ends_subscription: metadata.ends_subscription } : {}),
      },
      items: [],
    }
    // A draft the app never finalized (it stopped half-way; its retry makes a new one) is
    // forgotten after a day, as the server forgets its keys.
    for (const [id, old] of drafts) {
      if (draft.madeAt - old.madeAt > 24 * 3600 * 1000) drafts.delete(id)
    }
    drafts.set(draft.id, draft)
    return renderDraft(draft)
  })

  app.post('/v1/invoiceitems', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, [
      'customer',
      'invoice',
      'pricing',
      'amount',
      'currency',
      'description',
      'period',
    ])
    const invoiceId = requiredText(params, 'invoice')
    const draft = drafts.get(invoiceId)
    if (!draft) {
      throw invalidRequest(`The sandbox adds items to its drafts only; ${invoiceId} is not one.`, {
        param: 'invoice',
      })
    }
    if (requiredText(params, 'customer') !== draft.customer) {
      throw invalidRequest('The invoice belongs to another customer.', { param: 'customer' })
    }
    const id = `ii_${randomBytes(12).toString('hex')}`
    const pricing = optionalHash(params, 'pricing')
    let item: DraftItem
    if (pricing) {
      onlyKnown(pricing, ['price'], 'pricing')
      if (params.amount !== undefined) {
        throw invalidRequest('An item has a price or an amount, not both.', { param: 'amount' })
      }
      const priceId = requiredText(pricing, 'price', 'pricing[price]')
      const price: GatewayPrice | null = await gateway.retrievePrice(priceId)
      if (!price?.active) throw missingResource('price', priceId, 'pricing[price]')
      if (price.recurring) {
        throw invalidRequest('The price specified is a recurring price; an item takes one_time.', {
          param: 'pricing[price]',
        })
      }
      item = {
        id,
        amount: price.unit_amount,
        description: price.nickname.replaceAll('_', ' '),
        period: { start: draft.created, end: draft.created },
        price,
      }
    } else {
      // A credit: the unused part of the plan the invoice ends.
      if (requiredText(params, 'currency') !== 'usd') {
        throw invalidRequest('The sandbox invoices in usd only.', { param: 'currency' })
      }
      const amount = requiredInteger(params, 'amount')
      if (amount >= 0) {
        throw invalidRequest('The sandbox adds an amount of its own only as a credit (negative).', {
          param: 'amount',
        })
      }
      const period = optionalHash(params, 'period')
      if (!period) {
        throw invalidRequest('Missing required param: period.', {
          code: 'parameter_missing',
          param: 'period',
        })
      }
      onlyKnown(period, ['start', 'end'], 'period')
      item = {
        id,
        amount,
        description: optionalText(params, 'description') ?? 'Unused time',
        period: {
          start: requiredInteger(period, 'start', 'period[start]'),
          end: requiredInteger(period, 'end', 'period[end]'),
        },
        price: null,
      }
    }
    draft.items.push(item)
    return renderInvoiceItem(item, {
      customer: draft.customer,
      invoice: draft.id,
      date: draft.created,
    })
  })

  app.post<{ Params: { id: string } }>('/v1/invoices/:id/finalize', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['auto_advance'])
    if (optionalBoolean(params, 'auto_advance') !== false) {
      throw invalidRequest('The app pays what it finalizes itself: auto_advance=false.', {
        param: 'auto_advance',
      })
    }
    const draft = draftOf(request)
    const priced = draft.items.filter((item) => item.price)
    const credits = draft.items.filter((item) => !item.price)
    const price = priced[0]?.price
    if (priced.length !== 1 || credits.length > 1 || !price) {
      throw invalidRequest('The sandbox finalizes a draft of one price and at most one credit.', {
        param: 'invoice',
      })
    }
    const credit = credits[0]
    const invoice = await gateway.issueInvoice(
      {
        id: draft.id,
        customer: draft.customer,
        price: price.id,
        credit: credit
          ? { amount: credit.amount, description: credit.description, period: credit.period }
          : null,
        endsSubscription: draft.metadata.ends_subscription ?? null,
      },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    drafts.delete(draft.id)
    return renderFinal(invoice)
  })
}
