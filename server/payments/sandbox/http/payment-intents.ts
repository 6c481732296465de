import type { FastifyInstance } from 'fastify'
import type { GatewayPaymentIntent } from '../../gateway'
import type { SandboxGateway } from '../gateway'
import {
  idempotencyKeyOf,
  invalidRequest,
  LIST_PARAMS,
  metadataOf,
  onlyKnown,
  onlyKnownMetadata,
  optionalBoolean,
  optionalText,
  orNull,
  pageOf,
  paramsOf,
  requiredInteger,
  requiredText,
  StripeHttpError,
} from './protocol'
import { renderPaymentIntent } from './render'

// Charges. The sandbox confirms a payment as it makes it, with a saved card: a card the bank
// refuses outright is a 402 that carries the payment (as Stripe answers a refused confirmation);
// any other payment is `processing` until the sandbox's bank answers, which an event then says.

const METADATA_KEYS = ['price_id', 'user_id'] as const

function metadataOfPayment(params: Record<string, unknown>): GatewayPaymentIntent['metadata'] {
  const metadata = metadataOf(params) ?? {}
  onlyKnownMetadata(metadata, METADATA_KEYS, 'payment')
  const { price_id, user_id } = metadata
  // The sandbox invoices a one-time payment from its price, and traces it to our user.
  if (!price_id || !user_id) {
    throw invalidRequest(
      'The sandbox records what each payment bought and for whom: send metadata[price_id] and metadata[user_id].',
      { code: 'parameter_missing', param: price_id ? 'metadata[user_id]' : 'metadata[price_id]' },
    )
  }
  return { price_id, user_id }
}

export function paymentIntentRoutes(app: FastifyInstance, gateway: SandboxGateway): void {
  app.post('/v1/payment_intents', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, [
      'amount',
      'currency',
      'customer',
      'payment_method',
      'allowed_payment_method_types',
      'confirm',
      'error_on_requires_action',
      'off_session',
      'receipt_email',
      'metadata',
    ])
    const amount = requiredInteger(params, 'amount')
    if (amount < 50) {
      throw invalidRequest('Amount must be at least $0.50 usd', {
        code: 'amount_too_small',
        param: 'amount',
      })
    }
    const currency = requiredText(params, 'currency')
    if (currency !== 'usd') {
      throw invalidRequest(`The sandbox charges in usd only, not ${currency}.`, {
        param: 'currency',
      })
    }
    if (optionalBoolean(params, 'confirm') !== true) {
      throw invalidRequest('The sandbox confirms a payment as it makes it: send confirm=true.', {
        param: 'confirm',
      })
    }
    const types = params.allowed_payment_method_types
    if (types !== undefined && JSON.stringify(types) !== JSON.stringify(['card'])) {
      throw invalidRequest('The sandbox takes cards only: allowed_payment_method_types[0]=card.', {
        param: 'allowed_payment_method_types',
      })
    }
    // Whether the member is there, and what to do when the bank asks for its own check (3-D
    // Secure), make no difference to the sandbox's bank, which never asks for one.
    optionalBoolean(params, 'off_session')
    optionalBoolean(params, 'error_on_requires_action')
    const intent = await gateway.createPaymentIntent(
      {
        amount,
        currency: 'usd',
        customer: requiredText(params, 'customer'),
        paymentMethod: requiredText(params, 'payment_method'),
        receiptEmail: orNull(optionalText(params, 'receipt_email')) ?? null,
        metadata: metadataOfPayment(params),
      },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    const refusal = intent.last_payment_error
    if (intent.status === 'requires_payment_method' && refusal) {
      throw new StripeHttpError(402, {
        type: 'card_error',
        code: refusal.code,
        ...(refusal.decline_code ? { decline_code: refusal.decline_code } : {}),
        message: refusal.message,
        payment_intent: renderPaymentIntent(intent),
      })
    }
    return renderPaymentIntent(intent)
  })

  app.get('/v1/payment_intents', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['customer', ...LIST_PARAMS])
    // The sandbox lists one customer's payments, the way the app asks for them.
    const customer = requiredText(params, 'customer')
    return pageOf(
      await gateway.listPaymentIntents(customer),
      params,
      '/v1/payment_intents',
      renderPaymentIntent,
    )
  })
}
