import { eq } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { describe, expect, it } from 'vitest'
import { auditEntries, operatorFactors, sessionSecondFactors } from '../../../db/schema/admin'
import { sessions } from '../../../db/schema/auth'
import { buildUser, createSession, TEST_PASSWORD } from '../../../tests/support/factories'
import { setUpTestApp } from '../../../tests/support/test-app'
import { addOperator, removeOperator } from './operators'
import { factorKeys, passSecondFactor } from './second-factor'

const testApp = setUpTestApp()

// Each test answers from an address of its own: the code limits count per address too.
let addresses = 0
const nextAddress = () => `10.20.0.${++addresses}`

function caller(cookie?: string) {
  const remoteAddress = nextAddress()
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    testApp.app.inject({
      method,
      url,
      remoteAddress,
      headers: { 'accept-language': 'en', ...(cookie ? { cookie } : {}) },
      ...(body === undefined ? {} : { payload: body as object }),
    })
  return {
    status: () => call('GET', '/api/operator-factor'),
    setUp: (password = TEST_PASSWORD) => call('POST', '/api/operator-factor/set-up', { password }),
    confirm: (code: string) => call('POST', '/api/operator-factor/set-up/confirm', { code }),
    verify: (code: string) => call('POST', '/api/operator-factor/verify', { code }),
  }
}

/** An operator signed in, with a caller for their session. */
async function operator() {
  const { user, session } = await buildUser(testApp.app)
  if (!session) throw new Error('no session')
  await addOperator(testApp.app.db, user.email)
  return { user, cookie: session.header, as: caller(session.header) }
}

/** The authenticator app, from the key the set-up answered. */
const authenticator = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) })

describe('the operator’s second factor', () => {
  it('is for operators only: a visitor is asked to sign in, a member is refused', async () => {
    const visitor = caller()
    expect((await visitor.status()).statusCode).toBe(401)
    expect((await visitor.setUp()).statusCode).toBe(401)
    const { session } = await buildUser(testApp.app)
    const member = caller(session?.header)
    for (const answer of [
      await member.status(),
      await member.setUp(),
      await member.confirm('123456'),
      await member.verify('123456'),
    ]) {
      expect(answer.statusCode).toBe(403)
      expect(answer.json().message).toBe('This is for the people who run Harmonize.')
    }
  })

  it('is set up with a code from the new key, gives recovery codes once, and is passed in that session', async () => {
    const { user, as } = await operator()
    expect((await as.status()).json()).toEqual({ enrolled: false, passed: false })

    const setUp = await as.setUp()
    expect(setUp.statusCode).toBe(200)
    const { uri, secret } = setUp.json()
    expect(uri).toMatch(/^otpauth:\/\/totp\/Harmonize:/)
    expect(uri).toContain(`secret=${secret}`)
    expect(uri).toContain('issuer=Harmonize')
    // Kept sealed: the database alone does not give the codes.
    const [stored] = await testApp.app.db
      .select()
      .from(operatorFactors)
      .where(eq(operatorFactors.userId, user.id))
    expect(stored?.secret).not.toContain(secret)

    const wrong = await as.confirm('000000')
    expect(wrong.statusCode).toBe(400)
    expect((await as.status()).json()).toEqual({ enrolled: false, passed: false })

    const confirmed = await as.confirm(authenticator(secret).generate())
    expect(confirmed.statusCode).toBe(200)
    const { recoveryCodes } = confirmed.json()
    expect(recoveryCodes).toHaveLength(10)
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/)
    expect(new Set(recoveryCodes).size).toBe(10)
    expect((await as.status()).json()).toEqual({ enrolled: true, passed: true })

    // Set up once: a new key is not given over a confirmed one.
    expect((await as.setUp()).statusCode).toBe(409)
    const entries = await testApp.app.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.memberId, user.id))
    expect(entries.map((entry) => [entry.action, entry.actor])).toContainEqual([
      'operators.second-factor-set-up',
      user.email,
    ])
  })

  it('is asked again in each new session, takes each code once and each recovery code once', async () => {
    const { user, as } = await operator()
    const { secret } = (await as.setUp()).json()
    const phone = authenticator(secret)
    const code = phone.generate()
    const { recoveryCodes } = (await as.confirm(code)).json()

    const next = caller((await createSession(testApp.app, user.id)).header)
    expect((await next.status()).json()).toEqual({ enrolled: true, passed: false })
    // The code that confirmed the set-up was spent there.
    const replayed = await next.verify(code)
    expect(replayed.statusCode).toBe(400)
    expect(replayed.json().message).toMatch(/^This code is not right, or it was already used\./)
    expect((await next.status()).json().passed).toBe(false)

    // A recovery code, typed loosely, passes; the same one never again.
    const loose = ` ${recoveryCodes[0].toLowerCase().replace('-', ' ')} `
    expect((await next.verify(loose)).json()).toEqual({ enrolled: true, passed: true })
    const third = caller((await createSession(testApp.app, user.id)).header)
    expect((await third.verify(recoveryCodes[0])).statusCode).toBe(400)
    expect((await third.verify(recoveryCodes[1])).json().passed).toBe(true)
    const used = await testApp.app.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.memberId, user.id))
    expect(used.filter((entry) => entry.action === 'operators.recovery-code-used')).toHaveLength(2)
  })

  it('ends with the session, and with the role', async () => {
    const { user, cookie, as } = await operator()
    const { secret } = (await as.setUp()).json()
    const phone = authenticator(secret)
    await as.confirm(phone.generate())
    expect((await as.status()).json().passed).toBe(true)
    const passes = () =>
      testApp.app.db
        .select()
        .from(sessionSecondFactors)
        .where(eq(sessionSecondFactors.userId, user.id))
    expect(await passes()).toHaveLength(1)
    const signedOut = await testApp.app.inject({
      method: 'POST',
      url: '/api/account/sign-out',
      headers: { cookie },
    })
    expect(signedOut.statusCode).toBeLessThan(300)
    expect(await passes()).toHaveLength(0)

    const { header } = await createSession(testApp.app, user.id)
    const again = caller(header)
    expect((await again.status()).json()).toEqual({ enrolled: true, passed: false })

    await removeOperator(testApp.app.db, user.email)
    expect((await again.status()).statusCode).toBe(403)
    await addOperator(testApp.app.db, user.email)
    // Made an operator again: the old key is gone, a set-up starts afresh.
    expect((await again.status()).json()).toEqual({ enrolled: false, passed: false })
  })

  it('asks for the password again before a new key: a session alone does not enrol a phone', async () => {
    const { as } = await operator()
    const wrong = await as.setUp('not-the-password')
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().message).toBe('The current password is not correct.')
    expect((await as.setUp('')).statusCode).toBe(400)
    expect((await as.setUp()).statusCode).toBe(200)
  })

  it('allows five tries per operator in a quarter of an hour, from any address', async () => {
    const { cookie, as } = await operator()
    await as.setUp()
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await caller(cookie).confirm('000000')).statusCode).toBe(400)
    }
    const limited = await caller(cookie).confirm('000000')
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('gives the tries back on a right answer: operators at one address are not locked out by each other', async () => {
    const remoteAddress = nextAddress()
    for (let attempt = 0; attempt < 7; attempt++) {
      const { cookie } = await operator()
      const answer = await testApp.app.inject({
        method: 'POST',
        url: '/api/operator-factor/set-up',
        remoteAddress,
        headers: { cookie },
        payload: { password: TEST_PASSWORD },
      })
      expect(answer.statusCode, `operator ${attempt + 1}`).toBe(200)
    }
  })

  it('allows five tries per address in a quarter of an hour, whatever the operator', async () => {
    const remoteAddress = nextAddress()
    const answers: number[] = []
    for (let attempt = 0; attempt < 6; attempt++) {
      const { cookie } = await operator()
      const answer = await testApp.app.inject({
        method: 'POST',
        url: '/api/operator-factor/verify',
        remoteAddress,
        headers: { cookie },
        payload: { code: '000000' },
      })
      answers.push(answer.statusCode)
    }
    // No set-up yet: each is refused as such (409) until the address has had its five.
    expect(answers).toEqual([409, 409, 409, 409, 409, 429])
  })

  it('lasts twelve hours in a session, and a set-up waits a quarter of an hour for its code', async () => {
    const { user, as } = await operator()
    const { secret } = (await as.setUp()).json()
    await as.confirm(authenticator(secret).generate())
    expect((await as.status()).json().passed).toBe(true)
    await testApp.app.db
      .update(sessionSecondFactors)
      .set({ passedAt: new Date(Date.now() - 13 * 3_600_000) })
      .where(eq(sessionSecondFactors.userId, user.id))
    expect((await as.status()).json()).toEqual({ enrolled: true, passed: false })

    const late = await operator()
    const key = (await late.as.setUp()).json().secret
    await testApp.app.db
      .update(operatorFactors)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(operatorFactors.userId, late.user.id))
    const expired = await late.as.confirm(authenticator(key).generate())
    expect(expired.statusCode).toBe(409)
    expect(expired.json().message).toMatch(/^Start the set-up again/)
  })

  it('says how to get back in when the server’s secret changed since the set-up', async () => {
    const { user, as } = await operator()
    const { secret } = (await as.setUp()).json()
    const { recoveryCodes } = (await as.confirm(authenticator(secret).generate())).json()
    const [session] = await testApp.app.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, user.id))
    const rotated = factorKeys('another secret of at least thirty-two characters')
    const attempt = (code: string) =>
      passSecondFactor(testApp.app.db, rotated, user, session?.id ?? '', code)
    await expect(attempt('123456')).rejects.toMatchObject({
      statusCode: 409,
      messageKey: 'operators.factorUnreadable',
    })
    // The recovery codes' hashes were keyed with the old secret too: the command line resets.
    await expect(attempt(recoveryCodes[0])).rejects.toMatchObject({ statusCode: 400 })
  })

  it('refuses a code that is no code', async () => {
    const { as } = await operator()
    await as.setUp()
    expect((await as.confirm('')).statusCode).toBe(400)
    expect((await as.verify('x'.repeat(21))).statusCode).toBe(400)
  })
})
