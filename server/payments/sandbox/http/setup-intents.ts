import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewaySetupIntent } from '../../gateway'
import type { SandboxGateway } from '../gateway'
import { cardFromPage, STRIPE_JS_FIELDS } from './payment-methods'
import {
  checkOutcomeOf,
  idempotencyKeyOf,
  invalidRequest,
  missingResource,
  onlyKnown,
  optionalBoolean,
  optionalHash,
  optionalText,
  paramsOf,
  requiredText,
  visibleIntent,
} from './protocol'
import { renderSetupIntent } from './render'

// Saving a card through Stripe's own field: the server makes a setup intent for the customer
// with the secret key; the browser confirms it with the publishable key and the intent's client
// secret (as Stripe.js does), sending the card typed into the field or a card already made. The
// bank checks the card then, and it is saved to the intent's customer.

/** A setup intent the caller may see: with the secret key any, with the publishable key only by its secret. */
async function intentFor(
  gateway: SandboxGateway,
  request: FastifyRequest<{ Params: { id: string } }>,
  kind: 'secret' | 'publishable' | null,
  clientSecret: string | undefined,
): Promise<GatewaySetupIntent> {
  const { id } = request.params
  const intent = await gateway.retrieveSetupIntent(id)
  return visibleIntent(intent, { what: 'setup_intent', id }, kind, clientSecret)
}

export function setupIntentRoutes(
  app: FastifyInstance,
  gateway: SandboxGateway,
  keyKind: (request: FastifyRequest) => 'secret' | 'publishable' | null,
): void {
  app.post('/v1/setup_intents', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, [
      'customer',
      'usage',
      'allowed_payment_method_types',
      'payment_method',
      'confirm',
      'use_stripe_sdk',
    ])
    const customer = requiredText(params, 'customer')
    const paymentMethod = optionalText(params, 'payment_method')
    if (paymentMethod !== undefined && optionalBoolean(params, 'confirm') !== true) {
      throw invalidRequest(
        'The sandbox confirms a setup made with a payment method: send confirm.',
        {
          param: 'confirm',
        },
      )
    }
    const usage = optionalText(params, 'usage') ?? 'off_session'
    if (usage !== 'off_session') {
      throw invalidRequest('The sandbox saves cards for charges made off session only.', {
        param: 'usage',
      })
    }
    const types = params.allowed_payment_method_types
    if (
      types !== undefined &&
      !(Array.isArray(types) && types.length === 1 && types[0] === 'card')
    ) {
      throw invalidRequest('The sandbox takes cards only.', {
        param: 'allowed_payment_method_types',
      })
    }
    if (!(await gateway.retrieveCustomer(customer))) {
      throw missingResource('customer', customer, 'customer')
    }
    return renderSetupIntent(
      await gateway.createSetupIntent(
        { customer, ...(paymentMethod ? { paymentMethod } : {}) },
        { idempotencyKey: idempotencyKeyOf(request) },
      ),
    )
  })

  app.get<{ Params: { id: string } }>('/v1/setup_intents/:id', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['client_secret', ...STRIPE_JS_FIELDS])
    const intent = await intentFor(
      gateway,
      request,
      keyKind(request),
      optionalText(params, 'client_secret'),
    )
    return renderSetupIntent(intent)
  })

  app.post<{ Params: { id: string } }>('/v1/setup_intents/:id/confirm', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, [
      'client_secret',
      'payment_method',
      'payment_method_data',
      'return_url',
      'use_stripe_sdk',
      'expand',
      ...STRIPE_JS_FIELDS,
    ])
    const kind = keyKind(request)
    const clientSecret = optionalText(params, 'client_secret')
    if (kind === 'publishable' && clientSecret === undefined) {
      throw invalidRequest('Missing required param: client_secret.', {
        code: 'parameter_missing',
        param: 'client_secret',
      })
    }
    const intent = await intentFor(gateway, request, kind, clientSecret)
    let paymentMethod = optionalText(params, 'payment_method')
    const data = optionalHash(params, 'payment_method_data')
    if (data) {
      onlyKnown(data, ['type', 'card', 'billing_details'], 'payment_method_data')
      if (requiredText(data, 'type', 'payment_method_data[type]') !== 'card') {
        throw invalidRequest('The sandbox takes cards only.', {
          param: 'payment_method_data[type]',
        })
      }
      paymentMethod = (await cardFromPage(gateway, kind, data, 'payment_method_data[card]')).id
    }
    if (!paymentMethod) {
      throw invalidRequest(
        'You cannot confirm this SetupIntent because it is missing a payment method.',
        { code: 'parameter_missing', param: 'payment_method' },
      )
    }
    return renderSetupIntent(
      await gateway.confirmSetupIntent(intent.id, {
        clientSecret: intent.client_secret,
        paymentMethod,
      }),
    )
  })

  // The sandbox's own stand-in for the bank's 3-D Secure page, which real Stripe.js reaches
  // through frames of its own: the member completes or fails the check, with the secret.
  app.post<{ Params: { id: string } }>('/v1/setup_intents/:id/authenticate', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['client_secret', 'outcome', ...STRIPE_JS_FIELDS])
    const outcome = checkOutcomeOf(params)
    const intent = await intentFor(
      gateway,
      request,
      keyKind(request),
      optionalText(params, 'client_secret'),
    )
    return renderSetupIntent(
      await gateway.authenticateSetupIntent(intent.id, {
        clientSecret: intent.client_secret,
        outcome,
      }),
    )
  })
}
