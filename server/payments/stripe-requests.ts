import { randomUUID } from 'node:crypto'
import Stripe from 'stripe'
import { GatewayError } from './gateway'

// How the Stripe gateway talks to the SDK: where the API is, which of Stripe's errors are the
// contract's GatewayError, and how a POST the caller did not key is sent under a key made from
// the call without being answered from a stale record of that key.

/** The SDK's host, port and protocol for an API address. */
export function addressOf(apiUrl: string): {
  host: string
  port: number
  protocol: 'http' | 'https'
} {
  const url = new URL(apiUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The payments API address must be http or https: ${apiUrl}`)
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  }
}

export const isLoopback = (apiUrl: string) =>
  ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(apiUrl).hostname)

/**
 * Stripe's answer about the call itself (a declined card, an unknown id, an object in the wrong
 * state) as the contract's GatewayError; anything else (our keys, a malformed parameter, the
 * network, Stripe down) stays the SDK's error, a fault to be seen rather than shown to members.
 */
export function asGatewayError(error: unknown): unknown {
  if (error instanceof Stripe.errors.StripeCardError) {
    // The SDK leaves decline_code an empty string when Stripe sent none (an expired card is
    // told by its code alone): empty is no reason, or the bank's own reason would be lost.
    return new GatewayError(
      error.code || 'card_declined',
      error.message,
      error.decline_code || undefined,
    )
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.code && !error.code.startsWith('parameter_')) {
      return new GatewayError(error.code, error.message)
    }
    // Stripe often names no code for an object in the wrong state (a plan that cannot be
    // paused now): a refusal of the call, not a malformed request, which names its parameter.
    if (!error.code && !error.param) return new GatewayError('invalid_request_error', error.message)
  }
  return error
}

export async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw asGatewayError(error)
  }
}

/** The object, or null when Stripe has none with this id. */
export async function orNull<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await call(run)
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'resource_missing') return null
    throw error
  }
}

/** Whether Stripe answered from its record of the key instead of doing the work now. */
const replayed = (answer: { headers?: Record<string, string> } | undefined) =>
  answer?.headers?.['idempotent-replayed'] === 'true'

/** How many keys a call made from its parameters tries before giving up. */
const MAX_DERIVED_KEYS = 10

/**
 * Sends a POST under a key made from the call. The same call again within Stripe's 24 hours of
 * keeping the key is answered from that record: right for a retry, stale when the object has
 * changed since (a default card set to X, then Y, then X again would stay Y). So a replayed
 * answer counts only if the object is still as asked (`current` reads it, or answers null);
 * otherwise, or on a replayed refusal, the call is sent again under the next key of the same
 * sequence, which a retry of it walks the same way. Past the sequence's end the call goes under
 * a key of its own.
 */
export async function postUnderDerivedKey<T>(
  base: string,
  send: (idempotencyKey: string) => Promise<Stripe.Response<T>>,
  current: (answer: T) => Promise<T | null>,
): Promise<T> {
  for (let attempt = 0; attempt < MAX_DERIVED_KEYS; attempt++) {
    const key = attempt === 0 ? base : `${base}-${attempt}`
    let answer: Stripe.Response<T>
    try {
      answer = await send(key)
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && replayed(error)) continue
      throw asGatewayError(error)
    }
    if (!replayed(answer.lastResponse)) return answer
    const now = await call(() => current(answer))
    if (now) return now
  }
  // The same call made that many times in a day (an operator archiving a price that does not
  // exist, again and again): it is made once more under a key of its own, so it is still done
  // and answered, though a retry of this one attempt is not recognised.
  return call(() => send(`${base}-${randomUUID()}`))
}
