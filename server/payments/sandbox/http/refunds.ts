import type { FastifyInstance } from 'fastify'
import type { SandboxGateway } from '../gateway'
import {
  idempotencyKeyOf,
  invalidRequest,
  LIST_PARAMS,
  metadataOf,
  onlyKnown,
  onlyKnownMetadata,
  optionalInteger,
  optionalText,
  pageOf,
  paramsOf,
  requiredText,
} from './protocol'
import { renderRefund } from './render'

// Refunds of a payment, in full or in part, to the card it was paid with. The sandbox takes
// them the way the app asks: by payment intent, with the invoice and user they belong to.

const METADATA_KEYS = ['user_id', 'invoice_id'] as const

export function refundRoutes(app: FastifyInstance, gateway: SandboxGateway): void {
  app.post('/v1/refunds', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['payment_intent', 'amount', 'reason', 'metadata'])
    const paymentIntent = requiredText(params, 'payment_intent')
    const reason = optionalText(params, 'reason')
    if (reason !== undefined && reason !== 'requested_by_customer') {
      throw invalidRequest('The sandbox takes refunds the member asked for only.', {
        param: 'reason',
      })
    }
    const metadata = metadataOf(params) ?? {}
    onlyKnownMetadata(metadata, METADATA_KEYS, 'refund')
    // Without metadata, as a refund made in Stripe's Dashboard comes.
    const { user_id, invoice_id } = metadata
    // Stripe refunds what is left without one; the app always says how much.
    const amount = optionalInteger(params, 'amount')
    if (amount === undefined) {
      throw invalidRequest('The sandbox refunds a stated amount: send amount.', {
        code: 'parameter_missing',
        param: 'amount',
      })
    }
    const refund = await gateway.createRefund(
      {
        paymentIntent,
        amount,
        metadata: { ...(user_id ? { user_id } : {}), ...(invoice_id ? { invoice_id } : {}) },
      },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    return renderRefund(refund)
  })

  app.get('/v1/refunds', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['payment_intent', ...LIST_PARAMS])
    // The app lists the refunds of one payment at a time.
    const paymentIntent = requiredText(params, 'payment_intent')
    return pageOf(await gateway.listRefunds(paymentIntent), params, '/v1/refunds', renderRefund)
  })
}
