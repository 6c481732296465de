import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildUser } from '../tests/support/factories'
import { createTestEnvironment, type TestEnvironment } from '../tests/support/test-app'
import { createCodes } from './features/access/public'

// Two servers on one PostgreSQL, as behind a balancer: what one of them changes (a sign-out, a
// member's access) holds on the other at once. With Redis they share its cache; without it,
// neither keeps a copy of its own. The command line, run apart from both, is heard too.

const databaseUrl = process.env.TEST_DATABASE_URL
const redisUrl = process.env.TEST_REDIS_URL
const root = path.resolve(import.meta.dirname, '..')

function twoServers(label: string, env: () => Record<string, string>) {
  describe(label, () => {
    let environment: TestEnvironment
    let a: FastifyInstance
    let b: FastifyInstance
    beforeAll(async () => {
      environment = await createTestEnvironment(env())
      a = await environment.build()
      b = await environment.build()
    })
    afterAll(async () => {
      await a.close()
      await b.close()
      await environment.destroy()
    })

    const get = (app: FastifyInstance, url: string, cookie: string) =>
      app.inject({ method: 'GET', url, headers: { cookie } })

    it('a sign-out on one server ends the session on the other at once', async () => {
      const { session } = await buildUser(a)
      const cookie = session?.header ?? ''
      // Each server has answered for the session once (and could have kept the answer).
      expect((await get(a, '/api/session', cookie)).json().user).not.toBeNull()
      expect((await get(b, '/api/session', cookie)).json().user).not.toBeNull()
      const out = await a.inject({
        method: 'POST',
        url: '/api/account/sign-out',
        headers: { cookie, origin: environment.config.publicUrl },
      })
      expect(out.statusCode).toBe(200)
      expect((await get(b, '/api/session', cookie)).json().user).toBeNull()
    })

    it('access given through one server, or by the command line, opens on the other at once', async () => {
      const { session } = await buildUser(a)
      const cookie = session?.header ?? ''
      // The other server has read (and could have kept) "no access".
      expect((await get(b, '/api/access', cookie)).json().hasAccess).toBe(false)
      const [code] = await createCodes(a.db, 1)
      const redeemed = await a.inject({
        method: 'POST',
        url: '/api/account/access-code',
        headers: { cookie, origin: environment.config.publicUrl },
        payload: { code },
      })
      expect(redeemed.statusCode).toBe(200)
      expect((await get(b, '/api/access', cookie)).json().hasAccess).toBe(true)

      // The command line revokes it, on the database directly: both servers hear of it.
      const revoked = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'scripts/cli.ts', 'codes', 'revoke', code ?? ''],
        { cwd: root, env: { ...process.env, ...environment.env } },
      )
      expect(revoked.stdout).toContain(code)
      expect((await get(a, '/api/access', cookie)).json().hasAccess).toBe(false)
      expect((await get(b, '/api/access', cookie)).json().hasAccess).toBe(false)
    })
  })
}

describe.runIf(databaseUrl)('several servers on one PostgreSQL', () => {
  twoServers('without Redis', () => ({}))
  describe.runIf(redisUrl)('with Redis', () => {
    twoServers('sharing Redis', () => ({ REDIS_URL: redisUrl ?? '' }))
  })
})
