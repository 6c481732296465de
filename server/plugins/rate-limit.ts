import { isIPv6 } from 'node:net'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import type { Config } from '../config'
import { AppError } from '../errors'
import type { MessageKey } from '../i18n'
import { connectRedis, onRedis, redisReady } from '../redis'

/**
 * What per-address limits count by. An IPv4 address is one client; one IPv6 client usually
 * holds a whole /64 (it can pick any address in it), so an IPv6 address counts by its first
 * 64 bits. IPv4-mapped IPv6 addresses count as the IPv4 address they carry.
 */
export function clientKey(address: string): string {
  const lower = address.toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (mapped?.[1]) return mapped[1]
  if (!isIPv6(lower)) return lower
  const [head = '', tail = ''] = lower.split('::')
  const left = head ? head.split(':') : []
  const right = lower.includes('::') && tail ? tail.split(':') : []
  const groups = lower.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`
}

export interface Rule {
  /** How many hits the window allows. */
  limit: number
  windowMs: number
}

export interface RateLimiter {
  /** Counts one hit on `key` and returns the count in the current window. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>
  /** The count in the current window without adding to it. */
  peek(key: string): Promise<{ count: number; resetInMs: number }>
  reset(key: string): Promise<void>
  /**
   * Counts a hit and throws HTTP 429 (with Retry-After) once the rule's limit is passed.
   * `message` is what the user reads; a generic "too many attempts" by default.
   */
  consume(key: string, rule: Rule, message?: MessageKey): Promise<void>
  /** Whether it can count now (a shared Redis can be down; memory always counts). */
  ready(): boolean
  close(): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter
  }
}

type Counter = Pick<RateLimiter, 'hit' | 'peek' | 'reset' | 'ready' | 'close'>

/** Fixed windows in this process's memory: right for one process. */
function memoryCounter(): Counter {
  const windows = new Map<string, { count: number; resetAt: number }>()
  const sweep = setInterval(() => {
    const now = Date.now()
    for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key)
  }, 60_000)
  sweep.unref()
  const current = (key: string) => {
    const entry = windows.get(key)
    return entry && entry.resetAt > Date.now() ? entry : undefined
  }
  return {
    async hit(key, windowMs) {
      const now = Date.now()
      const entry = current(key) ?? { count: 0, resetAt: now + windowMs }
      entry.count += 1
      windows.set(key, entry)
      return { count: entry.count, resetInMs: entry.resetAt - now }
    },
    async peek(key) {
      const entry = current(key)
      return { count: entry?.count ?? 0, resetInMs: entry ? entry.resetAt - Date.now() : 0 }
    },
    async reset(key) {
      windows.delete(key)
    },
    ready: () => true,
    async close() {
      clearInterval(sweep)
    },
  }
}

/** Fixed windows in Redis, shared by every process of the installation. */
function redisCounter(redis: Redis): Counter {
  const name = (key: string) => `harmonize:rl:${key}`
  return {
    async hit(key, windowMs) {
      const result = await onRedis(redis, () =>
        redis.multi().incr(name(key)).pexpire(name(key), windowMs, 'NX').pttl(name(key)).exec(),
      )
      const count = Number(result?.[0]?.[1] ?? 1)
      const ttl = Number(result?.[2]?.[1] ?? windowMs)
      return { count, resetInMs: ttl > 0 ? ttl : windowMs }
    },
    async peek(key) {
      const [count, ttl] = await onRedis(redis, () =>
        Promise.all([redis.get(name(key)), redis.pttl(name(key))]),
      )
      return { count: Number(count ?? 0), resetInMs: Math.max(ttl, 0) }
    },
    async reset(key) {
      await onRedis(redis, () => redis.del(name(key)))
    },
    ready: () => redisReady(redis),
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

/**
 * Rate limits for everything that sends mail or checks a secret. In one process the counts
 * live in memory; with REDIS_URL they are shared by all processes.
 */
export const rateLimitPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const counter = config.REDIS_URL
      ? redisCounter(await connectRedis(config.REDIS_URL, app.log, 'limits'))
      : memoryCounter()
    const limiter: RateLimiter = {
      ...counter,
      async consume(key, rule, message = 'errors.tooManyRequests') {
        const { count, resetInMs } = await counter.hit(key, rule.windowMs)
        if (count > rule.limit) {
          throw new AppError(429, message, Math.max(1, Math.ceil(resetInMs / 1000)))
        }
      },
    }
    app.decorate('rateLimiter', limiter)
    app.addHook('onClose', () => counter.close())
  },
  { name: 'rate-limit' },
)
