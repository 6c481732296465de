import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildMedia,
  buildUser,
  createSession,
  destroyMedia,
  grantAccess,
  moveMedia,
} from './factories'
import { passHumanCheckIn } from './human-check'
import { makeWav } from './media'
import { outboxMessages, waitForOutboxCode } from './outbox'
import { createTestEnvironment, type TestEnvironment } from './test-app'

// The factories stand in for sign-up, confirmation and sign-in in most tests, so they must
// make exactly what those flows make: these checks hold them to the real routes.

const cookieNames = (setCookies: string[]) => setCookies.map((line) => line.split('=')[0]).sort()

describe('test factories', () => {
  let env: TestEnvironment
  let app: FastifyInstance

  beforeAll(async () => {
    env = await createTestEnvironment()
    app = await env.build()
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  const get = (url: string, cookie: string) =>
    app.inject({ method: 'GET', url, headers: { cookie } })

  const signIn = async (email: string, password: string, rememberMe: boolean) =>
    app.inject({
      method: 'POST',
      url: '/api/account/sign-in',
      payload: { email, password, rememberMe, humanCheck: await passHumanCheckIn(app) },
    })

  it('a confirmed user is signed in by its session and can sign in with its password', async () => {
    const { user, session } = await buildUser(app, { name: 'Ada Lovelace', language: 'es' })
    if (!session) throw new Error('no session')
    const me = await get('/api/session', session.header)
    expect(me.json().user).toMatchObject({
      email: user.email,
      name: 'Ada Lovelace',
      language: 'es',
    })

    const signedIn = await signIn(user.email, user.password, false)
    expect(signedIn.statusCode).toBe(200)
    // The same cookies the sign-in route sets, so the app cannot tell them apart.
    const real = signedIn.headers['set-cookie'] as string[]
    expect(session.cookies.map(({ name }) => name).sort()).toEqual(cookieNames(real))
    expect(await outboxMessages(app, user.email)).toEqual([])
  })

  it('remember me gives the session cookie a 30-day life, as the sign-in route does', async () => {
    const { user, session } = await buildUser(app, { rememberMe: true })
    expect(session?.cookies).toEqual([
      expect.objectContaining({ name: expect.stringContaining('session_token'), maxAge: 2592000 }),
    ])
    const real = (await signIn(user.email, user.password, true)).headers['set-cookie'] as string[]
    expect(cookieNames(real)).toEqual([session?.cookies[0]?.name])
    expect(real[0]).toContain('Max-Age=2592000')
  })

  it('an unconfirmed user is mailed a code and gets no session', async () => {
    const { user, session } = await buildUser(app, { confirmed: false })
    expect(session).toBeNull()
    expect(await waitForOutboxCode(app, user.email)).toMatch(/^\d{6}$/)
    await expect(createSession(app, user.id)).rejects.toThrow('has not confirmed')
  })

  it('access opens the panels', async () => {
    const without = await buildUser(app)
    expect((await get('/api/access', without.session?.header ?? '')).json().hasAccess).toBe(false)
    const code = await grantAccess(app, without.user.id)
    expect(code).toMatch(/^HZ-/)
    expect((await get('/api/access', without.session?.header ?? '')).json().hasAccess).toBe(true)

    const member = await buildUser(app, { access: true })
    expect((await get('/api/access', member.session?.header ?? '')).json().hasAccess).toBe(true)
  })

  it('media are stored for a panel, can move to another and be removed', async () => {
    const { session } = await buildUser(app, { access: true })
    const cookie = session?.header ?? ''
    const media = await buildMedia(app, {
      name: 'factory-tone.wav',
      data: makeWav(),
      panelId: '10',
      backing: true,
    })
    const backingOf = async (panelId: string) =>
      (await get(`/api/harmonize/media?panelId=${panelId}`, cookie)).json().backing?.key ?? null
    expect(await backingOf('10')).toBe(media.key)
    await moveMedia(app, [media.key], '11')
    expect(await backingOf('10')).toBeNull()
    expect(await backingOf('11')).toBe(media.key)
    await destroyMedia(app, [media.key])
    expect(await backingOf('11')).toBeNull()
    expect(await app.storage.list('medias/')).toEqual([])
  })
})
