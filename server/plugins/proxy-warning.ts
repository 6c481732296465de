import fp from 'fastify-plugin'
import type { Config } from '../config'
import { isRelayed } from './local-only'

/**
 * Without TRUST_PROXY the client address is the socket's. Behind a reverse proxy that is the
 * proxy for every visitor, so all of them share one rate-limit bucket (and one visitor's
 * mistakes lock out everyone). The first relayed request says so in the log, once.
 */
export const proxyWarningPlugin = fp<{ config: Pick<Config, 'TRUST_PROXY'> }>(
  async (app, { config }) => {
    if (config.TRUST_PROXY && config.TRUST_PROXY !== 'false') return
    let warned = false
    // A callback, not an async function: every request passes here (server/app.ts says why).
    app.addHook('onRequest', (request, _reply, done) => {
      if (!warned && isRelayed(request)) {
        warned = true
        app.log.warn(
          { address: request.socket.remoteAddress },
          'requests arrive through a proxy (they carry forwarding headers), but TRUST_PROXY is ' +
            'unset: every visitor is seen as the proxy and shares one rate limit. Set TRUST_PROXY ' +
            'to the proxy’s address or hop count (see the README).',
        )
      }
      done()
    })
  },
  { name: 'proxy-warning' },
)
