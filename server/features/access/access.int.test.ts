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
