import type { IncomingMessage, ServerResponse } from 'node:http'
import fp from 'fastify-plugin'
import helmet from 'helmet'
import type { Config } from '../config'
import { sendError } from '../errors'
import { requestLanguage, translate } from '../i18n'

/** Where Stripe.js and its frames load from (Stripe's published CSP list). */
const STRIPE_SCRIPTS = ['https://js.stripe.com', 'https://*.js.stripe.com']

/**
 * The security headers every response carries. Scripts may only come from our own origin (no
 * inline script, no eval). Inline styles are allowed: the dialog primitives set positions and
 * scroll locks through style elements, and a style cannot run code. See
 * docs/decisions/0002-content-security-policy.md.
 *
 * helmet decides the values; they never change while the server runs, so they are worked out
 * once here instead of on every request (docs/decisions/0004-hardening-before-billing.md).
 */
export function securityHeaders(
  config: Pick<Config, 'publicUrl' | 'PAYMENTS'>,
): Record<string, string> {
  const https = config.publicUrl.startsWith('https://')
  // Stripe.js and its card frames (3-D Secure included) come from Stripe's hosts, and only in
  // Stripe mode: the sandbox's card form is our own page.
  const stripe = config.PAYMENTS === 'stripe'
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? STRIPE_SCRIPTS : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...(stripe ? ['https://api.stripe.com'] : [])],
        ...(stripe ? { frameSrc: [...STRIPE_SCRIPTS, 'https://hooks.stripe.com'] } : {}),
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS on plain http would be ignored at best and confusing at worst.
    strictTransportSecurity: https ? { maxAge: 31536000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  })
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {})
  headers['permissions-policy'] = `camera=(self), microphone=(), geolocation=(), payment=(self${
    stripe ? ' "https://js.stripe.com"' : ''
  })`
  return headers
}

/** Security headers on every response, and the cross-site refusal for anything that writes. */
export const securityPlugin = fp<{ config: Config; headers: Record<string, string> }>(
  async (app, { config, headers }) => {
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers)
      done()
    })
    // Cookies are SameSite=Lax and the API takes JSON, but a cross-site form or fetch must not
    // even reach a handler: browsers always send Origin on such requests.
    const ownOrigin = new URL(config.publicUrl).origin
    const reads = new Set(['GET', 'HEAD', 'OPTIONS'])
    // A callback, not an async function: every request passes here, and reads leave at once.
    app.addHook('onRequest', (request, reply, done) => {
      if (reads.has(request.method)) return done()
      const origin = request.headers.origin
      const site = request.headers['sec-fetch-site']
      if ((origin && origin !== ownOrigin) || site === 'cross-site') {
        sendError(request, reply, 403, translate('errors.crossSite', requestLanguage(request)))
        return
      }
      done()
    })
  },
  { name: 'security' },
)
