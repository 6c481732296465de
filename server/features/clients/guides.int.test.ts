import { describe, expect, it } from 'vitest'
import { buildUser } from '../../../tests/support/factories'
import { setUpTestApp } from '../../../tests/support/test-app'

const testApp = setUpTestApp()

const get = (url: string, cookie = '', language = 'en') =>
  testApp.app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': language, ...(cookie ? { cookie } : {}) },
  })

/** A signed-in member with no paid access: the guides are not paid content. */
async function memberCookie() {
  const { session } = await buildUser(testApp.app, { access: false })
  return session?.header ?? ''
}

describe('scan guides', () => {
  it('a visitor gets 401', async () => {
    const response = await get('/api/guides/aura')
    expect(response.statusCode).toBe(401)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect((await get('/api/guides/chakra', '', 'es')).statusCode).toBe(401)
  })

  it('a member without access reads the aura guide as a PDF, in English', async () => {
    const response = await get('/api/guides/aura', await memberCookie())
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/pdf')
    expect(response.headers['content-disposition']).toBe(
      'inline; filename="harmonize-aura-scan-guide.pdf"',
    )
    expect(response.headers['cache-control']).toBe('private, max-age=3600')
    expect(response.headers.vary).toMatch(/accept-language/i)
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(response.rawPayload.toString('latin1')).toContain('/Lang (en)')
  })

  it('answers in Spanish when the browser asks for it', async () => {
    const cookie = await memberCookie()
    const aura = await get('/api/guides/aura', cookie, 'es-ES,es;q=0.9')
    expect(aura.statusCode).toBe(200)
    expect(aura.headers['content-type']).toBe('application/pdf')
    expect(aura.headers['content-disposition']).toBe(
      'inline; filename="harmonize-guia-escaneo-aura.pdf"',
    )
    expect(aura.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(aura.rawPayload.toString('latin1')).toContain('/Lang (es)')

    const chakra = await get('/api/guides/chakra', cookie, 'es')
    expect(chakra.statusCode).toBe(200)
    expect(chakra.headers['content-disposition']).toBe(
      'inline; filename="harmonize-guia-escaneo-chakras.pdf"',
    )
    const english = await get('/api/guides/chakra', cookie, 'en')
    expect(english.headers['content-disposition']).toBe(
      'inline; filename="harmonize-chakra-scan-guide.pdf"',
    )
    expect(english.rawPayload.equals(chakra.rawPayload)).toBe(false)
  })

  it('follows the language chosen in the app over the browser’s', async () => {
    const cookie = await memberCookie()
    const chosen = await get('/api/guides/aura?lang=es', cookie, 'en-US,en;q=0.9')
    expect(chosen.statusCode).toBe(200)
    expect(chosen.headers['content-disposition']).toBe(
      'inline; filename="harmonize-guia-escaneo-aura.pdf"',
    )
    expect(chosen.rawPayload.toString('latin1')).toContain('/Lang (es)')
    const unknown = await get('/api/guides/aura?lang=fr', cookie)
    expect(unknown.statusCode).toBe(400)
  })

  it('refuses a guide that does not exist with 400', async () => {
    const cookie = await memberCookie()
    const response = await get('/api/guides/nope', cookie)
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe('Some of the information sent is not valid.')
    expect((await get('/api/guides/AURA', cookie)).statusCode).toBe(400)
  })
})
