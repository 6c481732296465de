import { readFileSync } from 'node:fs'
import type { Server, ServerOptions } from 'node:http'
import { isLoopbackAddress } from './plugins/local-only'
import { clientKey } from './plugins/rate-limit'

/**
 * What one client may hold of the server. Without these, a client that sends
 * `Content-Length: 100000` and one byte keeps its connection for minutes, and enough of them use
 * up the process's file descriptors (the health checks then fail too).
 */
export interface ConnectionLimits {
  /** The whole request, headers and body, must arrive within this. */
  requestTimeoutMs: number
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number
  /** A keep-alive connection waiting for its next request is closed after this. */
  keepAliveTimeoutMs: number
  /** A connection with no traffic at all for this long is closed. */
  idleTimeoutMs: number
  /** How often Node looks for requests past their time-outs. */
  checkIntervalMs: number
  /**
   * Open connections from one address (an IPv6 address counts by its /64). Not applied behind
   * a trusted proxy, nor by default to this machine's own addresses: a proxy on the same machine
   * connects from loopback for every visitor.
   */
  perAddress: number
  /** Count loopback clients against `perAddress` too (tests, which can only connect from here). */
  capLoopback: boolean
  /** Open connections in all; further ones are closed at once. */
  total: number
}

/**
 * A minute for a request covers a 5 MB picture on a slow mobile link. Keep-alive outlasts the
 * 60 s idle time-out of common load balancers, which must close first to avoid dropped requests.
 * Browsers open at most six connections per site, so 64 per address leaves room for a household
 * or an office behind one address.
 */
const DEFAULTS: Omit<ConnectionLimits, 'total'> = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 72_000,
  idleTimeoutMs: 75_000,
  checkIntervalMs: 5_000,
  perAddress: 64,
  capLoopback: false,
}

/** The soft limit on open files, which connections count against. */
function openFileLimit(): number {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    if (line?.[1] === 'unlimited') return 65_536
    if (line?.[1]) return Number(line[1])
  } catch {
    // Not Linux: assume the usual default.
  }
  return 1024
}

/** The limits with defaults filled in, and the Fastify options that carry the time-outs. */
export function serverTimeouts(overrides: Partial<ConnectionLimits> = {}): {
  connections: ConnectionLimits
  fastify: {
    requestTimeout: number
    keepAliveTimeout: number
    connectionTimeout: number
    http: ServerOptions
  }
} {
  // A fifth of the descriptors stays free for the database, files and logs.
  const connections = {
    ...DEFAULTS,
    total: Math.max(64, Math.floor(openFileLimit() * 0.8)),
    ...overrides,
  }
  return {
    connections,
    fastify: {
      requestTimeout: connections.requestTimeoutMs,
      keepAliveTimeout: connections.keepAliveTimeoutMs,
      connectionTimeout: connections.idleTimeoutMs,
      http: {
        headersTimeout: connections.headersTimeoutMs,
        connectionsCheckingInterval: connections.checkIntervalMs,
      },
    },
  }
}

/** Caps open connections in all and, unless behind a trusted proxy, per client address. */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  options: { perAddress: boolean; log: { warn(details: object, message: string): void } },
) {
  server.maxConnections = limits.total
  if (!options.perAddress) return
  const open = new Map<string, number>()
  const warned = new Set<string>()
  server.on('connection', (socket) => {
    if (!limits.capLoopback && isLoopbackAddress(socket.remoteAddress)) return
    const address = clientKey(socket.remoteAddress ?? '')
    const count = open.get(address) ?? 0
    if (count >= limits.perAddress) {
      socket.destroy()
      if (!warned.has(address)) {
        warned.add(address)
        options.log.warn(
          { address, limit: limits.perAddress },
          'too many open connections from one address; refusing more',
        )
      }
      return
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left > 0) open.set(address, left)
      else open.delete(address)
      if (left < limits.perAddress) warned.delete(address)
    })
  })
}
