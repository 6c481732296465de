import { once } from 'node:events'
import { Redis } from 'ioredis'
import { AppError } from './errors'

// Redis (REDIS_URL) holds what every server must see alike: sessions, access facts, limits.
// While it cannot be reached, nothing falls back to a copy of this process's own (a limit
// counted twice, a sign-out one server never hears of): what needs it answers 503 in the
// member's words at once, and /readyz says so, so a balancer sends traffic elsewhere.

interface Log {
  error(details: object, message: string): void
  info(details: object, message: string): void
}

/** How long a starting server waits for Redis before it starts without (and is not ready). */
const FIRST_CONNECT_MS = 5_000

/**
 * A connection to the shared Redis. Commands fail at once while it is down (no queue piling up
 * behind a dead link); the outage is logged when it starts and when it ends, not at each of
 * ioredis's reconnection tries.
 */
export async function connectRedis(url: string, log: Log, role: string): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    // A link that went silent (no reset) fails a command after a second, not at the request's
    // time-out.
    commandTimeout: 1_000,
    // Try again soon, then every two seconds at most.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  })
  let down = false
  redis.on('error', (error: Error) => {
    if (down) return
    down = true
    log.error(
      { err: error, role },
      'Redis (REDIS_URL) cannot be reached: sign-in, sessions and limits answer 503 until it is back',
    )
  })
  redis.on('ready', () => {
    if (!down) return
    down = false
    log.info({ role }, 'Redis (REDIS_URL) can be reached again')
  })
  // A Redis that refuses at once (an 'error') or is not there in time: started all the same,
  // not ready, and connected as soon as it answers.
  await once(redis, 'ready', { signal: AbortSignal.timeout(FIRST_CONNECT_MS) }).catch(() => {})
  return redis
}

/** Whether commands can be sent now. */
export const redisReady = (redis: Redis) => redis.status === 'ready'

/**
 * Runs a command; while Redis is down or cannot take it, its failure is a 503 that says to try
 * again shortly (the member's words), not a 500. Any other failure (a bug of ours) is left as
 * it is.
 */
export async function onRedis<T>(redis: Redis, command: () => Promise<T>): Promise<T> {
  try {
    return await command()
  } catch (error) {
    if (redisReady(redis) && !UNAVAILABLE.test(String((error as Error).message))) throw error
    throw new AppError(503, 'errors.storeUnavailable', 5)
  }
}

/**
 * Redis's words for "not now" while connected: a command that timed out, a replica after a
 * fail-over (READONLY), memory full, a server still loading its data.
 */
const UNAVAILABLE = /timed out|^READONLY|^OOM|^LOADING|^MASTERDOWN|^TRYAGAIN|^BUSY/
