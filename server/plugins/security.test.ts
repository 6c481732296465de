import { describe, expect, it } from 'vitest'
import { securityHeaders } from './security'

// Stripe's hosts are in the policy only when Stripe takes the cards: with the sandbox, nothing
// outside our own origin may run, frame or be fetched.

const directive = (headers: Record<string, string>, name: string) =>
  (headers['content-security-policy'] ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `))

describe('the content security policy', () => {
  it('names no outside host with the sandbox', () => {
    const headers = securityHeaders({ publicUrl: 'http://localhost:3000', PAYMENTS: 'sandbox' })
    expect(headers['content-security-policy']).not.toContain('stripe.com')
    expect(directive(headers, 'script-src')).toBe("script-src 'self'")
    // Frames fall back to default-src 'self'.
    expect(directive(headers, 'frame-src')).toBeUndefined()
    expect(headers['permissions-policy']).toContain('payment=(self)')
  })

  it("names Stripe's script, frame and API hosts in Stripe mode, and nothing else", () => {
    const headers = securityHeaders({ publicUrl: 'https://harmonize.example', PAYMENTS: 'stripe' })
    expect(directive(headers, 'script-src')).toBe(
      "script-src 'self' https://js.stripe.com https://*.js.stripe.com",
    )
    expect(directive(headers, 'frame-src')).toBe(
      'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
    )
    expect(directive(headers, 'connect-src')).toBe("connect-src 'self' https://api.stripe.com")
    expect(directive(headers, 'frame-ancestors')).toBe("frame-ancestors 'none'")
    expect(headers['permissions-policy']).toContain('payment=(self "https://js.stripe.com")')
  })
})
