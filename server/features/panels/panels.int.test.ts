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

  it('answer 404 for an unknown panel', async () => {
    const response = await get('/api/panels/99')
    expect(response.statusCode).toBe(404)
    expect(response.json().message).toBe('This panel does not exist.')
  })
})
