import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captchaSolutions } from '../../db/schema/security'
import {
  createTestEnvironment,
  type TestEnvironment,
  usingPostgres,
} from '../../tests/support/test-app'
import {
  CAPTCHA_ALGORITHM,
  CAPTCHA_TTL_MS,
  type CaptchaChallenge,
  captchaKeys,
  createCaptchaChallenge,
} from './captcha'

/** Solves a challenge the way the widget's workers do and encodes the payload the same way. */
async function solve(challenge: CaptchaChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error('no solution found')
  return encode({ challenge, solution })
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64')
const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'))

async function fetchChallenge(app: FastifyInstance): Promise<CaptchaChallenge> {
  const response = await app.inject({ method: 'GET', url: '/api/captcha/challenge' })
  expect(response.statusCode).toBe(200)
  return response.json()
}

async function countSolutions(app: FastifyInstance): Promise<number> {
  const [row] = await app.db.select({ count: sql<number>`count(*)::int` }).from(captchaSolutions)
  return Number(row?.count)
}

describe('human check', () => {
  let env: TestEnvironment
  let app: FastifyInstance
  let clientDir: string

  beforeAll(async () => {
    env = await createTestEnvironment()
    // No built client: these tests must not depend on whether dist/ exists.
    clientDir = mkdtempSync(path.join(tmpdir(), 'harmonize-client-'))
    app = await env.build({ clientDir })
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
    if (clientDir) rmSync(clientDir, { recursive: true, force: true })
  })

  it('answers a fresh, signed, uncacheable challenge in the widget format', async () => {
    const before = Date.now()
    const response = await app.inject({ method: 'GET', url: '/api/captcha/challenge' })
    const body = response.json()

    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['content-type']).toContain('application/json')
    expect(body.signature).toMatch(/^[0-9a-f]{64}$/)
    expect(body.parameters).toMatchObject({
      algorithm: CAPTCHA_ALGORITHM,
      cost: 1000,
      keyLength: 32,
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      salt: expect.stringMatching(/^[0-9a-f]{32}$/),
      keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/),
      keySignature: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    const expiresInMs = body.parameters.expiresAt * 1000 - before
    expect(expiresInMs).toBeGreaterThan(CAPTCHA_TTL_MS - 2000)
    // The widget format counts whole seconds, so the expiry may be rounded up by almost one.
    expect(expiresInMs).toBeLessThan(CAPTCHA_TTL_MS + 1000)

    const second = await fetchChallenge(app)
    expect(second.parameters.nonce).not.toBe(body.parameters.nonce)
  })

  it('limits how many challenges one address may ask for', async () => {
    const ask = () =>
      app.inject({ method: 'GET', url: '/api/captcha/challenge', remoteAddress: '10.9.9.9' })
    for (let index = 0; index < 120; index++) expect((await ask()).statusCode).toBe(200)
    const refused = await ask()
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // Other addresses are not affected.
    expect((await app.inject({ method: 'GET', url: '/api/captcha/challenge' })).statusCode).toBe(
      200,
    )
  })

  it('is listed in the OpenAPI document under accounts', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs' })
    const operation = response.json().paths['/api/captcha/challenge']?.get

    expect(operation?.tags).toEqual(['accounts'])
  })

  it('accepts a solved challenge once and refuses the same payload again', async () => {
    const payload = await solve(await fetchChallenge(app))

    expect(await app.captcha.verify(payload)).toBe(true)
    expect(await app.captcha.verify(payload)).toBe(false)
  })

  it('lets only one of two simultaneous uses of a payload through', async () => {
    const payload = await solve(await fetchChallenge(app))

    const results = await Promise.all([app.captcha.verify(payload), app.captcha.verify(payload)])

    expect(results.filter(Boolean)).toHaveLength(1)
  })

  it('refuses a payload whose solution or challenge was tampered with', async () => {
    const { challenge, solution } = decode(await solve(await fetchChallenge(app)))
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1)
    const tampered = [
      { challenge, solution: { ...solution, derivedKey: flip(solution.derivedKey) } },
      { challenge: { ...challenge, signature: flip(challenge.signature) }, solution },
      {
        challenge: { ...challenge, parameters: { ...challenge.parameters, cost: 1 } },
        solution,
      },
      {
        challenge: {
          ...challenge,
          parameters: { ...challenge.parameters, expiresAt: challenge.parameters.expiresAt + 3600 },
        },
        solution,
      },
      {
        challenge: {
          ...challenge,
          parameters: {
            ...challenge.parameters,
            keySignature: flip(challenge.parameters.keySignature),
          },
        },
        solution,
      },
    ]

    for (const [index, value] of tampered.entries()) {
      expect(await app.captcha.verify(encode(value)), `tampering #${index}`).toBe(false)
    }
    // The untouched payload still works: none of the attempts above used it up.
    expect(await app.captcha.verify(encode({ challenge, solution }))).toBe(true)
  })

  it('refuses a challenge signed with another secret', async () => {
    const foreign = await createCaptchaChallenge(captchaKeys('x'.repeat(43)), 1000)

    expect(await app.captcha.verify(await solve(foreign))).toBe(false)
  })

  it('refuses a solved challenge after it expired', async () => {
    const keys = captchaKeys(app.secrets.authSecret)
    const expired = await createCaptchaChallenge(keys, 1000, new Date(Date.now() - 1000))
    const fresh = await createCaptchaChallenge(keys, 1000)

    expect(await app.captcha.verify(await solve(expired))).toBe(false)
    // The same helper with the default expiry makes a challenge we accept.
    expect(await app.captcha.verify(await solve(fresh))).toBe(true)
  })

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['not base64 JSON', 'not a payload!'],
    ['JSON null', encode(null)],
    ['an empty object', encode({})],
    ['the widget test-mode payload', encode({ challenge: null, solution: null, test: true })],
    [
      'a v1 payload',
      encode({ algorithm: 'SHA-256', challenge: 'ab', number: 1, salt: 's', signature: 'cd' }),
    ],
    [
      'a Sentinel server-signature payload',
      encode({
        algorithm: 'SHA-256',
        signature: 'ab',
        verificationData: 'verified=true',
        verified: true,
      }),
    ],
    ['a huge string', 'A'.repeat(100_000)],
  ])('refuses %s', async (_name, payload) => {
    expect(await app.captcha.verify(payload)).toBe(false)
  })

  it('refuses a non-string at run time', async () => {
    expect(await app.captcha.verify({ challenge: 1 } as unknown as string)).toBe(false)
  })

  it('forgets used solutions once they are long expired', async () => {
    const long = new Date(Date.now() - CAPTCHA_TTL_MS * 3)
    await app.db.insert(captchaSolutions).values({ signature: 'stale', expiresAt: long })
    const before = await countSolutions(app)

    expect(await app.captcha.verify(await solve(await fetchChallenge(app)))).toBe(true)

    const rows = await app.db.select().from(captchaSolutions)
    expect(rows.map((row) => row.signature)).not.toContain('stale')
    expect(rows.length).toBe(before)
  })
})

describe.runIf(usingPostgres)('human check across two app processes on one PostgreSQL', () => {
  let env: TestEnvironment
  let first: FastifyInstance
  let second: FastifyInstance
  let clientDir: string

  beforeAll(async () => {
    env = await createTestEnvironment()
    clientDir = mkdtempSync(path.join(tmpdir(), 'harmonize-client-'))
    first = await env.build({ clientDir })
    second = await env.build({ clientDir })
  })

  afterAll(async () => {
    await first?.close()
    await second?.close()
    await env?.destroy()
    if (clientDir) rmSync(clientDir, { recursive: true, force: true })
  })

  it('accepts a challenge from one process in the other, and only once in either', async () => {
    const payload = await solve(await fetchChallenge(first))

    expect(await second.captcha.verify(payload)).toBe(true)
    expect(await first.captcha.verify(payload)).toBe(false)
    expect(await second.captcha.verify(payload)).toBe(false)
  })

  it('lets one of two simultaneous uses through when they hit different processes', async () => {
    const payload = await solve(await fetchChallenge(second))

    const results = await Promise.all([
      first.captcha.verify(payload),
      second.captcha.verify(payload),
    ])

    expect(results.filter(Boolean)).toHaveLength(1)
  })
})
