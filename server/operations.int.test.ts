import { connect, type Socket } from 'node:net'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { migrationsFolder } from '../db/client'
import { captureLogs, emptyClientDir, runEveryStep } from '../tests/support/scratch'
import {
  createTestEnvironment,
  type TestEnvironment,
  usingPostgres,
} from '../tests/support/test-app'

// What keeps the server up when clients misbehave or the process is overloaded, through real
// sockets where the behaviour lives below Fastify's inject.

// Run after each test: every app holds pooled connections, and this file's dozen apps alive
// at once ran PostgreSQL out of connections in CI (76 of its 100 from this file alone).
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  await runEveryStep(cleanups.splice(0).reverse())
})

/** A test database whose removal is due after the test, noted before anything is built on it. */
async function environmentForTest(env: Record<string, string> = {}): Promise<TestEnvironment> {
  const environment = await createTestEnvironment(env)
  cleanups.push(() => environment.destroy())
  return environment
}

async function listening(
  options: Parameters<TestEnvironment['build']>[0] = {},
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; port: number }> {
  const environment = await environmentForTest(env)
  const app = await environment.build({ clientDir: emptyClientDir(), ...options })
  cleanups.push(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('not listening')
  return { app, port: address.port }
}

/** A raw connection; `closed` resolves when the server ends it. */
function open(port: number, localAddress = '127.0.0.1') {
  const socket = connect({ port, host: '127.0.0.1', localAddress })
  let received = ''
  socket.on('data', (chunk) => {
    received += chunk.toString('utf8')
  })
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  cleanups.push(() => {
    socket.destroy()
  })
  return { socket, closed, connected, received: () => received }
}

/** One complete request over a fresh socket; resolves with the raw answer once it is closed. */
async function rawRequest(port: number, text: string, localAddress = '127.0.0.1') {
  const connection = open(port, localAddress)
  await connection.connected
  connection.socket.write(text)
  await connection.closed
  return connection.received()
}

const isClosed = (socket: Socket) => socket.destroyed || socket.readyState === 'closed'

describe('slow clients', () => {
  it('are cut off when the body does not arrive in time, and the server keeps answering', async () => {
    const { port } = await listening({
      connections: { requestTimeoutMs: 1_000, headersTimeoutMs: 500, checkIntervalMs: 100 },
    })
    const slow = open(port)
    await slow.connected
    // Promises a body of 100,000 bytes and sends one.
    slow.socket.write(
      'POST /api/account/sign-in HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100000\r\n\r\n{',
    )
    await slow.closed
    const [head = '', body = ''] = slow.received().split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 408/)
    expect(head).toMatch(/\r\ncontent-security-policy: /i)
    expect(JSON.parse(body)).toMatchObject({
      statusCode: 408,
      message: 'The request took too long to arrive. Please try again.',
    })

    const health = await rawRequest(
      port,
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    )
    expect(health).toMatch(/^HTTP\/1\.1 200/)
  })

  it('are cut off when the headers never end', async () => {
    const { port } = await listening({
      connections: { requestTimeoutMs: 1_000, headersTimeoutMs: 500, checkIntervalMs: 100 },
    })
    const slow = open(port)
    await slow.connected
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ')
    await slow.closed
    expect(isClosed(slow.socket)).toBe(true)
  })

  it('may hold only so many connections from one address; others still get in', async () => {
    const { port, app } = await listening({ connections: { perAddress: 3, capLoopback: true } })
    const held = [open(port), open(port), open(port)]
    await Promise.all(held.map((connection) => connection.connected))
    // Wait until the server has counted all three before a fourth arrives.
    await vi.waitFor(
      async () => {
        const count = await new Promise<number>((resolve, reject) =>
          app.server.getConnections((error, value) => (error ? reject(error) : resolve(value))),
        )
        expect(count).toBe(3)
      },
      { timeout: 10_000 },
    )

    const refused = open(port)
    await refused.closed
    expect(refused.received()).toBe('')

    // Another address on this machine is not affected.
    const other = await rawRequest(
      port,
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      '127.0.0.2',
    )
    expect(other).toMatch(/^HTTP\/1\.1 200/)

    // Once one is let go, the address may connect again.
    held[0]?.socket.destroy()
    await held[0]?.closed
    await vi.waitFor(
      async () => {
        const again = await rawRequest(
          port,
          'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        )
        expect(again).toMatch(/^HTTP\/1\.1 200/)
      },
      { timeout: 10_000 },
    )
  })
})

describe('malformed URLs over a real connection', () => {
  it.each([
    ['GET /api/panels/%ff HTTP/1.1', 400, 'The request could not be understood.'],
    [`GET /api/panels/${'x'.repeat(150)} HTTP/1.1`, 414, 'This address is too long.'],
    // Refused by Node's own parser, before Fastify sees anything.
    ['GET /api/panels/ñandú HTTP/1.1', 400, 'The request could not be understood.'],
    ['GET /api/panels/\u0000 HTTP/1.1', 400, 'The request could not be understood.'],
    [`GET /api/${'x'.repeat(20_000)} HTTP/1.1`, 431, 'The request’s headers are too large.'],
  ])('%s answers %i in our error format with our headers', async (line, status, message) => {
    const { port } = await listening()
    const answer = await rawRequest(port, `${line}\r\nHost: localhost\r\nConnection: close\r\n\r\n`)
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status}`))
    expect(head).toMatch(/\r\ncontent-security-policy: default-src 'self'/i)
    expect(head).toMatch(/\r\nx-content-type-options: nosniff/i)
    const requestId = /\r\nx-request-id: ([\w-]+)/i.exec(head)?.[1]
    expect(requestId).toBeDefined()
    const names: Record<number, string> = {
      400: 'Bad Request',
      414: 'URI Too Long',
      431: 'Request Header Fields Too Large',
    }
    expect(JSON.parse(body)).toEqual({
      statusCode: status,
      error: names[status],
      message,
      requestId,
    })
  })
})

describe('under pressure', () => {
  it('answers 503 in our format with Retry-After while the event loop is saturated, but stays alive', async () => {
    const environment = await environmentForTest()
    const app = await environment.build({
      clientDir: emptyClientDir(),
      pressure: { maxEventLoopDelayMs: 1 },
    })
    cleanups.push(() => app.close())
    let answer = await app.inject({ method: 'GET', url: '/readyz' })
    await vi.waitFor(
      async () => {
        // Keep the loop busy, as a flood of work would, until the measurement catches up.
        const until = Date.now() + 200
        while (Date.now() < until) {
          // busy
        }
        answer = await app.inject({ method: 'GET', url: '/readyz' })
        expect(answer.statusCode).toBe(503)
      },
      { timeout: 20_000, interval: 50 },
    )
    // Liveness still answers: the process is alive, only busy.
    expect(app.isUnderPressure()).toBe(true)
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    expect(answer.headers['retry-after']).toBe('10')
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'")
    expect(answer.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'We are very busy right now. Please try again in a few seconds.',
      reason: 'errors.busy',
      requestId: answer.headers['x-request-id'],
    })
  })
})

describe('request logging', () => {
  it('keeps ordinary requests out of the info log, and puts each in the debug log', async () => {
    const info = captureLogs('info')
    const debug = captureLogs('debug')
    const environment = await environmentForTest()
    const quiet = await environment.build({ clientDir: emptyClientDir(), logger: info.logger })
    for (let i = 0; i < 5; i++) await quiet.inject({ method: 'GET', url: '/api/panels' })
    await quiet.inject({ method: 'GET', url: '/api/no-such-thing' })
    await quiet.close()
    expect(info.lines.filter((line) => line.msg.includes('request'))).toEqual([])

    const verbose = await environment.build({ clientDir: emptyClientDir(), logger: debug.logger })
    await verbose.inject({ method: 'GET', url: '/api/panels' })
    await verbose.inject({ method: 'GET', url: '/api/no-such-thing' })
    await verbose.close()
    const requests = debug.lines.filter((line) => line.msg === 'request')
    expect(requests.map((line) => [line.url, line.status])).toEqual([
      ['/api/panels', 200],
      ['/api/no-such-thing', 404],
    ])
  })
})

describe('behind a proxy', () => {
  it('warns once when requests carry forwarding headers that TRUST_PROXY does not allow', async () => {
    const logs = captureLogs('warn')
    const environment = await environmentForTest()
    const app = await environment.build({ clientDir: emptyClientDir(), logger: logs.logger })
    cleanups.push(() => app.close())
    await app.inject({ method: 'GET', url: '/healthz' })
    expect(logs.lines.filter((line) => line.msg.includes('TRUST_PROXY'))).toEqual([])
    for (let i = 0; i < 3; i++) {
      await app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      })
    }
    const warnings = logs.lines.filter((line) => line.msg.includes('TRUST_PROXY'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.level).toBe(40)
  })

  it('says nothing when TRUST_PROXY names the proxy', async () => {
    const logs = captureLogs('warn')
    const environment = await environmentForTest({ TRUST_PROXY: '127.0.0.1' })
    const app = await environment.build({ clientDir: emptyClientDir(), logger: logs.logger })
    cleanups.push(() => app.close())
    await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    })
    expect(logs.lines.filter((line) => line.msg.includes('TRUST_PROXY'))).toEqual([])
  })
})

describe.skipIf(!usingPostgres)('servers starting together on one empty PostgreSQL', () => {
  it('apply each migration once and both start', async () => {
    const environment = await environmentForTest()
    const [first, second] = await Promise.all([
      environment.build({ clientDir: emptyClientDir() }),
      environment.build({ clientDir: emptyClientDir() }),
    ])
    cleanups.push(async () => {
      await first.close()
      await second.close()
    })
    const client = new pg.Client({ connectionString: environment.env.DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      )
      const journal = (await import(path.join(migrationsFolder, 'meta/_journal.json'), {
        with: { type: 'json' },
      })) as { default: { entries: unknown[] } }
      expect(rows[0]?.n).toBe(journal.default.entries.length)
    } finally {
      await client.end()
    }
    for (const app of [first, second]) {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
    }
  })
})
