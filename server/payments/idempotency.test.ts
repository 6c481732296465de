import { describe, expect, it } from 'vitest'
import { derivedKey } from './idempotency'

// Keys made from a call travel to Stripe in the Idempotency-Key header.

describe('a key made from the call', () => {
  it('is the same for the same call and another for another', () => {
    const key = derivedKey('price-update', 'price_123', { active: false })
    expect(derivedKey('price-update', 'price_123', { active: false })).toBe(key)
    expect(derivedKey('price-update', 'price_123', { active: true })).not.toBe(key)
    expect(derivedKey('price-update', 'price_124', { active: false })).not.toBe(key)
  })

  it('fits in a header whatever the id holds, and ids shown alike keep keys apart', () => {
    const typed = 'price_\u202e1\u200b23'
    const key = derivedKey('price-update', typed, { active: false })
    expect(key).toMatch(/^[A-Za-z0-9_.-]+$/)
    expect(key.length).toBeLessThanOrEqual(255)
    expect(derivedKey('price-update', 'price__1_23', { active: false })).not.toBe(key)
    expect(derivedKey('card-attach', 'x'.repeat(5_000), {}).length).toBeLessThanOrEqual(255)
  })
})
