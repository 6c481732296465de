import { createHash } from 'node:crypto'

// Idempotency keys for the provider's POSTs: a key used again must come with the same request,
// so requests are compared by a digest of their exact parameters.

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
