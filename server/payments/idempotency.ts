import { createHash } from 'node:crypto'

// Idempotency keys for the provider's POSTs. Every POST carries one, made from our own record of
// the attempt: a caller that keeps a record (a payment attempt, a user's customer) names the
// key itself; for the others the key is made from what the call asks, so a retry of the same
// call sends the same key and the provider does the work once. A key used again must come with
// the same request, so the sandbox's server compares requests by a digest of their parameters.

/** A value with its object keys in order, so the same parameters always print the same. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, inner]) => inner !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, canonical(inner)]),
    )
  }
  return value
}

export const digestOf = (value: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('base64url')

/**
 * The key of a call the caller did not key: the operation, the object it is about and a digest
 * of the exact parameters (well under Stripe's 255 characters). A key travels in an HTTP header,
 * so the id is shown only in letters, digits and `_-.` (an id someone typed may hold anything),
 * and the digest covers the id as given, so two ids shown alike never share a key.
 */
export const derivedKey = (operation: string, id: string, params: unknown): string =>
  `${operation}-${id.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100)}-${digestOf({ id, params }).slice(0, 32)}`
