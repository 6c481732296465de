import type { FastifyInstance, FastifyRequest } from 'fastify'
import type Stripe from 'stripe'
import type { GatewayError } from '../../gateway'

// Stripe's HTTP conventions for the sandbox's server: its error shape and statuses, how its
// form parameters read (every value arrives as a string, an empty string clears a field), and
// its lists. The routes use these so that each answers the way Stripe's own API would.

/** The body of an error answer, as Stripe sends it under `error`. */
export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error'
  code?: string
  decline_code?: string
  message: string
  param?: string
  /** A charge refused at confirmation: Stripe sends the payment as it now is. */
  payment_intent?: Stripe.PaymentIntent
}

/** An answer that is an error, with the status Stripe answers it with. */
export class StripeHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message)
    this.name = 'StripeHttpError'
  }
}

export const invalidRequest = (
  message: string,
  { code, param, status = 400 }: { code?: string; param?: string; status?: number } = {},
) =>
  new StripeHttpError(status, {
    type: 'invalid_request_error',
    ...(code ? { code } : {}),
    message,
    ...(param ? { param } : {}),
  })

/** What the bank refused, as opposed to what was asked wrongly: Stripe's card errors, 402. */
const CARD_ERROR_CODES = new Set([
  'card_declined',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'processing_error',
  'authentication_required',
])

/**
 * The sandbox's GatewayError as Stripe would answer it. `invalid_request_error` is the code the
 * sandbox gives a refusal Stripe sends without a code of its own.
 */
export function fromGatewayError(error: GatewayError): StripeHttpError {
  if (CARD_ERROR_CODES.has(error.code)) {
    return new StripeHttpError(402, {
      type: 'card_error',
      code: error.code,
      ...(error.declineCode ? { decline_code: error.declineCode } : {}),
      message: error.message,
    })
  }
  if (error.code === 'resource_missing') {
    return invalidRequest(error.message, { code: 'resource_missing', status: 404 })
  }
  if (error.code === 'invalid_request_error') return invalidRequest(error.message)
  return invalidRequest(error.message, { code: error.code })
}

export const missingResource = (what: string, id: string, param?: string) =>
  invalidRequest(`No such ${what}: '${id}'`, {
    code: 'resource_missing',
    status: 404,
    ...(param ? { param } : {}),
  })

/**
 * A payment or setup intent as the caller may see it: with the secret key any, with the
 * publishable key (Stripe.js in a page) only by its client secret; otherwise it does not exist.
 */
export function visibleIntent<T extends { client_secret: string }>(
  intent: T | null,
  { what, id }: { what: 'payment_intent' | 'setup_intent'; id: string },
  kind: 'secret' | 'publishable' | null,
  clientSecret: string | undefined,
): T {
  const allowed =
    kind === 'secret' || (clientSecret !== undefined && clientSecret === intent?.client_secret)
  if (!intent || !allowed) throw missingResource(what, id, 'intent')
  return intent
}

/** A request's parameters as `qs` reads Stripe's bracket encoding: strings, objects, arrays. */
export type Params = Record<string, unknown>

/**
 * Only the parameters a route knows: Stripe refuses any other, so a typo is never ignored.
 * `within` names the hash they are in (`address` for `address[city]`).
 */
export function onlyKnown(params: Params, known: readonly string[], within?: string): void {
  for (const name of Object.keys(params)) {
    if (!known.includes(name)) {
      const param = within ? `${within}[${name}]` : name
      throw invalidRequest(`Received unknown parameter: ${param}`, {
        code: 'parameter_unknown',
        param,
      })
    }
  }
}

/**
 * Metadata is free for Stripe, but the sandbox keeps on each object only the keys the app
 * writes there, so a key it would lose is refused rather than dropped.
 */
export function onlyKnownMetadata(
  metadata: Record<string, string>,
  known: readonly string[],
  object: string,
): void {
  for (const key of Object.keys(metadata)) {
    if (!known.includes(key)) {
      throw invalidRequest(
        `The sandbox keeps only ${known.map((name) => `metadata[${name}]`).join(', ')} on a ${object}.`,
        { param: `metadata[${key}]` },
      )
    }
  }
}

export function optionalText(params: Params, name: string): string | undefined {
  const value = params[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') {
    throw invalidRequest(`Invalid string: ${name} must be a string.`, {
      code: 'parameter_invalid_string',
      param: name,
    })
  }
  return value
}

export function requiredText(params: Params, name: string, param = name): string {
  const value = optionalText(params, name)
  if (value === undefined || value === '') {
    throw invalidRequest(`Missing required param: ${param}.`, {
      code: 'parameter_missing',
      param,
    })
  }
  return value
}

/** An empty string clears a field in Stripe's form encoding. */
export const orNull = (value: string | undefined): string | null | undefined =>
  value === '' ? null : value

export function optionalInteger(params: Params, name: string, param = name): number | undefined {
  const value = optionalText(params, name)
  if (value === undefined) return undefined
  if (!/^-?\d+$/.test(value)) {
    throw invalidRequest(`Invalid integer: ${value}`, {
      code: 'parameter_invalid_integer',
      param,
    })
  }
  return Number(value)
}

export function requiredInteger(params: Params, name: string, param = name): number {
  const value = optionalInteger(params, name, param)
  if (value === undefined) {
    throw invalidRequest(`Missing required param: ${param}.`, {
      code: 'parameter_missing',
      param,
    })
  }
  return value
}

export function optionalBoolean(params: Params, name: string): boolean | undefined {
  const value = optionalText(params, name)
  if (value === undefined) return undefined
  if (value !== 'true' && value !== 'false') {
    throw invalidRequest(`Invalid boolean: ${value}`, {
      code: 'parameter_invalid_boolean',
      param: name,
    })
  }
  return value === 'true'
}

/** A nested hash (`address[city]`, `metadata[plan]`). */
export function optionalHash(params: Params, name: string): Params | undefined {
  const value = params[name]
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidRequest(`Invalid object: ${name} must be a hash.`, { param: name })
  }
  return value as Params
}

/** `metadata[…]`: Stripe keeps strings only. */
export function metadataOf(params: Params): Record<string, string> | undefined {
  const hash = optionalHash(params, 'metadata')
  if (!hash) return undefined
  const metadata: Record<string, string> = {}
  for (const [key, value] of Object.entries(hash)) {
    if (typeof value !== 'string') {
      throw invalidRequest(`Invalid metadata value for ${key}: it must be a string.`, {
        param: `metadata[${key}]`,
      })
    }
    metadata[key] = value
  }
  return metadata
}

export const LIST_PARAMS = ['limit', 'starting_after', 'ending_before'] as const

/**
 * One page of a list that is newest first, as Stripe pages its lists: `limit` (10 unless said,
 * at most 100), after `starting_after` or before `ending_before`, with `has_more` when the list
 * goes on in that direction.
 */
export function listPage<T extends { id: string }>(
  all: readonly T[],
  params: Params,
  url: string,
): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  const limit = optionalInteger(params, 'limit') ?? 10
  if (limit < 1 || limit > 100) {
    throw invalidRequest(`Invalid limit: ${limit}. It must be between 1 and 100.`, {
      code: 'parameter_invalid_integer',
      param: 'limit',
    })
  }
  const after = optionalText(params, 'starting_after')
  const before = optionalText(params, 'ending_before')
  const indexOf = (id: string, param: string) => {
    const index = all.findIndex((item) => item.id === id)
    if (index < 0)
      throw invalidRequest(`No such object: '${id}'`, { code: 'resource_missing', param })
    return index
  }
  if (before) {
    const end = indexOf(before, 'ending_before')
    const start = Math.max(0, end - limit)
    return { object: 'list', data: all.slice(start, end), has_more: start > 0, url }
  }
  const start = after ? indexOf(after, 'starting_after') + 1 : 0
  const data = all.slice(start, start + limit)
  return { object: 'list', data, has_more: start + limit < all.length, url }
}

/** A page of a list, its objects rendered in Stripe's shapes. */
export function pageOf<T extends { id: string }, R>(
  all: readonly T[],
  params: Params,
  url: string,
  render: (item: T) => R,
): { object: 'list'; data: R[]; has_more: boolean; url: string } {
  const page = listPage(all, params, url)
  return { ...page, data: page.data.map(render) }
}

/** A POST's form body, or the query of a GET or DELETE: where Stripe reads the parameters. */
export function paramsOf(request: FastifyRequest): Params {
  const source = request.method === 'POST' ? request.body : request.query
  return source && typeof source === 'object' ? (source as Params) : {}
}

/** The request's Idempotency-Key, which the sandbox keeps for creations too (as Stripe does). */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key']
  return typeof key === 'string' && key !== '' ? key : undefined
}

/**
 * `GET path` (ending in `/:id`): the object by its id, rendered, or Stripe's resource_missing
 * naming `what` and the parameter `param`. Such a request takes no parameters.
 */
export function retrieveRoute<T>(
  app: FastifyInstance,
  path: string,
  retrieve: (id: string) => Promise<T | null>,
  render: (object: T) => unknown,
  missing: { what: string; param: string },
): void {
  app.get<{ Params: { id: string } }>(path, async (request) => {
    onlyKnown(paramsOf(request), [])
    const found = await retrieve(request.params.id)
    if (!found) throw missingResource(missing.what, request.params.id, missing.param)
    return render(found)
  })
}

/**
 * `expand[]`: the fields to send as objects rather than ids. The sandbox expands only those the
 * app asks for (`allowed`); any other is refused as Stripe refuses a field it cannot expand.
 */
export function expandOf(params: Params, allowed: readonly string[]): Set<string> {
  const value = params.expand
  if (value === undefined) return new Set()
  const fields = Array.isArray(value) ? value : [value]
  for (const field of fields) {
    if (typeof field !== 'string' || !allowed.includes(field)) {
      throw invalidRequest(`This property cannot be expanded (${String(field)}).`, {
        param: 'expand',
      })
    }
  }
  return new Set(fields as string[])
}

/** The member's answer on the sandbox's stand-in for the bank's 3-D Secure page. */
export function checkOutcomeOf(params: Record<string, unknown>): 'complete' | 'fail' {
  const outcome = requiredText(params, 'outcome')
  if (outcome !== 'complete' && outcome !== 'fail') {
    throw invalidRequest('outcome is complete or fail.', { param: 'outcome' })
  }
  return outcome
}
