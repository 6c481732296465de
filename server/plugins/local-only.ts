import type { FastifyRequest } from 'fastify'

/**
 * Headers by which a proxy, CDN or load balancer says it relays someone else's request. Such a
 * request also connects from loopback when the proxy runs on this machine, so any of them makes
 * it remote, whatever it says.
 */
const RELAY_HEADERS = [
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
  'cf-connecting-ip',
  'true-client-ip',
  'fastly-client-ip',
  'fly-client-ip',
]

/** True when the request carries any header a relay adds (`X-Forwarded-*` included). */
export function isRelayed(request: Pick<FastifyRequest, 'headers'>): boolean {
  for (const name of Object.keys(request.headers)) {
    if (name.startsWith('x-forwarded-') || RELAY_HEADERS.includes(name)) return true
  }
  return false
}

/**
 * The one rule for what only this machine may reach (the local outbox with its sign-in codes,
 * the operator endpoint): the connection comes from loopback and nothing says it was relayed.
 * The socket's address is used, never `request.ip`, which TRUST_PROXY lets a header decide.
 */
export function isLocalRequest(request: Pick<FastifyRequest, 'headers' | 'socket'>): boolean {
  return !isRelayed(request) && isLoopbackAddress(request.socket.remoteAddress)
}

/** 127.0.0.0/8, ::1 and IPv4-mapped 127.x addresses. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const lower = address.toLowerCase()
  if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower
  const parts = v4.split('.')
  return (
    parts.length === 4 &&
    parts[0] === '127' &&
    parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)
  )
}
