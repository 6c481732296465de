import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewayPaymentIntent } from '../../gateway'
import type { SandboxGateway } from '../gateway'
import { STRIPE_JS_FIELDS } from './payment-methods'
import {
  checkOutcomeOf,
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
  visibleIntent,
} from './protocol'
import { renderPaymentIntent } from './render'

// Charges. The sandbox confirms a payment as it makes it, with a saved card: a card the bank
// refuses outright is a 402 that carries the payment (as Stripe answers a refused confirmation);
// one whose bank asks the member to confirm it (3-D Secure) waits in `requires_action` for the
// page to run the check with the payment's client secret; any other payment is `processing`
// until the sandbox's bank answers, which an event then says.

/** A payment the caller may see: with the secret key any, with the publishable key only by its secret. */
async function intentFor(
  gateway: SandboxGateway,
  request: FastifyRequest<{ Params: { id: string } }>,
  kind: 'secret' | 'publishable' | null,
  clientSecret: string | undefined,
): Promise<GatewayPaymentIntent> {
  const { id } = request.params
  const intent = await gateway.retrievePaymentIntent(id)
  return visibleIntent(intent, { what: 'payment_intent', id }, kind, clientSecret)
}

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

export function paymentIntentRoutes(
  app: FastifyInstance,
  gateway: SandboxGateway,
  keyKind: (request: FastifyRequest) => 'secret' | 'publishable' | null,
): void {
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
      'use_stripe_sdk',
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
    // A payment made here is one the member makes in the page, and waits for the bank's check
    // when it asks for one; the plans' charges, made while the member is away, are the
    // sandbox's own.
    if (optionalBoolean(params, 'off_session') === true) {
      throw invalidRequest('The sandbox takes payments with the member present only.', {
        param: 'off_session',
      })
    }
    if (optionalBoolean(params, 'error_on_requires_action') === true) {
      throw invalidRequest(
        "The sandbox leaves a payment the bank asks to check waiting for the member's check.",
        { param: 'error_on_requires_action' },
      )
    }
    optionalBoolean(params, 'use_stripe_sdk')
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

  app.get<{ Params: { id: string } }>('/v1/payment_intents/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['client_secret', 'expand', ...STRIPE_JS_FIELDS])
    return renderPaymentIntent(
      await intentFor(gateway, request, keyKind(request), optionalText(params, 'client_secret')),
    )
  })

  app.post<{ Params: { id: string } }>('/v1/payment_intents/:id/cancel', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['cancellation_reason'])
    const reason = optionalText(params, 'cancellation_reason')
    if (reason !== undefined && reason !== 'abandoned') {
      throw invalidRequest('The sandbox gives up payments nobody finished only: abandoned.', {
        param: 'cancellation_reason',
      })
    }
    const intent = await intentFor(gateway, request, keyKind(request), undefined)
    return renderPaymentIntent(
      await gateway.cancelPaymentIntent(intent.id, { idempotencyKey: idempotencyKeyOf(request) }),
    )
  })

  // The sandbox's own stand-in for the bank's 3-D Secure page, as for a setup's check.
  app.post<{ Params: { id: string } }>('/v1/payment_intents/:id/authenticate', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['client_secret', 'outcome', ...STRIPE_JS_FIELDS])
    const outcome = checkOutcomeOf(params)
    const intent = await intentFor(
      gateway,
      request,
      keyKind(request),
      optionalText(params, 'client_secret'),
    )
    return renderPaymentIntent(
      await gateway.authenticatePaymentIntent(intent.id, {
        clientSecret: intent.client_secret,
        outcome,
      }),
    )
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
