import { describe, expect, it } from 'vitest'
import { loadOnce } from './load-once'

describe('loadOnce', () => {
  it('asks once for every caller, and again after a failure', async () => {
    let asked = 0
    let online = false
    const load = loadOnce(async () => {
      asked += 1
      if (!online) throw new Error('offline')
      return 'code'
    })
    await expect(Promise.all([load(), load()])).rejects.toThrow('offline')
    expect(asked).toBe(1)

    online = true
    expect(await Promise.all([load(), load()])).toEqual(['code', 'code'])
    expect(await load()).toBe('code')
    expect(asked).toBe(2)
  })
})
