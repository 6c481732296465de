import { zodResolver } from '@hookform/resolvers/zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { lazyResolver } from './lazy-resolver'

const schema = z.object({ email: z.email() })
const options = { fields: {}, shouldUseNativeValidation: false } as const

describe('a validation whose code loads apart', () => {
  it('validates as the loaded resolver does, loading it once', async () => {
    let loads = 0
    const resolver = lazyResolver(async () => {
      loads += 1
      return zodResolver(schema)
    })

    const wrong = await resolver({ email: 'not an address' }, undefined, options)
    expect(Object.keys(wrong.errors)).toEqual(['email'])
    const right = await resolver({ email: 'ana@example.com' }, undefined, options)
    expect(right.errors).toEqual({})
    expect(right.values).toEqual({ email: 'ana@example.com' })
    expect(loads).toBe(1)
  })

  it('tries the load again at the next validation when it failed (offline)', async () => {
    let loads = 0
    const resolver = lazyResolver(async () => {
      loads += 1
      if (loads === 1) throw new Error('the chunk did not arrive')
      return zodResolver(schema)
    })
    resolver.preload()

    await expect(resolver({ email: 'x' }, undefined, options)).rejects.toThrow()
    const answer = await resolver({ email: 'ana@example.com' }, undefined, options)
    expect(answer.errors).toEqual({})
    expect(loads).toBe(2)
  })
})
