import { describe, expect, it } from 'vitest'
import { setUpTestApp } from '../../../tests/support/test-app'

const testApp = setUpTestApp()

const get = (url: string, cookie?: string, language = 'en') =>
  testApp.app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': language, ...(cookie ? { cookie } : {}) },
  })

describe('panels', () => {
  it('are free to read: 16 of them, in both languages', async () => {
    const english = (await get('/api/panels')).json().panels
    expect(english).toHaveLength(16)
    expect(english.map((panel: { id: string }) => panel.id)).toEqual(
      Array.from({ length: 16 }, (_, index) => String(index + 1).padStart(2, '0')),
    )
    expect(english.map((panel: { name: string }) => panel.name)).toContain('Digestion')
    const spanish = (await get('/api/panels', undefined, 'es')).json().panels
    expect(spanish.map((panel: { name: string }) => panel.name)).toContain('Digestión')

    const detail = (await get('/api/panels/01')).json()
    expect(detail.ingredients.length).toBeGreaterThanOrEqual(8)
    expect(detail.info.length).toBeGreaterThan(40)
    expect(detail.solfeggioHz).toBeGreaterThan(0)
  })

  it('let browsers keep them for an hour, per language, from one read of the database', async () => {
    for (const url of ['/api/panels', '/api/panels/07', '/api/affirmations']) {
      const response = await get(url, undefined, 'es')
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['cache-control'], url).toBe('public, max-age=3600')
      expect(response.headers.vary, url).toContain('accept-language')
    }
    // The texts come from memory: both languages still answer, each in its own words.
    const english = (await get('/api/affirmations')).json().affirmations
    const spanish = (await get('/api/affirmations', undefined, 'es')).json().affirmations
    expect(english).toHaveLength(9)
    expect(spanish).toHaveLength(9)
    expect(spanish).not.toEqual(english)
  })

  it('answer 404 for an unknown panel', async () => {
    const response = await get('/api/panels/99')
    expect(response.statusCode).toBe(404)
    expect(response.json().message).toBe('This panel does not exist.')
  })
})
