import { describe, expect, it } from 'vitest'
import { invalidate, memoryCache, readThrough } from './cache'

describe('readThrough', () => {
  it('never believes a copy read before a change and stored after it', async () => {
    const cache = memoryCache()
    let truth = 'old'
    let releaseSlowRead: () => void = () => {}
    let markRead: () => void = () => {}
    const readDone = new Promise<void>((resolve) => {
      markRead = resolve
    })
    const slowRead = readThrough(cache, 'k', 600, async () => {
      const seen = truth
      markRead()
      await new Promise<void>((resolve) => {
        releaseSlowRead = resolve
      })
      return seen
    })
    // The change commits and invalidates while the slow reader still holds the old value.
    await readDone
    truth = 'new'
    await invalidate(cache, 'k')
    releaseSlowRead()
    expect(await slowRead).toBe('old')

    expect(await readThrough(cache, 'k', 600, async () => truth)).toBe('new')
    await cache.close()
  })

  it('answers from the cache until the value is invalidated', async () => {
    const cache = memoryCache()
    let loads = 0
    const load = async () => ++loads
    expect(await readThrough(cache, 'k', 600, load)).toBe(1)
    expect(await readThrough(cache, 'k', 600, load)).toBe(1)
    await invalidate(cache, 'k')
    expect(await readThrough(cache, 'k', 600, load)).toBe(2)
    await cache.close()
  })

  it('keeps the keys that make invalidation work even when the cache is full', async () => {
    const cache = memoryCache()
    await cache.set('auth:active-sessions-u1', '["t1"]')
    await cache.set('auth:revoked-sessions-before-u1', '1795700000000', 86_400)
    for (let i = 0; i < 60_000; i++) await cache.set(`auth:token-${i}`, 'x')
    expect(await cache.get('auth:active-sessions-u1')).toBe('["t1"]')
    expect(await cache.get('auth:revoked-sessions-before-u1')).toBe('1795700000000')
    expect(await cache.get('auth:token-0')).toBeNull()
    await cache.close()
  })
})
