import helmet from '@fastify/helmet'
import fp from 'fastify-plugin'
import type { Config } from '../config'
import { sendError } from '../errors'
import { requestLanguage, translate } from '../i18n'

/**
 * Security headers on every response. Scripts may only come from our own origin (no inline
 * script, no eval). Inline styles are allowed: the dialog primitives set positions and
 * scroll locks through style elements, and a style cannot run code. See
 * docs/decisions/0002-content-security-policy.md.
 */
export const securityPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const https = config.publicUrl.startsWith('https://')
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
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
    // Cookies are SameSite=Lax and the API takes JSON, but a cross-site form or fetch must not
    // even reach a handler: browsers always send Origin on such requests.
    const ownOrigin = new URL(config.publicUrl).origin
    app.addHook('onRequest', async (request, reply) => {
      if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return
      const origin = request.headers.origin
      const site = request.headers['sec-fetch-site']
      if ((origin && origin !== ownOrigin) || site === 'cross-site') {
        return sendError(
          request,
          reply,
          403,
          translate('errors.crossSite', requestLanguage(request)),
        )
      }
    })
    app.addHook('onSend', async (_request, reply) => {
      reply.header(
        'permissions-policy',
        'camera=(self), microphone=(), geolocation=(), payment=(self)',
      )
    })
  },
  { name: 'security' },
)
