import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { describe, expect, it } from 'vitest'
import { auditEntries } from '../../../db/schema/admin'
import { AUDIT_PAGE_SIZE } from '../../../domain/operators'
import { buildUser, TEST_PASSWORD } from '../../../tests/support/factories'
import { setUpTestApp } from '../../../tests/support/test-app'
import { addOperator } from './operators'

const testApp = setUpTestApp()

let addresses = 0

/** Every route of the console's API, as the app registered them. */
const adminRoutes = () =>
  testApp.app.routeCatalog
    .filter((route) => route.url.startsWith('/api/admin/'))
    .flatMap((route) => [route.method].flat().map((method) => ({ method, url: route.url })))
    .filter((route) => route.method !== 'HEAD')

function call(method: string, url: string, cookie?: string) {
  return testApp.app.inject({
    method: method as 'GET',
    url,
    remoteAddress: `10.30.0.${++addresses}`,
    headers: { 'accept-language': 'en', ...(cookie ? { cookie } : {}) },
    // A body for the routes that take one: the guard answers before it is read.
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
  })
}

/** An operator's session cookie, with the second factor passed in it or not. */
async function operatorCookie(passed: boolean): Promise<string> {
  const { user, session } = await buildUser(testApp.app)
  if (!session) throw new Error('no session')
  await addOperator(testApp.app.db, user.email)
  if (passed) {
    const setUp = await testApp.app.inject({
      method: 'POST',
      url: '/api/operator-factor/set-up',
      remoteAddress: `10.30.1.${++addresses}`,
      headers: { cookie: session.header },
      payload: { password: TEST_PASSWORD },
    })
    const { secret } = setUp.json()
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate()
    const confirmed = await testApp.app.inject({
      method: 'POST',
      url: '/api/operator-factor/set-up/confirm',
      remoteAddress: `10.30.1.${++addresses}`,
      headers: { cookie: session.header },
      payload: { code },
    })
    expect(confirmed.statusCode).toBe(200)
  }
  return session.header
}

describe('the console’s API', () => {
  it('answers 403 on every route to a visitor, a member and an operator without the factor', async () => {
    const routes = adminRoutes()
    expect(routes.map((route) => `${route.method} ${route.url}`)).toContain('GET /api/admin/audit')
    const member = (await buildUser(testApp.app)).session?.header
    const withoutFactor = await operatorCookie(false)
    for (const { method, url } of routes) {
      for (const [who, cookie, message] of [
        ['a visitor', undefined, 'This is for the people who run Harmonize.'],
        ['a member', member, 'This is for the people who run Harmonize.'],
        [
          'an operator without the factor',
          withoutFactor,
          'Enter a code from your authenticator first.',
        ],
      ] as const) {
        const answer = await call(method, url, cookie)
        expect(answer.statusCode, `${method} ${url} as ${who}`).toBe(403)
        expect(answer.json().message, `${method} ${url} as ${who}`).toBe(message)
      }
    }
  })

  it('shows the audit log to an operator with the factor, newest first, a page at a time', async () => {
    const cookie = await operatorCookie(true)
    const memberId = randomUUID()
    // More entries about one member than a page holds, all at one instant (a minute ago): the
    // pages still follow each other without a gap or a repeat.
    const at = new Date(Date.now() - 60_000)
    await testApp.app.db.insert(auditEntries).values(
      Array.from({ length: AUDIT_PAGE_SIZE + 5 }, (_, index) => ({
        id: `${String(index).padStart(3, '0')}-${randomUUID()}`,
        at,
        actor: 'command line',
        action: 'test.entry',
        memberId,
        memberEmail: 'someone@example.test',
        before: { n: index },
        after: { n: index + 1 },
      })),
    )
    const first = await call('GET', `/api/admin/audit?member=${memberId}`, cookie)
    expect(first.statusCode).toBe(200)
    expect(first.headers['cache-control']).toBe('no-store')
    const one = first.json()
    expect(one.entries).toHaveLength(AUDIT_PAGE_SIZE)
    expect(one.entries[0]).toMatchObject({ action: 'test.entry', memberId, actor: 'command line' })
    expect(one.next).toEqual(expect.any(String))
    const two = (
      await call('GET', `/api/admin/audit?member=${memberId}&after=${one.next}`, cookie)
    ).json()
    expect(two.entries).toHaveLength(5)
    expect(two.next).toBeNull()
    const ids = [...one.entries, ...two.entries].map((entry: { id: string }) => entry.id)
    expect(new Set(ids).size).toBe(AUDIT_PAGE_SIZE + 5)
    expect(ids).toEqual([...ids].sort().reverse())

    // The whole log, newest first, begins with the operator's own set-up.
    const all = (await call('GET', '/api/admin/audit', cookie)).json()
    expect(all.entries.map((entry: { action: string }) => entry.action)).toContain(
      'operators.second-factor-set-up',
    )
  })

  it('is in the OpenAPI document, and the second factor’s set-up is not under it', async () => {
    const { paths } = (await call('GET', '/api/docs')).json()
    for (const { url } of adminRoutes()) expect(paths).toHaveProperty([url])
    expect(paths).toHaveProperty(['/api/operator-factor/set-up'])
    expect(
      Object.keys(paths).filter((path) => path.startsWith('/api/admin/operator-factor')),
    ).toEqual([])
  })

  it('misses no entry written in the same millisecond as a page’s last', async () => {
    const cookie = await operatorCookie(true)
    const memberId = randomUUID()
    // The database's own clock, microseconds apart: stored to the millisecond.
    await testApp.app.db.execute(sql`
      insert into audit_entry (id, at, actor, action, member_id)
      select gen_random_uuid()::text, clock_timestamp(), 'command line', 'test.burst', ${memberId}
      from generate_series(1, ${AUDIT_PAGE_SIZE + 3})`)
    const seen = new Set<string>()
    let after = ''
    do {
      const page = (
        await call(
          'GET',
          `/api/admin/audit?member=${memberId}${after ? `&after=${after}` : ''}`,
          cookie,
        )
      ).json()
      for (const entry of page.entries) seen.add(entry.id)
      after = page.next ?? ''
    } while (after)
    expect(seen.size).toBe(AUDIT_PAGE_SIZE + 3)
  })

  it('says a page that is no page is gone, in the asker’s words', async () => {
    const cookie = await operatorCookie(true)
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const after of [
      'not-a-cursor',
      cursor(['-100000-01-01T00:00:00Z', 'x']),
      cursor(['2026-11-27T10:00:00.000Z', 'a\u0000b']),
      cursor({ at: 1 }),
    ]) {
      const answer = await call('GET', `/api/admin/audit?after=${after}`, cookie)
      expect(answer.statusCode, after).toBe(400)
      expect(answer.json().message).toMatch(
        /^(This page of the list no longer exists\. Start again from the first page\.|.*after.*)$/,
      )
    }
  })
})
