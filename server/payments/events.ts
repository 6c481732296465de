import Stripe from 'stripe'
import { z } from 'zod/mini'
import { GatewayError, type GatewayEvent } from './gateway'

// The provider's events as its webhooks deliver them: a JSON body signed with the endpoint's
// secret in the `Stripe-Signature` header. The Stripe SDK checks the signature (both gateways
// use it: the sandbox signs its events the way Stripe does), and only what the app needs is
// taken from the event: its id, type, time, and the customer and payment it is about.

/** Stripe's window for a signature's time: an older delivery is refused, so none is replayed. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

/** The API version the app is written against; Stripe's events and objects are in its shapes. */
export const STRIPE_API_VERSION = Stripe.API_VERSION

/** What the app reads of an event; the rest of Stripe's event is left as it is. */
/** Stripe's ids and event types: printable ASCII, no spaces (no control character reaches SQL). */
const STRIPE_WORD = /^[\x21-\x7e]{1,255}$/

const eventSchema = z.object({
  id: z.string().check(z.regex(STRIPE_WORD)),
  type: z.string().check(z.regex(STRIPE_WORD)),
  created: z.int().check(z.nonnegative()),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
})

/** An id Stripe gives either as itself or as the expanded object. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && 'id' in value) {
    return typeof value.id === 'string' ? value.id : null
  }
  return null
}

/** The customer an event's object belongs to (the customer itself for customer events). */
const customerOf = (object: Record<string, unknown>): string | null =>
  object.object === 'customer' ? idOf(object.id) : idOf(object.customer)

/** The payment an event's object is about: a charge's or a refund's, or the payment itself. */
const paymentIntentOf = (object: Record<string, unknown>): string | null =>
  object.object === 'payment_intent' ? idOf(object.id) : idOf(object.payment_intent)

/**
 * The event in a webhook delivery, once its signature is checked. A missing, malformed, wrong or
 * older-than-five-minutes signature is a GatewayError `signature_invalid`: nothing in the body
 * is believed then. A signed body that is not an event is `event_invalid`.
 */
export async function verifyEvent(
  payload: Buffer | string,
  signature: string | string[] | undefined,
  secret: string,
): Promise<GatewayEvent> {
  if (typeof signature !== 'string' || signature === '') {
    throw new GatewayError('signature_invalid', 'No Stripe-Signature header.')
  }
  let event: Stripe.Event
  try {
    event = await Stripe.webhooks.constructEventAsync(
      payload,
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
    )
  } catch (error) {
    // A body that is not JSON fails after its signature was found good.
    if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) {
      throw new GatewayError('event_invalid', 'The signed body is not JSON.')
    }
    throw new GatewayError('signature_invalid', error.message)
  }
  // Signed by the right secret yet not shaped like an event (a hand-made test, another
  // sender's format): refused as clearly, never half-read.
  const shaped = eventSchema.safeParse(event)
  if (!shaped.success) {
    throw new GatewayError(
      'event_invalid',
      'The signed body is not an event: id, type, created, data.object.',
    )
  }
  const { id, type, created, data } = shaped.data
  const customer = customerOf(data.object)
  if (customer !== null && !STRIPE_WORD.test(customer)) {
    throw new GatewayError('event_invalid', 'The event names a customer id Stripe never makes.')
  }
  const paymentIntent = paymentIntentOf(data.object)
  if (paymentIntent !== null && !STRIPE_WORD.test(paymentIntent)) {
    throw new GatewayError('event_invalid', 'The event names a payment id Stripe never makes.')
  }
  return { id, type, created, customer, paymentIntent }
}

/** A delivery's body and `Stripe-Signature` header, signed as Stripe signs its own. */
export async function signEvent(
  event: { id: string; type: string; created: number; data: { object: object } },
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): Promise<{ payload: string; signature: string }> {
  const payload = JSON.stringify({
    object: 'event',
    api_version: STRIPE_API_VERSION,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    ...event,
  })
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    timestamp,
  })
  return { payload, signature }
}
