import { describe, expect, it } from 'vitest'
import type { Language } from '../../../domain/i18n'
import { INFO_GUIDES } from '../../../domain/info'
import { buildUser } from '../../../tests/support/factories'
import { normaliseSpace, readPdf } from '../../../tests/support/pdf-text'
import { setUpTestApp } from '../../../tests/support/test-app'

const testApp = setUpTestApp()

const get = (url: string, cookie = '', acceptLanguage = 'en') =>
  testApp.app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': acceptLanguage, ...(cookie ? { cookie } : {}) },
  })

/** A signed-in member with no paid access: the guides are not paid content. */
async function memberCookie(language: Language = 'en') {
  const { session } = await buildUser(testApp.app, { access: false, language })
  return session?.header ?? ''
}

// What each guide must say, in each language: its title, a heading and a line from its body.
const EXPECTED = {
  'sign-up': {
    en: {
      file: 'harmonize-sign-up-guide.pdf',
      texts: ['Sign Up Guide', 'Confirm your e-mail', 'Press ‘Register Account’.'],
    },
    es: {
      file: 'harmonize-guia-de-registro.pdf',
      texts: ['Guía de registro', 'Confirma tu correo', 'Pulsa ‘Registrar cuenta’.'],
    },
  },
  troubleshooting: {
    en: {
      file: 'harmonize-trouble-shooting.pdf',
      texts: ['Trouble Shooting', 'I cannot hear anything', 'we answer within 24 hours'],
    },
    es: {
      file: 'harmonize-solucion-de-problemas.pdf',
      texts: ['Solución de problemas', 'No oigo nada', 'respondemos en 24 horas'],
    },
  },
} as const

describe('How-To guides', () => {
  it('a visitor gets 401 for the guides', async () => {
    for (const guide of INFO_GUIDES) {
      const response = await get(`/api/info/guides/${guide}`)
      expect(response.statusCode).toBe(401)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
    }
  })

  it.each(
    INFO_GUIDES.flatMap((guide) =>
      (['en', 'es'] as const).map((language) => ({ guide, language })),
    ),
  )('$guide in $language is a PDF with its own text', async ({ guide, language }) => {
    const expected = EXPECTED[guide][language]
    const response = await get(`/api/info/guides/${guide}?lang=${language}`, await memberCookie())
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/pdf')
    expect(response.headers['content-disposition']).toBe(`inline; filename="${expected.file}"`)
    expect(response.headers['cache-control']).toBe('private, max-age=3600')
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')

    const pdf = await readPdf(response.rawPayload)
    expect(pdf.info.Title).toBe(expected.texts[0])
    const flow = normaliseSpace(pdf.flow)
    for (const text of expected.texts) expect(flow).toContain(text)
    // Every page is numbered in the guide's own language.
    const last = pdf.lines.at(-1)?.join(' ') ?? ''
    expect(last).toContain(
      language === 'en' ? `Page ${pdf.pages} of ${pdf.pages}` : `Página ${pdf.pages} de`,
    )
  })

  it("without ?lang=, follows the account's language, not the browser's", async () => {
    const spanish = await memberCookie('es')
    const response = await get('/api/info/guides/sign-up', spanish, 'en-GB,en;q=0.9')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-disposition']).toBe(
      'inline; filename="harmonize-guia-de-registro.pdf"',
    )
    expect(response.rawPayload.toString('latin1')).toContain('/Lang (es)')

    const english = await memberCookie('en')
    const other = await get('/api/info/guides/troubleshooting', english, 'es')
    expect(other.headers['content-disposition']).toBe(
      'inline; filename="harmonize-trouble-shooting.pdf"',
    )
    // The page's language wins over the account's.
    const chosen = await get('/api/info/guides/troubleshooting?lang=es', english, 'en')
    expect(chosen.headers['content-disposition']).toBe(
      'inline; filename="harmonize-solucion-de-problemas.pdf"',
    )
  })

  it('refuses an unknown guide or language with 400', async () => {
    const cookie = await memberCookie()
    const unknown = await get('/api/info/guides/nope', cookie)
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().message).toBe('Some of the information sent is not valid.')
    expect((await get('/api/info/guides/sign-up?lang=fr', cookie)).statusCode).toBe(400)
  })

  it('gives a member, and a visitor reading the policy before signing up, the support address', async () => {
    for (const cookie of [await memberCookie(), '']) {
      const response = await get('/api/info/contact', cookie)
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ supportEmail: testApp.app.config.SUPPORT_EMAIL })
    }
  })
})
