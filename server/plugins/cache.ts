import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { Config } from '../config'
import { connectRedis, onRedis, redisReady } from '../redis'

/**
 * A small key-value cache of strings: signed-in sessions (better-auth's secondary storage) and
 * access facts. In one process it lives in memory; with REDIS_URL every process shares it, so
 * a sign-out or a payment seen by one is seen by all (docs/decisions/0013-fast-requests.md).
 */
export interface KeyValueCache {
  get(key: string): Promise<string | null>
  /** `ttlSeconds` absent or 0: kept until deleted (or, in memory, pushed out by newer keys). */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>
  delete(key: string): Promise<void>
  /** Adds one to a counter (created at 1) and returns it. */
  increment(key: string): Promise<number>
  /** Whether it can answer now (a shared Redis can be down; memory always answers). */
  ready(): boolean
  close(): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    cache: KeyValueCache
  }
}

/** Entries the memory cache keeps before it drops the least recently used. */
const MEMORY_ENTRIES = 50_000

/**
 * Keys a dropped entry would make wrong rather than merely slower: a session's list of its
 * user's sessions is how a sign-out everywhere finds them, the time before which a user's
 * sessions were revoked is how better-auth refuses the ones it did not find, and a generation
 * counter is how a stale copy is told from a fresh one. They are small and never pushed out
 * (only their own expiry ends them).
 */
const KEPT = /^(auth:active-sessions-|auth:revoked-sessions-before-|gen:)/

export function memoryCache(): KeyValueCache {
  const entries = new LRUCache<string, string>({ max: MEMORY_ENTRIES, ttlAutopurge: false })
  const kept = new Map<string, { value: string; expiresAt: number }>()
  const sweep = setInterval(() => {
    const now = Date.now()
    for (const [key, entry] of kept) if (entry.expiresAt <= now) kept.delete(key)
  }, 60_000)
  sweep.unref()
  return {
    async get(key) {
      if (!KEPT.test(key)) return entries.get(key) ?? null
      const entry = kept.get(key)
      if (!entry || entry.expiresAt <= Date.now()) return null
      return entry.value
    },
    async set(key, value, ttlSeconds) {
      if (KEPT.test(key)) {
        const expiresAt = ttlSeconds ? Date.now() + ttlSeconds * 1000 : Number.POSITIVE_INFINITY
        kept.set(key, { value, expiresAt })
        return
      }
      entries.set(key, value, ttlSeconds ? { ttl: ttlSeconds * 1000 } : undefined)
    },
    async delete(key) {
      entries.delete(key)
      kept.delete(key)
    },
    async increment(key) {
      const next = Number((await this.get(key)) ?? 0) + 1
      await this.set(key, String(next))
      return next
    },
    ready: () => true,
    async close() {
      clearInterval(sweep)
      entries.clear()
      kept.clear()
    },
  }
}

export function redisCache(redis: Redis): KeyValueCache {
  const name = (key: string) => `harmonize:cache:${key}`
  return {
    get: (key) => onRedis(redis, () => redis.get(name(key))),
    async set(key, value, ttlSeconds) {
      await onRedis(redis, () =>
        ttlSeconds
          ? redis.set(name(key), value, 'EX', Math.max(1, Math.ceil(ttlSeconds)))
          : redis.set(name(key), value),
      )
    },
    async delete(key) {
      await onRedis(redis, () => redis.del(name(key)))
    },
    increment: (key) => onRedis(redis, () => redis.incr(name(key))),
    ready: () => redisReady(redis),
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

// Services are handed the database, not the app; the cache that belongs with a database is
// found through it, so a writer that changes access can clear it without new plumbing.
const cacheOfDatabase = new WeakMap<object, KeyValueCache>()

/** The cache the app keeps beside this database, or null (a service run without the app). */
export function cacheFor(db: object): KeyValueCache | null {
  return cacheOfDatabase.get(db) ?? null
}

/**
 * Makes `cache` the one beside `db`, so what a service changes there is invalidated in it (the
 * command line, run apart from the servers, shares their Redis this way). Returns the undo.
 */
export function shareCache(db: object, cache: KeyValueCache): () => void {
  cacheOfDatabase.set(db, cache)
  return () => {
    if (cacheOfDatabase.get(db) === cache) cacheOfDatabase.delete(db)
  }
}

/**
 * Where sessions and access facts may be kept between requests: in Redis shared by every
 * server; in this process's memory with the embedded database (one process by construction);
 * nowhere with PostgreSQL and no Redis, where other servers may share the database and a copy
 * of one's own would outlive a sign-out or a payment seen by another.
 */
export type CacheScope = 'shared' | 'process' | 'none'

export const cacheScope = (config: Pick<Config, 'REDIS_URL' | 'database'>): CacheScope =>
  config.REDIS_URL ? 'shared' : config.database.kind === 'pglite' ? 'process' : 'none'

declare module 'fastify' {
  interface FastifyInstance {
    cacheScope: CacheScope
  }
}

export const cachePlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const scope = cacheScope(config)
    if (scope === 'none') {
      app.log.warn(
        'DATABASE_URL is PostgreSQL and REDIS_URL is not set: sessions and access are read from ' +
          'the database each time they are needed (no server keeps a copy another could make ' +
          'stale), and each server counts its own rate limits. Set REDIS_URL, the same for ' +
          'every server, when more than one server uses this database.',
      )
    }
    const cache = config.REDIS_URL
      ? redisCache(await connectRedis(config.REDIS_URL, app.log, 'cache'))
      : memoryCache()
    app.decorate('cache', cache)
    app.decorate('cacheScope', scope)
    const unshare = scope === 'none' ? () => {} : shareCache(app.db, cache)
    app.addHook('onClose', async () => {
      unshare()
      await cache.close()
    })
  },
  { name: 'cache', dependencies: ['db'] },
)

/**
 * Reads a value through the cache with a generation check: a writer bumps the generation after
 * its change is committed, so a reader that fetched before the change and stores afterwards
 * stores under the old generation and is never believed.
 */
export async function readThrough<T>(
  cache: KeyValueCache | null,
  key: string,
  /** How long the value may be kept, in seconds: at most this, or as the value itself says. */
  ttlSeconds: number | ((value: T) => number),
  load: () => Promise<T>,
): Promise<T> {
  if (!cache) return load()
  const generation = (await cache.get(`gen:${key}`)) ?? '0'
  const hit = current<T>(await cache.get(key), generation)
  if (hit) return hit.value
  const value = await load()
  const ttl = typeof ttlSeconds === 'function' ? ttlSeconds(value) : ttlSeconds
  if (ttl > 0) await cache.set(key, JSON.stringify({ generation, value }), ttl)
  return value
}

/** The cached entry's value if it was stored under the current generation. */
function current<T>(stored: string | null, generation: string): { value: T } | null {
  if (!stored) return null
  const entry = JSON.parse(stored) as { generation: string; value: T }
  return entry.generation === generation ? { value: entry.value } : null
}

/**
 * What the access rule knows of a user (codes, plans, payments). Access reads it; billing and
 * access codes change it, so the key is named here, below both.
 */
// Versioned by the answer's shape: a server of the new version never reads an answer an older
// one cached without the fields it sends (v2: `standing`).
export const accessFactsKey = (userId: string) => `access:v2:${userId}`

/** Makes every cached copy of `key` stale, in this process and (with Redis) in all others. */
export async function invalidate(cache: KeyValueCache | null, key: string): Promise<void> {
  if (!cache) return
  await cache.increment(`gen:${key}`)
  await cache.delete(key)
}
