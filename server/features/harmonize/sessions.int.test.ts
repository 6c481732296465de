import { describe, expect, it } from 'vitest'
import { createSignedInUser } from '../../../tests/support/accounts'
import { setUpTestApp } from '../../../tests/support/test-app'
import { createCodes, revokeCode } from '../access/public'

const testApp = setUpTestApp()

const get = (url: string, cookie?: string, language = 'en') =>
  testApp.app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': language, ...(cookie ? { cookie } : {}) },
  })
const post = (url: string, payload: object, cookie?: string, language = 'en') =>
  testApp.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'accept-language': language, ...(cookie ? { cookie } : {}) },
  })

describe('access and sessions', () => {
  it('a user without access gets 402 and the spec message when starting a session', async () => {
    const { cookie } = await createSignedInUser(testApp.app)
    expect((await get('/api/access', cookie)).json()).toEqual({
      hasAccess: false,
      flow: { kind: 'default' },
      standing: 'none',
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
    const { cookie } = await createSignedInUser(testApp.app)
    const [code] = await createCodes(testApp.app.db, 1, 'test')
    const redeemed = await post(
      '/api/account/access-code',
      { code: ` ${code?.toLowerCase()} ` },
      cookie,
    )
    expect(redeemed.statusCode).toBe(200)
    expect(redeemed.json()).toEqual({
      hasAccess: true,
      flow: { kind: 'code', status: 'ACTIVE' },
      standing: 'code',
    })

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
    const owner = await createSignedInUser(testApp.app)
    const other = await createSignedInUser(testApp.app)
    const [code] = await createCodes(testApp.app.db, 1)
    await post('/api/account/access-code', { code }, owner.cookie)
    const { sessionId } = (
      await post('/api/harmonize/sessions', { panelId: '02' }, owner.cookie)
    ).json()
    const response = await post(`/api/harmonize/sessions/${sessionId}/complete`, {}, other.cookie)
    expect(response.statusCode).toBe(404)
    expect((await get('/api/harmonize/sessions', other.cookie)).json().sessions).toEqual([])
  })

  it('refuses used, revoked and unknown codes with a clear message', async () => {
    const first = await createSignedInUser(testApp.app)
    const second = await createSignedInUser(testApp.app)
    const [used, revoked] = await createCodes(testApp.app.db, 2)
    await post('/api/account/access-code', { code: used }, first.cookie)
    await revokeCode(testApp.app.db, revoked ?? '')
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
    const { cookie } = await createSignedInUser(testApp.app)
    const [code] = await createCodes(testApp.app.db, 1)
    await post('/api/account/access-code', { code }, cookie)
    await revokeCode(testApp.app.db, code ?? '')
    expect((await get('/api/access', cookie)).json()).toEqual({
      hasAccess: false,
      flow: { kind: 'code', status: 'INACTIVE' },
      standing: 'none',
    })
    expect((await post('/api/harmonize/sessions', { panelId: '01' }, cookie)).statusCode).toBe(402)
  })

  it('every code a user holds counts: a later revoked code does not hide an active one', async () => {
    const { cookie } = await createSignedInUser(testApp.app)
    const [kept, later] = await createCodes(testApp.app.db, 2)
    await post('/api/account/access-code', { code: kept }, cookie)
    await post('/api/account/access-code', { code: later }, cookie)
    await revokeCode(testApp.app.db, later ?? '')
    expect((await get('/api/access', cookie)).json()).toEqual({
      hasAccess: true,
      flow: { kind: 'code', status: 'ACTIVE' },
      standing: 'code',
    })
    expect((await post('/api/harmonize/sessions', { panelId: '01' }, cookie)).statusCode).toBe(200)
  })
})

describe('session ids in URLs', () => {
  it.each(['2147483648', '99999999999', '0x10', '1e3', '010', '0', '-1', '1.5', ' 7'])(
    'refuse %j as an id with a 400 that names the field',
    async (id) => {
      const { cookie } = await createSignedInUser(testApp.app)
      const response = await post(
        `/api/harmonize/sessions/${encodeURIComponent(id)}/complete`,
        {},
        cookie,
      )
      expect(response.statusCode).toBe(400)
      expect(response.json().issues).toEqual([
        { field: 'params.id', message: 'This identifier is not valid.' },
      ])
    },
  )

  it('accept the largest id a session can have (and find no such session)', async () => {
    const { cookie } = await createSignedInUser(testApp.app)
    const response = await post('/api/harmonize/sessions/2147483647/complete', {}, cookie)
    expect(response.statusCode).toBe(404)
  })
})

describe('the access gate', () => {
  it('answers 402 on every paid route, 401 first for a visitor', async () => {
    const paid = testApp.app.routeCatalog.filter(
      (route) => route.config?.paid && route.method !== 'HEAD',
    )
    expect(paid.map((route) => `${route.method} ${route.url}`).sort()).toEqual([
      'DELETE /api/clients/:id',
      'GET /api/clients',
      'GET /api/clients/:id',
      'GET /api/clients/:id/export',
      'GET /api/clients/:id/scans',
      'GET /api/clients/photos/:number',
      'GET /api/clients/photos/recent',
      'GET /api/harmonize/media',
      'POST /api/clients',
      'POST /api/clients/:id/scans/aura',
      'POST /api/clients/:id/scans/chakra',
      'POST /api/clients/photos',
      'POST /api/harmonize/sessions',
      'PUT /api/clients/:id',
    ])
    const { cookie } = await createSignedInUser(testApp.app)
    for (const route of paid) {
      // Even a body the route would refuse: access is checked before it is validated. (The
      // photo upload reads only images: anything else is refused as unreadable before that.)
      const upload = route.url === '/api/clients/photos'
      const request = {
        method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
        url: route.url.replace(':id', crypto.randomUUID()).replace(':number', '1'),
        payload: upload
          ? Buffer.from('not really a picture')
          : route.method === 'POST' || route.method === 'PUT'
            ? { panelId: '01' }
            : undefined,
        headers: upload ? { 'content-type': 'image/png' } : {},
      }
      const visitor = await testApp.app.inject(request)
      expect(visitor.statusCode, route.url).toBe(401)
      const member = await testApp.app.inject({
        ...request,
        headers: { ...request.headers, cookie },
      })
      expect(member.statusCode, route.url).toBe(402)
      expect(member.json().message).toBe('Sorry, no payment found yet.')
    }
  })
})
