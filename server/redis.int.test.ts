import { connect, createServer, type Server, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildUser } from '../tests/support/factories'
import { createTestEnvironment, type TestEnvironment } from '../tests/support/test-app'

// With REDIS_URL set, Redis holds what every server must see alike (sessions, access, limits).
// While it is down, nothing falls back to this process's own copy: what needs it answers 503 in
// the member's words, /readyz says the server is not ready, and it recovers by itself.

const redisUrl = process.env.TEST_REDIS_URL

async function appWith(redis: string) {
  const environment = await createTestEnvironment({ REDIS_URL: redis })
  const app = await environment.build()
  return { environment, app }
}

const challenge = (app: FastifyInstance, language = 'en') =>
  app.inject({
    method: 'GET',
    url: '/api/captcha/challenge',
    headers: { 'accept-language': language },
  })
const readiness = async (app: FastifyInstance) =>
  (await app.inject({ method: 'GET', url: '/readyz' })).statusCode

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('Redis (REDIS_URL) that cannot be reached', () => {
  let environment: TestEnvironment
  let app: FastifyInstance

  beforeAll(async () => {
    ;({ environment, app } = await appWith(`redis://127.0.0.1:${await closedPort()}`))
  })
  afterAll(async () => {
    await app.close()
    await environment.destroy()
  })

  it('starts, says it is not ready, and answers what needs Redis with 503 in words, never 500', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    expect(await readiness(app)).toBe(503)
    const refused = await challenge(app, 'es')
    expect(refused.statusCode).toBe(503)
    expect(refused.headers['retry-after']).toBe('5')
    expect(refused.json().message).toBe(
      'Harmonize no puede hacer esto ahora mismo. Vuelve a intentarlo en unos segundos.',
    )
  })
})

describe.runIf(redisUrl)('Redis that goes down and comes back', () => {
  // The app reaches Redis through this relay, which the test closes and opens again.
  let relay: Server
  let port = 0
  const sockets = new Set<Socket>()
  const open = () =>
    new Promise<void>((resolve) => {
      const target = new URL(redisUrl ?? '')
      relay = createServer((client) => {
        const upstream = connect(Number(target.port || 6379), target.hostname)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => {})
        }
        client.pipe(upstream).pipe(client)
      })
      relay.listen(port, '127.0.0.1', () => {
        port = (relay.address() as { port: number }).port
        resolve()
      })
    })
  const close = () =>
    new Promise<void>((resolve) => {
      relay.close(() => resolve())
      for (const socket of sockets) socket.destroy()
    })

  let environment: TestEnvironment
  let app: FastifyInstance
  beforeAll(async () => {
    await open()
    ;({ environment, app } = await appWith(`redis://127.0.0.1:${port}`))
  })
  afterAll(async () => {
    await app.close()
    await environment.destroy()
    await close()
  })

  it('is not ready while Redis is away, and ready again once it is back', async () => {
    expect(await readiness(app)).toBe(200)
    expect((await challenge(app)).statusCode).toBe(200)
    const { session } = await buildUser(app)
    const cookie = session?.header ?? ''
    const signedIn = () => app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })
    expect((await signedIn()).json().user).not.toBeNull()
    // Signed in while Redis was there, but never asked for by this server before it went.
    const { session: other } = await buildUser(app)

    await close()
    await vi.waitFor(async () => expect(await readiness(app)).toBe(503), { timeout: 10_000 })
    expect((await challenge(app)).statusCode).toBe(503)
    // A member is not told they are signed out because their session cannot be read.
    expect((await signedIn()).statusCode).toBe(503)
    const unseen = await app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: other?.header ?? '' },
    })
    expect(unseen.statusCode).toBe(503)

    await open()
    await vi.waitFor(async () => expect(await readiness(app)).toBe(200), {
      timeout: 15_000,
      interval: 100,
    })
    expect((await challenge(app)).statusCode).toBe(200)
    expect((await signedIn()).json().user).not.toBeNull()
  })
})
