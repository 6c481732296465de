import { describe, expect, it } from 'vitest'
import { createSignedInUser } from '../../../tests/support/accounts'
import { setUpTestApp } from '../../../tests/support/test-app'
import { createCodes, revokeCode } from './public'

const testApp = setUpTestApp()

const check = (code: string, remoteAddress = '203.0.113.9') =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/access-codes/check',
    payload: { code },
    remoteAddress,
  })

describe('checking an invitation code before signing up', () => {
  it('says whether the code is available, used, revoked or unknown, to a visitor', async () => {
    const [available, used, revoked] = await createCodes(testApp.app.db, 3)
    const { cookie } = await createSignedInUser(testApp.app)
    const redeemed = await testApp.app.inject({
      method: 'POST',
      url: '/api/account/access-code',
      headers: { cookie },
      payload: { code: used },
    })
    expect(redeemed.statusCode).toBe(200)
    await revokeCode(testApp.app.db, revoked ?? '')

    const statuses = []
    for (const code of [available?.toLowerCase(), used, revoked, 'HZ-2222-2222']) {
      const answer = await check(` ${code} `)
      expect(answer.statusCode).toBe(200)
      statuses.push(answer.json().status)
    }
    expect(statuses).toEqual(['available', 'used', 'revoked', 'unknown'])
  })

  it('is limited per address, as any check of a secret is', async () => {
    const answers = []
    for (let i = 0; i < 21; i++)
      answers.push((await check('HZ-3333-3333', '203.0.113.77')).statusCode)
    expect(answers.slice(0, 20).every((status) => status === 200)).toBe(true)
    expect(answers[20]).toBe(429)
    expect((await check('HZ-3333-3333', '203.0.113.78')).statusCode).toBe(200)
  })
})

describe('the session answer', () => {
  const session = async (cookie?: string) =>
    (
      await testApp.app.inject({
        method: 'GET',
        url: '/api/session',
        headers: cookie ? { cookie } : {},
      })
    ).json()

  it('brings a member’s access with it, the same as /api/access, and follows its changes', async () => {
    const { cookie } = await createSignedInUser(testApp.app)
    const before = await session(cookie)
    expect(before.user).not.toBeNull()
    expect(before.access).toMatchObject({ hasAccess: false })
    const access = await testApp.app.inject({
      method: 'GET',
      url: '/api/access',
      headers: { cookie },
    })
    expect(before.access).toEqual(access.json())

    const [code] = await createCodes(testApp.app.db, 1)
    await testApp.app.inject({
      method: 'POST',
      url: '/api/account/access-code',
      headers: { cookie },
      payload: { code },
    })
    expect((await session(cookie)).access).toMatchObject({ hasAccess: true })
    await revokeCode(testApp.app.db, code ?? '')
    expect((await session(cookie)).access).toMatchObject({ hasAccess: false })
  })

  it('tells a visitor nothing about access', async () => {
    expect(await session()).toEqual({ user: null })
  })
})
