import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { SandboxGateway } from '../gateway'
import {
  invalidRequest,
  LIST_PARAMS,
  metadataOf,
  missingResource,
  onlyKnown,
  onlyKnownMetadata,
  optionalHash,
  optionalText,
  type Params,
  pageOf,
  paramsOf,
  requiredInteger,
  requiredText,
  retrieveRoute,
} from './protocol'
import { renderPaymentMethod } from './render'

// Saved cards. A card is made from its numbers by the browser with the publishable key (Stripe.js
// posts them straight to Stripe, so our server never sees them), then saved to a customer with
// the secret key; saving is when the bank checks it, so a declined card fails at attach.

/** What Stripe.js sends beside the card, which says nothing the sandbox needs. */
export const STRIPE_JS_FIELDS = [
  'key',
  'payment_user_agent',
  'time_on_page',
  'guid',
  'muid',
  'sid',
  'referrer',
  'pasted_fields',
  'client_attribution_metadata',
]

const CARD_TYPES = ['debit', 'credit'] as const

/**
 * The card typed into the page's field, as Stripe.js sends it (`holder[card]`, named `param`),
 * made into a payment method. As Stripe refuses by default, only the browser (the publishable
 * key) may send card numbers: a server sending them is in scope of the card industry's rules.
 */
export async function cardFromPage(
  gateway: SandboxGateway,
  kind: 'secret' | 'publishable' | null,
  holder: Params,
  param: string,
) {
  if (kind !== 'publishable') {
    throw invalidRequest(
      'Sending credit card numbers directly to the Stripe API is generally unsafe. Card numbers are sent from the browser with the publishable key.',
    )
  }
  const card = optionalHash(holder, 'card')
  if (!card) {
    throw invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param })
  }
  onlyKnown(card, ['number', 'exp_month', 'exp_year', 'cvc'], param)
  return gateway.cardField.createCardPaymentMethod({
    number: requiredText(card, 'number', `${param}[number]`),
    expMonth: requiredInteger(card, 'exp_month', `${param}[exp_month]`),
    expYear: requiredInteger(card, 'exp_year', `${param}[exp_year]`),
    cvc: optionalText(card, 'cvc') ?? '',
  })
}

export function paymentMethodRoutes(
  app: FastifyInstance,
  gateway: SandboxGateway,
  keyKind: (request: FastifyRequest) => 'secret' | 'publishable' | null,
): void {
  app.post('/v1/payment_methods', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['type', 'card', ...STRIPE_JS_FIELDS])
    const type = requiredText(params, 'type')
    if (type !== 'card') {
      throw invalidRequest(`The sandbox takes cards only, not ${type}.`, { param: 'type' })
    }
    return renderPaymentMethod(await cardFromPage(gateway, keyKind(request), params, 'card'))
  })

  retrieveRoute(
    app,
    '/v1/payment_methods/:id',
    (id) => gateway.retrievePaymentMethod(id),
    renderPaymentMethod,
    {
      what: 'PaymentMethod',
      param: 'payment_method',
    },
  )

  app.post<{ Params: { id: string } }>('/v1/payment_methods/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['metadata'])
    const metadata = metadataOf(params) ?? {}
    onlyKnownMetadata(metadata, ['card_type'], 'card')
    const cardType = metadata.card_type
    if (cardType !== undefined && !(CARD_TYPES as readonly string[]).includes(cardType)) {
      throw invalidRequest('metadata[card_type] is debit or credit.', {
        param: 'metadata[card_type]',
      })
    }
    const method = await gateway.retrievePaymentMethod(request.params.id)
    if (!method) throw missingResource('PaymentMethod', request.params.id, 'payment_method')
    if (!method.customer) {
      throw invalidRequest(
        'You must save this PaymentMethod to a customer before you can update it.',
      )
    }
    if (!cardType) return renderPaymentMethod(method)
    // The in-process sandbox sets the card type as it saves a card; saving it again to the
    // customer it already belongs to is how the type is set here.
    const updated = await gateway.attachPaymentMethod(method.id, {
      customer: method.customer,
      cardType: cardType as (typeof CARD_TYPES)[number],
    })
    return renderPaymentMethod(updated)
  })

  app.post<{ Params: { id: string } }>('/v1/payment_methods/:id/attach', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['customer'])
    const method = await gateway.attachPaymentMethod(request.params.id, {
      customer: requiredText(params, 'customer'),
    })
    return renderPaymentMethod(method)
  })

  app.post<{ Params: { id: string } }>('/v1/payment_methods/:id/detach', async (request) => {
    onlyKnown(paramsOf(request), [])
    return renderPaymentMethod(await gateway.detachPaymentMethod(request.params.id))
  })

  app.get<{ Params: { id: string } }>('/v1/customers/:id/payment_methods', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['type', ...LIST_PARAMS])
    const type = optionalText(params, 'type')
    if (type !== undefined && type !== 'card') {
      throw invalidRequest(`The sandbox keeps cards only, not ${type}.`, { param: 'type' })
    }
    const customer = request.params.id
    if (!(await gateway.retrieveCustomer(customer))) {
      throw missingResource('customer', customer, 'customer')
    }
    return pageOf(
      await gateway.listPaymentMethods(customer),
      params,
      `/v1/customers/${customer}/payment_methods`,
      renderPaymentMethod,
    )
  })
}
