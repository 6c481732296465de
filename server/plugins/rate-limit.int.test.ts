import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnvironment, type TestEnvironment } from '../../tests/support/test-app'
import { AppError } from '../errors'

const redisUrl = process.env.TEST_REDIS_URL

const rule = { limit: 3, windowMs: 60_000 }

function behavesLikeALimiter(label: string, env: () => Record<string, string>) {
  describe(label, () => {
    let environment: TestEnvironment
    let app: FastifyInstance
    const key = `test:${label}:${Date.now()}`

    beforeAll(async () => {
      environment = await createTestEnvironment(env())
      app = await environment.build()
    })

    afterAll(async () => {
      await app.close()
      await environment.destroy()
    })

    it('counts hits in a window and refuses past the limit with Retry-After', async () => {
      for (let hit = 0; hit < rule.limit; hit++) await app.rateLimiter.consume(key, rule)
      const refusal = await app.rateLimiter.consume(key, rule).catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(AppError)
      expect((refusal as AppError).statusCode).toBe(429)
      expect((refusal as AppError).retryAfterSeconds).toBeGreaterThan(0)
      expect((refusal as AppError).retryAfterSeconds).toBeLessThanOrEqual(60)
    })

    it('keeps keys apart and forgets a key on reset', async () => {
      const other = `${key}:other`
      await app.rateLimiter.hit(other, rule.windowMs)
      expect((await app.rateLimiter.peek(other)).count).toBe(1)
      await app.rateLimiter.reset(other)
      expect((await app.rateLimiter.peek(other)).count).toBe(0)
    })
  })
}

behavesLikeALimiter('in memory', () => ({}))

describe.runIf(redisUrl)('in Redis', () => {
  behavesLikeALimiter('redis', () => ({ REDIS_URL: redisUrl ?? '' }))

  it('is shared by two processes of one installation', async () => {
    const first = await createTestEnvironment({ REDIS_URL: redisUrl ?? '' })
    const second = await createTestEnvironment({ REDIS_URL: redisUrl ?? '' })
    const a = await first.build()
    const b = await second.build()
    const key = `test:shared:${Date.now()}`
    try {
      await a.rateLimiter.hit(key, 60_000)
      await b.rateLimiter.hit(key, 60_000)
      expect((await a.rateLimiter.peek(key)).count).toBe(2)
    } finally {
      await a.close()
      await b.close()
      await first.destroy()
      await second.destroy()
    }
  })
})
