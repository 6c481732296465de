import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSignedInUser } from '../../../tests/support/accounts'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import { createCodes, revokeCode } from '../access/service'

let environment: TestEnvironment
let app: FastifyInstance

beforeAll(async () => {
  environment = await createTestEnvironment()
  app = await environment.build()
})

afterAll(async () => {
  await app.close()
  await environment.destroy()
})

const get = (url: string, cookie?: string, language = 'en') =>
  app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': language, ...(cookie ? { cookie } : {}) },
  })
const post = (url: string, payload: object, cookie?: string, language = 'en') =>
  app.inject({
    method: 'POST',
    url,
    payload,
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

describe('access and sessions', () => {
  it('a user without access gets 402 and the spec message when starting a session', async () => {
    const { cookie } = await createSignedInUser(app)
    expect((await get('/api/access', cookie)).json()).toEqual({
      hasAccess: false,
      flow: { kind: 'default' },
    })
    const response = await post('/api/harmonize/sessions', { panelId: '01' }, cookie)
    expect(response.statusCode).toBe(402)
    expect(response.json().message).toBe('Sorry, no payment found yet.')
    const spanish = await post('/api/harmonize/sessions', { panelId: '01' }, cookie, 'es')
    expect(spanish.json().message).toBe('Lo sentimos, todavía no encontramos ningún pago.')
  })

  it('a visitor gets 401', async () => {
    expect((await post('/api/harmonize/sessions', { panelId: '01' })).statusCode).toBe(401)
    expect((await get('/api/access')).statusCode).toBe(401)
  })

  it('a redeemed code opens access; sessions are recorded, completed and listed', async () => {
    const { cookie } = await createSignedInUser(app)
    const [code] = await createCodes(app.db, 1, 'test')
    const redeemed = await post(
      '/api/account/access-code',
      { code: ` ${code?.toLowerCase()} ` },
      cookie,
    )
    expect(redeemed.statusCode).toBe(200)
    expect(redeemed.json()).toEqual({ hasAccess: true, flow: { kind: 'code', status: 'ACTIVE' } })

    const started = await post('/api/harmonize/sessions', { panelId: '07' }, cookie)
    expect(started.statusCode).toBe(200)
    const content = started.json()
    expect(content.panel.id).toBe('07')
    expect(content.affirmations).toHaveLength(9)
    expect(content.panel.ingredients.length).toBeGreaterThanOrEqual(8)

    const completed = await post(
      `/api/harmonize/sessions/${content.sessionId}/complete`,
      {},
      cookie,
    )
    expect(completed.statusCode).toBe(200)
    const recent = (await get('/api/harmonize/sessions', cookie)).json().sessions
    expect(recent[0]).toMatchObject({ id: content.sessionId, panelId: '07' })
    expect(recent[0].completedAt).not.toBeNull()
  })

  it('a session belongs to its user only', async () => {
    const owner = await createSignedInUser(app)
    const other = await createSignedInUser(app)
    const [code] = await createCodes(app.db, 1)
    await post('/api/account/access-code', { code }, owner.cookie)
    const { sessionId } = (
      await post('/api/harmonize/sessions', { panelId: '02' }, owner.cookie)
    ).json()
    const response = await post(`/api/harmonize/sessions/${sessionId}/complete`, {}, other.cookie)
    expect(response.statusCode).toBe(404)
    expect((await get('/api/harmonize/sessions', other.cookie)).json().sessions).toEqual([])
  })

  it('refuses used, revoked and unknown codes with a clear message', async () => {
    const first = await createSignedInUser(app)
    const second = await createSignedInUser(app)
    const [used, revoked] = await createCodes(app.db, 2)
    await post('/api/account/access-code', { code: used }, first.cookie)
    await revokeCode(app.db, revoked ?? '')
    const cases = [
      [used, 'This access code has already been used.'],
      [revoked, 'This access code is no longer valid.'],
      ['HZ-NOPE-NOPE', 'This access code does not exist. Please check it and try again.'],
    ] as const
    for (const [code, message] of cases) {
      const response = await post('/api/account/access-code', { code }, second.cookie)
      expect(response.statusCode, String(code)).toBe(400)
      expect(response.json().message).toBe(message)
    }
  })

  it('revoking a redeemed code takes the access away', async () => {
    const { cookie } = await createSignedInUser(app)
    const [code] = await createCodes(app.db, 1)
    await post('/api/account/access-code', { code }, cookie)
    await revokeCode(app.db, code ?? '')
    expect((await get('/api/access', cookie)).json()).toEqual({
      hasAccess: false,
      flow: { kind: 'code', status: 'INACTIVE' },
    })
    expect((await post('/api/harmonize/sessions', { panelId: '01' }, cookie)).statusCode).toBe(402)
  })
})
