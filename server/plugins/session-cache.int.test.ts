import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSignedInUser } from '../../tests/support/accounts'
import { createSession } from '../../tests/support/factories'
import {
  createTestEnvironment,
  type TestEnvironment,
  usingPostgres,
} from '../../tests/support/test-app'
import { createCodes, revokeCode } from '../features/access/public'

// Signed-in sessions and access answers are read from the cache on every request
// (docs/decisions/0013-fast-requests.md). These are the ways a cached copy could outlive the
// truth; each must show at once.

let environment: TestEnvironment
let app: FastifyInstance

beforeAll(async () => {
  // On PostgreSQL, with the Redis several servers would share when there is one (CI has it).
  const redis = usingPostgres ? process.env.TEST_REDIS_URL : undefined
  environment = await createTestEnvironment(redis ? { REDIS_URL: redis } : {})
  app = await environment.build()
})

afterAll(async () => {
  await app?.close()
  await environment?.destroy()
})

const get = (url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } })
const put = (url: string, payload: object, cookie: string) =>
  app.inject({ method: 'PUT', url, payload, headers: { cookie } })
const signOut = (cookie: string, server: FastifyInstance = app) =>
  server.inject({ method: 'POST', url: '/api/account/sign-out', payload: {}, headers: { cookie } })

describe('cached sessions', () => {
  it('refuse a session cookie whose signature is not ours, though the session is cached', async () => {
    const { cookie } = await createSignedInUser(app)
    expect((await get('/api/access', cookie)).statusCode).toBe(200)
    const forged = cookie.replace(
      /(harmonize\.session_token=[^.;]+\.)([^;]+)/,
      (_whole, token: string) =>
        `${token}${encodeURIComponent(Buffer.alloc(32).toString('base64'))}`,
    )
    expect(forged).not.toBe(cookie)
    expect((await get('/api/access', forged)).statusCode).toBe(401)
  })

  it('refuse another spelling of a valid signature, so one cookie cannot be multiplied', async () => {
    const { cookie } = await createSignedInUser(app)
    expect((await get('/api/access', cookie)).statusCode).toBe(200)
    const signature = /harmonize\.session_token=[^.;]+\.([^;]+)/.exec(cookie)?.[1] ?? ''
    const decoded = decodeURIComponent(signature)
    expect(decoded).toMatch(/=$/)
    // Node's base64 decoder reads each of these as the same 32 bytes.
    for (const variant of [decoded.slice(0, -1), `${decoded}=`, `${decoded.slice(0, -1)}!`]) {
      const respelled = cookie.replace(signature, encodeURIComponent(variant))
      expect((await get('/api/access', respelled)).statusCode).toBe(401)
    }
  })

  it('end at once on sign-out, though the same cookie was read a moment before', async () => {
    const { cookie } = await createSignedInUser(app)
    for (let i = 0; i < 3; i++) expect((await get('/api/access', cookie)).statusCode).toBe(200)
    expect((await signOut(cookie)).statusCode).toBe(200)
    expect((await get('/api/access', cookie)).statusCode).toBe(401)
    expect((await get('/api/session', cookie)).json().user).toBeNull()
  })

  it('ask better-auth once for a cookie, then answer from what it read (server/plugins/session-answers.ts)', async () => {
    // Fails if better-auth stops reading sessions through the secondary storage we give it:
    // every signed-in request would then pay for its full session check again.
    const { cookie } = await createSignedInUser(app)
    const getSession = vi.spyOn(app.auth.api, 'getSession')
    try {
      for (let i = 0; i < 3; i++) expect((await get('/api/access', cookie)).statusCode).toBe(200)
      // On PostgreSQL without Redis no server keeps a copy another could make stale: each
      // request asks (plugins/cache.ts, cacheScope).
      expect(getSession).toHaveBeenCalledTimes(app.cacheScope === 'none' ? 3 : 1)
    } finally {
      getSession.mockRestore()
    }
  })

  it('end every session of a member at once when they are all revoked, though each was read before', async () => {
    const { cookie, user } = await createSignedInUser(app)
    const other = (await createSession(app, user.id)).header
    for (const each of [cookie, other]) {
      expect((await get('/api/access', each)).statusCode).toBe(200)
    }
    await app.auth.api.revokeSessions({ headers: new Headers({ cookie }) })
    for (const each of [cookie, other]) {
      expect((await get('/api/access', each)).statusCode).toBe(401)
    }
  })

  it('send the renewed cookie when better-auth renews a session in use, a day after the last renewal', async () => {
    const { user } = await createSignedInUser(app)
    const { header } = await createSession(app, user.id, true)
    const token = decodeURIComponent(/session_token=([^;]+)/.exec(header)?.[1] ?? '').split('.')[0]
    const { internalAdapter } = await app.auth.$context
    // Signed in 29 days ago and last renewed then: one day left, and due for renewal.
    await internalAdapter.updateSession(token ?? '', {
      expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
      updatedAt: new Date(Date.now() - 29 * 24 * 60 * 60 * 1000),
    })
    const response = await get('/api/access', header)
    expect(response.statusCode).toBe(200)
    const cookies = [response.headers['set-cookie'] ?? []].flat()
    const renewed = cookies.find((cookie) => cookie.startsWith('harmonize.session_token='))
    expect(renewed).toMatch(/Max-Age=2592000/i)
  })

  it('show a new language at once to the session that is cached', async () => {
    const { cookie } = await createSignedInUser(app, { language: 'en' })
    expect((await get('/api/session', cookie)).json().user.language).toBe('en')
    expect((await put('/api/account/language', { language: 'es' }, cookie)).statusCode).toBe(200)
    expect((await get('/api/session', cookie)).json().user.language).toBe('es')
  })

  it('outlive a restart: the database still knows them when the cache is empty', async () => {
    const { cookie } = await createSignedInUser(app)
    expect((await get('/api/access', cookie)).statusCode).toBe(200)
    await app.close()
    app = await environment.build()
    expect((await get('/api/access', cookie)).statusCode).toBe(200)
    // Signing out after the restart still ends the session everywhere.
    expect((await signOut(cookie)).statusCode).toBe(200)
    expect((await get('/api/access', cookie)).statusCode).toBe(401)
  })
})

describe('cached access', () => {
  it('follows a redeemed and then a revoked code at once', async () => {
    const { cookie } = await createSignedInUser(app)
    expect((await get('/api/access', cookie)).json().hasAccess).toBe(false)
    const [code] = await createCodes(app.db, 1)
    const redeemed = await app.inject({
      method: 'POST',
      url: '/api/account/access-code',
      payload: { code },
      headers: { cookie },
    })
    expect(redeemed.json().hasAccess).toBe(true)
    expect((await get('/api/access', cookie)).json().hasAccess).toBe(true)

    await revokeCode(app.db, code ?? '')
    expect((await get('/api/access', cookie)).json().hasAccess).toBe(false)
    const session = await app.inject({
      method: 'POST',
      url: '/api/harmonize/sessions',
      payload: { panelId: '01' },
      headers: { cookie },
    })
    expect(session.statusCode).toBe(402)
  })
})

// Two servers on one PostgreSQL and one Redis (CI's second pass): what one sees, the other does.
const redisUrl = process.env.TEST_REDIS_URL
describe.skipIf(!redisUrl || !usingPostgres)('two servers sharing Redis', () => {
  let shared: TestEnvironment
  let first: FastifyInstance
  let second: FastifyInstance

  beforeAll(async () => {
    shared = await createTestEnvironment({ REDIS_URL: redisUrl ?? '' })
    first = await shared.build()
    second = await shared.build()
  })

  afterAll(async () => {
    await first?.close()
    await second?.close()
    await shared?.destroy()
  })

  const access = (server: FastifyInstance, cookie: string) =>
    server.inject({ method: 'GET', url: '/api/access', headers: { cookie } })

  it('a sign-out on one ends the session on the other at once', async () => {
    const { cookie } = await createSignedInUser(first)
    expect((await access(first, cookie)).statusCode).toBe(200)
    expect((await access(second, cookie)).statusCode).toBe(200)
    expect((await signOut(cookie, first)).statusCode).toBe(200)
    expect((await access(second, cookie)).statusCode).toBe(401)
  })

  it('a code revoked through one closes access on the other at once', async () => {
    const { cookie } = await createSignedInUser(first)
    const [code] = await createCodes(first.db, 1)
    await first.inject({
      method: 'POST',
      url: '/api/account/access-code',
      payload: { code },
      headers: { cookie },
    })
    expect((await access(second, cookie)).json().hasAccess).toBe(true)
    await revokeCode(first.db, code ?? '')
    expect((await access(second, cookie)).json().hasAccess).toBe(false)
  })
})
