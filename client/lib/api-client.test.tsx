import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { panelListResponseSchema } from '../../domain/panels'
import { apiRequest, requestEarly } from './api-client'
import { type AppServer, startAppServer } from './testing/app-server'

// A page's public data is asked for before its code arrives (client/app/routes.tsx); the code
// that then reads it must take that answer, not ask the server a second time.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
afterEach(() => vi.restoreAllMocks())

const askedFor = (spy: { mock: { calls: unknown[][] } }, path: string) =>
  spy.mock.calls.filter(([url]) => url === path).length

describe('a request started early', () => {
  it('is taken by the first read of its path, and the next read asks again', async () => {
    const fetches = vi.spyOn(window, 'fetch')
    requestEarly('/api/panels')
    requestEarly('/api/panels')
    expect(askedFor(fetches, '/api/panels')).toBe(1)

    const { panels } = await apiRequest('/api/panels', panelListResponseSchema)
    expect(panels).toHaveLength(16)
    expect(askedFor(fetches, '/api/panels')).toBe(1)

    await apiRequest('/api/panels', panelListResponseSchema)
    expect(askedFor(fetches, '/api/panels')).toBe(2)
  })

  it('is not taken by a request that sends something', async () => {
    const fetches = vi.spyOn(window, 'fetch')
    requestEarly('/api/panels')
    await expect(
      apiRequest('/api/panels', panelListResponseSchema, { method: 'POST', body: '{}' }),
    ).rejects.toThrow()
    expect(askedFor(fetches, '/api/panels')).toBe(2)
    // The early answer is still there for the read it was meant for.
    await apiRequest('/api/panels', panelListResponseSchema)
    expect(askedFor(fetches, '/api/panels')).toBe(2)
  })
})

describe('a schema loaded beside its request', () => {
  it('checks the answer once both have arrived, the request not waiting for the schema', async () => {
    const fetches = vi.spyOn(window, 'fetch')
    let loadSchema: (schema: typeof panelListResponseSchema) => void = () => {}
    const schema = new Promise<typeof panelListResponseSchema>((resolve) => {
      loadSchema = resolve
    })
    const answer = apiRequest('/api/panels', () => schema)
    await vi.waitFor(() => expect(askedFor(fetches, '/api/panels')).toBe(1))

    loadSchema(panelListResponseSchema)
    expect((await answer).panels).toHaveLength(16)
  })

  it('still reports the server’s refusal when the schema could not load', async () => {
    const refusal = apiRequest('/api/access', () =>
      Promise.reject(new Error('offline: the chunk did not arrive')),
    )
    await expect(refusal).rejects.toMatchObject({ name: 'ApiError', status: 401 })
  })
})
