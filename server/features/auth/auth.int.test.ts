import { eq } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { users } from '../../../db/schema/auth'
import { messageText } from '../../../domain/messages'
import { passHumanCheckIn } from '../../../tests/support/human-check'
import {
  outboxMessages,
  waitForOutboxCode,
  waitForOutboxMessage,
} from '../../../tests/support/outbox'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import { waitText } from '../../i18n'
import { verifyPassword } from '../../plugins/auth'
import { sealer } from '../../sealer'
import { createCodes } from '../access/public'
import { signInDelayMs } from './service'

const PASSWORD = 'Calm-Water-432'

let environment: TestEnvironment
let app: FastifyInstance
let counter = 0

beforeAll(async () => {
  environment = await createTestEnvironment()
  app = await environment.build()
})

afterAll(async () => {
  await app.close()
  await environment.destroy()
})

// Each test comes from its own address, so per-IP limits hit by one test never touch another.
let clientIp = '127.0.0.1'
beforeEach(() => {
  clientIp = `10.0.${Math.floor(counter / 200)}.${(counter % 200) + 1}`
})

afterEach(() => {
  vi.useRealTimers()
})

/** A fresh address per test, so rate limits and codes of one test never touch another. */
const newEmail = () => `person${++counter}.${Date.now()}@example.com`

const humanCheck = () => passHumanCheckIn(app)

function post(url: string, payload: object, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, payload, headers, remoteAddress: clientIp })
}

/** The code of the newest mail to `email`, once more than `already` have arrived. */
const newestCode = (email: string, already = 0) => waitForOutboxCode(app, email, { already })

async function mailCount(email: string) {
  return (await outboxMessages(app, email)).length
}

/** The states of the jobs of `queue` about `email`. */
async function jobStates(queue: string, email: string) {
  const { rows } = await app.database.executeSql(
    `select state from pgboss.job where name = $1 and data->'data'->>'email' = $2`,
    [queue, email],
  )
  return rows.map((row) => (row as { state: string }).state)
}

function cookieOf(response: LightMyRequestResponse): string {
  return response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
}

async function signUp(email: string, extra: object = {}) {
  return post('/api/account/sign-up', {
    name: 'Ana Water',
    email,
    password: PASSWORD,
    humanCheck: await humanCheck(),
    ...extra,
  })
}

async function signIn(email: string, password = PASSWORD, rememberMe = false) {
  return post('/api/account/sign-in', {
    email,
    password,
    rememberMe,
    humanCheck: await humanCheck(),
  })
}

/** A confirmed account and the cookie of one signed-in session. */
async function confirmedUser(email = newEmail()) {
  expect((await signUp(email)).statusCode).toBe(200)
  const confirm = await post('/api/account/confirm', { email, code: await newestCode(email) })
  expect(confirm.statusCode).toBe(200)
  const response = await signIn(email)
  expect(response.statusCode).toBe(200)
  return { email, cookie: cookieOf(response) }
}

async function sessionUser(cookie: string) {
  const response = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })
  return response.json().user as { email: string; name: string } | null
}

describe('sign-up, confirmation and sign-in', () => {
  it('e-mails a code, confirms the address, then signs in and out', async () => {
    const email = newEmail()
    const response = await signUp(` ${email.toUpperCase()} `, { code: 'INVITE-42' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ ok: true })
    // The account is made by the job the sign-up queued, which mails the code.
    await newestCode(email)
    const [stored] = await app.db.select().from(users).where(eq(users.email, email))
    expect(stored).toMatchObject({ email, emailVerified: false, signupCode: 'INVITE-42' })
    expect(stored?.name).toBe('Ana Water')

    // Not confirmed yet: the right password is told to confirm first, and gets a new code.
    const early = await signIn(email)
    expect(early.statusCode).toBe(403)
    expect(early.json().message).toBe(messageText('auth.emailNotVerifiedCodeSent', 'en'))
    // The reason tells the client to offer the code page; any other 403 must not.
    expect(early.json().reason).toBe('auth.emailNotVerifiedCodeSent')
    const code = await newestCode(email, 1)
    expect((await post('/api/account/confirm', { email, code })).statusCode).toBe(200)

    const signedIn = await signIn(email)
    expect(signedIn.statusCode).toBe(200)
    expect(signedIn.json().user).toMatchObject({ email, name: 'Ana Water', language: 'en' })
    const cookie = cookieOf(signedIn)
    expect(await sessionUser(cookie)).toMatchObject({ email })

    const out = await post('/api/account/sign-out', {}, { cookie })
    expect(out.statusCode).toBe(200)
    expect(await sessionUser(cookie)).toBeNull()
  })

  it('an access code given at sign-up counts once the address is confirmed', async () => {
    const [code] = await createCodes(app.db, 1, 'invitation')
    const email = newEmail()
    await signUp(email, { code: code?.toLowerCase() })
    await post('/api/account/confirm', { email, code: await newestCode(email) })
    const cookie = cookieOf(await signIn(email))
    const access = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie } })
    expect(access.json()).toEqual({
      hasAccess: true,
      flow: { kind: 'code', status: 'ACTIVE' },
      standing: 'code',
    })
  })

  it('stores the password as an Argon2id hash with OWASP parameters', async () => {
    const { email } = await confirmedUser()
    const [row] = await app.db.select().from(users).where(eq(users.email, email))
    const account = await app.db.query.accounts.findFirst({
      where: (table, { eq: equals }) => equals(table.userId, row?.id ?? ''),
    })
    expect(account?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  })

  it('enforces the password hint on the server, with the hint as the error', async () => {
    const response = await post('/api/account/sign-up', {
      name: 'Ana',
      email: newEmail(),
      password: 'alllowercase1!',
      humanCheck: await humanCheck(),
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().issues).toContainEqual({
      field: 'body.password',
      message: 'Please use minimal 8 characters (lower and upper letters, numbers and symbols)',
    })
  })

  it('answers in Spanish when the client speaks Spanish', async () => {
    const response = await post(
      '/api/account/sign-up',
      { name: ' ', email: 'not-an-email', password: PASSWORD, humanCheck: 'x' },
      { 'accept-language': 'es' },
    )
    expect(response.statusCode).toBe(400)
    const messages = response.json().issues.map((issue: { message: string }) => issue.message)
    expect(messages).toContain('Por favor, introduce tu nombre completo')
    expect(messages).toContain('Por favor, introduce un correo electrónico válido')
  })

  it('refuses wrong credentials with the spec message', async () => {
    const { email } = await confirmedUser()
    const response = await signIn(email, 'Wrong-Password-1')
    expect(response.statusCode).toBe(401)
    expect(response.json().message).toBe('Incorrect username or password.')
    const unknown = await signIn(newEmail())
    expect(unknown.statusCode).toBe(401)
    expect(unknown.json().message).toBe('Incorrect username or password.')
  })

  it('sets a 30-day cookie with Remember me and a browser-session cookie without', async () => {
    const { email } = await confirmedUser()
    const remembered = (await signIn(email, PASSWORD, true)).cookies.find((c) =>
      c.name.includes('session_token'),
    )
    const days = ((remembered?.maxAge ?? 0) as number) / 86_400
    expect(days).toBeGreaterThan(29)
    const forgotten = (await signIn(email, PASSWORD, false)).cookies.find((c) =>
      c.name.includes('session_token'),
    )
    expect(forgotten?.maxAge).toBeUndefined()
    expect(forgotten?.expires).toBeUndefined()
  })
})

describe('the human check', () => {
  it('is required, and a solution works only once', async () => {
    const email = newEmail()
    const missing = await post('/api/account/forgot-password', { email })
    expect(missing.statusCode).toBe(400)
    const payload = await humanCheck()
    expect(
      (await post('/api/account/forgot-password', { email, humanCheck: payload })).statusCode,
    ).toBe(200)
    const replay = await post('/api/account/forgot-password', { email, humanCheck: payload })
    expect(replay.statusCode).toBe(400)
    expect(replay.json().message).toBe('Please complete the human check before signing in.')
  })
})

describe('no account enumeration', () => {
  it('sign-up answers the same for a taken address and mails its owner instead', async () => {
    const { email } = await confirmedUser()
    const before = await mailCount(email)
    const fresh = await signUp(newEmail())
    const taken = await signUp(email)
    expect(taken.statusCode).toBe(fresh.statusCode)
    expect(taken.json()).toEqual(fresh.json())
    const notice = await waitForOutboxMessage(app, email, { already: before })
    expect(notice.text).not.toMatch(/\b\d{6}\b/)
  })

  it('sign-up does the same work in the request for a taken address as for a new one', async () => {
    // An outside probe told taken addresses by the answer time (27 against 36 ms): the request
    // then wrote the account and its code for a new address only. Now every sign-up hashes the
    // password and queues one job, and whatever differs happens in that job, later.
    const { email: confirmed } = await confirmedUser()
    const unconfirmed = newEmail()
    await signUp(unconfirmed)
    await newestCode(unconfirmed)
    const fresh = newEmail()
    const seal = sealer<string>(app.secrets.authSecret, 'sign-up queue')
    const shapes: string[][] = []
    for (const email of [fresh, confirmed, unconfirmed]) {
      const mails = await mailCount(email)
      const { rows: now } = await app.database.executeSql('select now() as since')
      const since = (now[0] as { since: Date }).since
      const password = `Other-Water-${counter}!`
      const response = await signUp(email, { password })
      expect(response.json()).toEqual({ ok: true })
      await vi.waitFor(async () => expect(await mailCount(email)).toBe(mails + 1), {
        timeout: 15_000,
      })
      // Every job about this address since just before the request.
      const { rows } = await app.database.executeSql(
        `select name, data->'data' as data, created_on, started_on from pgboss.job
          where (data->'data'->>'email' = $1 or data->'data'->>'to' = $1) and created_on >= $2
          order by created_on`,
        [email, since],
      )
      const jobs = rows as {
        name: string
        data: Record<string, string>
        created_on: Date
        started_on: Date
      }[]
      const queued = jobs.filter((job) => job.name === 'account.sign-up')
      expect(queued).toHaveLength(1)
      const [ownJob] = queued
      if (!ownJob) throw new Error(`no sign-up job for ${email}`)
      // The password was hashed in the request, whatever the address: Argon2id, OWASP's row.
      const hash = seal.open(String(ownJob.data.sealedHash))
      expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
      expect(await verifyPassword({ hash, password })).toBe(true)
      shapes.push(Object.keys(ownJob.data).sort())
      // Its mail (a code, or a note to the owner) was queued by the job once it ran, not by the
      // request.
      const mail = jobs.filter((job) => job.name === 'mail')
      expect(mail).toHaveLength(1)
      expect(new Date(mail[0]?.created_on ?? 0).getTime()).toBeGreaterThanOrEqual(
        new Date(ownJob.started_on).getTime(),
      )
    }
    expect(shapes[1]).toEqual(shapes[0])
    expect(shapes[2]).toEqual(shapes[0])
  })

  it('forgot-password and resend answer the same for unknown and known addresses', async () => {
    const { email } = await confirmedUser()
    for (const url of ['/api/account/forgot-password', '/api/account/resend-code']) {
      const known = await post(url, { email, humanCheck: await humanCheck() })
      const unknown = await post(url, { email: newEmail(), humanCheck: await humanCheck() })
      expect(known.statusCode).toBe(200)
      expect(unknown.statusCode).toBe(known.statusCode)
      expect(unknown.json()).toEqual(known.json())
    }
  })
})

describe('one-time codes', () => {
  it('work once', async () => {
    const email = newEmail()
    await signUp(email)
    const code = await newestCode(email)
    expect((await post('/api/account/confirm', { email, code })).statusCode).toBe(200)
    const again = await post('/api/account/confirm', { email, code })
    expect(again.statusCode).toBe(400)
  })

  it('expire after 10 minutes', async () => {
    const email = newEmail()
    await signUp(email)
    const code = await newestCode(email)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 + 1_000 })
    const late = await post('/api/account/confirm', { email, code })
    expect(late.statusCode).toBe(400)
    expect(late.json().message).toBe(messageText('auth.codeExpired', 'en'))
  })

  it('stop working after 3 wrong attempts, even with the right code', async () => {
    const email = newEmail()
    await signUp(email)
    const code = await newestCode(email)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await post('/api/account/confirm', { email, code: wrong })
      expect(response.json().message).toBe(messageText('auth.codeInvalid', 'en'))
    }
    const locked = await post('/api/account/confirm', { email, code })
    expect(locked.statusCode).toBe(400)
    expect(locked.json().message).toBe(messageText('auth.codeTooManyAttempts', 'en'))
  })

  it('are stored hashed, never as the code itself', async () => {
    const email = newEmail()
    await signUp(email)
    const code = await newestCode(email)
    const rows = await app.db.query.verifications.findMany()
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((row) => row.value.includes(code))).toBe(false)
  })
})

describe('rate limits', () => {
  it('refuse an account after repeated failed sign-ins, even with the right password', async () => {
    const { email } = await confirmedUser()
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(email, 'Wrong-Password-1')).statusCode).toBe(401)
    }
    const refused = await signIn(email)
    expect(refused.statusCode).toBe(429)
    // How long to wait, in words, agreeing with Retry-After (15 minutes from the first try).
    const wait = Number(refused.headers['retry-after'])
    expect(wait).toBeGreaterThan(14 * 60)
    expect(refused.json().message).toBe(
      `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minutes, or reset your password to sign in now.`,
    )
  }, 30_000)

  it('limit mail sent to one address', async () => {
    const email = newEmail()
    const statuses: number[] = []
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await post('/api/account/forgot-password', {
        email,
        humanCheck: await humanCheck(),
      })
      statuses.push(response.statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})

describe('password changes and resets', () => {
  it('changing the password keeps this session and ends the others', async () => {
    const { email, cookie } = await confirmedUser()
    const other = cookieOf(await signIn(email))
    const response = await post(
      '/api/account/change-password',
      { currentPassword: PASSWORD, newPassword: 'New-Calm-Water-528' },
      { cookie },
    )
    expect(response.statusCode).toBe(200)
    const current = cookieOf(response) || cookie
    expect(await sessionUser(current)).toMatchObject({ email })
    expect(await sessionUser(other)).toBeNull()
    expect((await signIn(email, 'New-Calm-Water-528')).statusCode).toBe(200)
  })

  it('refuses a wrong current password with a clear message', async () => {
    const { cookie } = await confirmedUser()
    const response = await post(
      '/api/account/change-password',
      { currentPassword: 'Not-The-One-1', newPassword: 'New-Calm-Water-528' },
      { cookie },
    )
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe(messageText('auth.currentPasswordIncorrect', 'en'))
  })

  it('a reset with the e-mailed code sets the password and ends every session', async () => {
    const { email, cookie } = await confirmedUser()
    const before = await mailCount(email)
    await post('/api/account/forgot-password', { email, humanCheck: await humanCheck() })
    const code = await newestCode(email, before)
    const wrongCode = await post('/api/account/reset-password', {
      email,
      code: code === '000000' ? '111111' : '000000',
      password: 'Reset-Water-639',
      humanCheck: await humanCheck(),
    })
    expect(wrongCode.statusCode).toBe(400)
    expect(wrongCode.json().message).toBe(messageText('auth.codeInvalid', 'en'))

    const reset = await post('/api/account/reset-password', {
      email,
      code,
      password: 'Reset-Water-639',
      humanCheck: await humanCheck(),
    })
    expect(reset.statusCode).toBe(200)
    expect(await sessionUser(cookie)).toBeNull()
    expect((await signIn(email, PASSWORD)).statusCode).toBe(401)
    expect((await signIn(email, 'Reset-Water-639')).statusCode).toBe(200)
  })
})

describe('changing the e-mail address', () => {
  it('confirms the new address with a code sent to it', async () => {
    const { cookie } = await confirmedUser()
    const next = newEmail()
    const request = await post('/api/account/email-change', { newEmail: next }, { cookie })
    expect(request.statusCode).toBe(200)
    const confirm = await post(
      '/api/account/email-change/confirm',
      { newEmail: next, code: await newestCode(next) },
      { cookie },
    )
    expect(confirm.statusCode).toBe(200)
    expect(await sessionUser(cookieOf(confirm) || cookie)).toMatchObject({ email: next })
  })

  it('limits the codes mailed to one address, however many accounts ask for it', async () => {
    const target = newEmail()
    const accounts = []
    for (let i = 0; i < 4; i++) accounts.push(await confirmedUser())
    const statuses: number[][] = []
    const refusals: LightMyRequestResponse[] = []
    // Each account asks from an address of its own: three codes an address and client, ten an
    // address in all, as for sign-ups and resets (it once sent fifteen from three accounts).
    for (const [index, { cookie }] of accounts.entries()) {
      const own: number[] = []
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/account/email-change',
          payload: { newEmail: target },
          headers: { cookie, 'accept-language': 'es' },
          remoteAddress: `10.250.${counter % 200}.${index + 1}`,
        })
        own.push(response.statusCode)
        if (response.statusCode === 429) refusals.push(response)
      }
      statuses.push(own)
    }
    expect(statuses).toEqual([
      [200, 200, 200, 429, 429],
      [200, 200, 200, 429, 429],
      [200, 200, 200, 429, 429],
      [200, 429, 429, 429, 429],
    ])
    // Each refusal says how long to wait, in the asker's language, as Retry-After does.
    for (const refusal of refusals) {
      const wait = Number(refusal.headers['retry-after'])
      expect(refusal.json().message).toBe(
        `Demasiados intentos. Vuelve a intentarlo dentro de ${waitText(wait, 'es')}.`,
      )
      expect(refusal.json().message).toMatch(/dentro de (1 hora|\d+ minutos)\.$/)
    }
    // The fourth account is refused by the address's own hour, not only by its client's limit.
    const waits = refusals.map((refusal) => Number(refusal.headers['retry-after']))
    expect(Math.max(...waits)).toBeGreaterThan(50 * 60)
    await vi.waitFor(async () => expect(await mailCount(target)).toBe(10), { timeout: 15_000 })
  }, 90_000)

  it('needs a signed-in user', async () => {
    const response = await post('/api/account/email-change', { newEmail: newEmail() })
    expect(response.statusCode).toBe(401)
    expect(response.json().message).toBe('Please sign in to continue.')
  })
})

describe('cross-site requests', () => {
  it('are refused before they reach an account endpoint', async () => {
    const response = await post(
      '/api/account/forgot-password',
      { email: newEmail(), humanCheck: await humanCheck() },
      { origin: 'https://evil.example' },
    )
    expect(response.statusCode).toBe(403)
    expect(response.json().reason).toBeUndefined()
  })
})

describe('hostile input', () => {
  it.each([
    ['name', { name: 'Ana\u0000Water' }],
    ['code', { code: 'INVITE\u0000' }],
    ['name', { name: 'Ana\u001bWater' }],
    ['code', { code: 'A\u0085B' }],
    ['password', { password: 'Calm-Water-432\u0000' }],
  ])(
    'a control character in %s gets the same 400 for a registered and a new address',
    async (field, extra) => {
      const { email } = await confirmedUser()
      const registered = await signUp(email, extra)
      const fresh = await signUp(newEmail(), extra)
      for (const response of [registered, fresh]) {
        expect(response.statusCode).toBe(400)
        expect(response.json().issues).toContainEqual({
          field: `body.${field}`,
          message: messageText('validation.controlCharacters', 'en'),
        })
      }
      expect(fresh.json().issues).toEqual(registered.json().issues)
    },
  )

  it('a name too long is told it is too long, with the limit, in both languages', async () => {
    const name = 'N'.repeat(121)
    const english = await signUp(newEmail(), { name })
    expect(english.statusCode).toBe(400)
    expect(english.json().issues).toEqual([
      { field: 'body.name', message: 'This is too long: at most 120 characters.' },
    ])
    const spanish = await post(
      '/api/account/sign-up',
      { name, email: newEmail(), password: `${'x'.repeat(125)}A-1!`, humanCheck: 'x' },
      { 'accept-language': 'es' },
    )
    expect(spanish.statusCode).toBe(400)
    expect(spanish.json().issues).toEqual([
      { field: 'body.name', message: 'Es demasiado largo: como máximo 120 caracteres.' },
      { field: 'body.password', message: 'Es demasiado largo: como máximo 128 caracteres.' },
    ])
  })

  it('three sign-ups of one new address at once all answer ok, and make one account', async () => {
    const email = newEmail()
    const responses = await Promise.all([signUp(email), signUp(email), signUp(email)])
    for (const response of responses) {
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ ok: true })
    }
    await newestCode(email)
    expect(await app.db.select().from(users).where(eq(users.email, email))).toHaveLength(1)
  })
})

describe('password guessing', () => {
  const wrongGuesses = (email: string, count: number, ips?: (i: number) => string) =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const payload = { email, password: 'Wrong-Password-1', humanCheck: await humanCheck() }
        return app.inject({
          method: 'POST',
          url: '/api/account/sign-in',
          payload,
          remoteAddress: ips ? ips(i) : clientIp,
        })
      }),
    )

  it('checks no more than five of 60 parallel guesses from one address', async () => {
    const { email } = await confirmedUser()
    const responses = await wrongGuesses(email, 60)
    const checked = responses.filter((response) => response.statusCode === 401)
    expect(checked.length).toBeLessThanOrEqual(5)
    expect(responses.filter((response) => response.statusCode === 429)).toHaveLength(
      60 - checked.length,
    )
  }, 60_000)

  it('refuses the right password after 39 parallel wrong guesses, of which five were checked', async () => {
    const { email } = await confirmedUser()
    const responses = await wrongGuesses(email, 39)
    expect(responses.filter((response) => response.statusCode === 401).length).toBeLessThanOrEqual(
      5,
    )
    const right = await signIn(email)
    expect(right.statusCode).toBe(429)
  }, 60_000)

  it('keeps the owner able to sign in from their own address while a stranger is locked out', async () => {
    const { email } = await confirmedUser()
    await wrongGuesses(email, 5, () => '10.250.0.1')
    const stranger = await app.inject({
      method: 'POST',
      url: '/api/account/sign-in',
      payload: { email, password: PASSWORD, humanCheck: await humanCheck() },
      remoteAddress: '10.250.0.1',
    })
    expect(stranger.statusCode).toBe(429)
    expect((await signIn(email)).statusCode).toBe(200)
  }, 60_000)

  it('bounds guesses spread over many addresses; a password reset lets the owner in at once', async () => {
    const { email } = await confirmedUser()
    const responses = await wrongGuesses(email, 60, (i) => `10.251.${i}.1`)
    expect(responses.filter((response) => response.statusCode === 401).length).toBeLessThanOrEqual(
      50,
    )
    const owner = await signIn(email)
    expect(owner.statusCode).toBe(429)
    expect(owner.json().message).toMatch(
      /^Too many failed sign-in attempts\. Try again in \d+ minutes, or reset your password/,
    )

    const before = await mailCount(email)
    await post('/api/account/forgot-password', { email, humanCheck: await humanCheck() })
    const reset = await post('/api/account/reset-password', {
      email,
      code: await newestCode(email, before),
      password: 'Reset-Water-741',
      humanCheck: await humanCheck(),
    })
    expect(reset.statusCode).toBe(200)
    expect((await signIn(email, 'Reset-Water-741')).statusCode).toBe(200)
  }, 120_000)

  it('slows answers down after three attempts, never by more than two seconds', () => {
    expect([1, 2, 3].map(signInDelayMs)).toEqual([0, 0, 0])
    expect(signInDelayMs(4)).toBe(400)
    expect(signInDelayMs(5)).toBe(800)
    expect(signInDelayMs(1_000)).toBe(2_000)
  })
})

describe('signing in before confirming', () => {
  it('says a new code was sent only when one really was', async () => {
    const email = newEmail()
    await signUp(email)
    await newestCode(email)
    const answers: string[] = []
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await signIn(email)
      expect(response.statusCode).toBe(403)
      answers.push(response.json().message)
    }
    const sent = answers.filter(
      (message) => message === messageText('auth.emailNotVerifiedCodeSent', 'en'),
    ).length
    // Three mails an address per 15 minutes: the sign-up's and two more.
    expect(sent).toBe(2)
    expect(answers.slice(sent)).toEqual(
      Array(12 - sent).fill(messageText('auth.emailNotVerified', 'en')),
    )
    await newestCode(email, sent)
    await vi.waitFor(async () => {
      const { rows } = await app.database.executeSql(
        `select count(*)::int as n from pgboss.job where name in ('mail', 'account.confirmation-code') and state <> 'completed'`,
      )
      expect(rows[0]?.n).toBe(0)
    })
    expect(await mailCount(email)).toBe(1 + sent)
  }, 60_000)
})

describe('a message that cannot be queued', () => {
  // A real fault: the queue's table refuses mail to addresses starting with `undeliverable`,
  // as a full disk or a failing database would refuse the insert.
  async function refuseMail<T>(run: () => Promise<T>): Promise<T> {
    // On the table that holds the mail queue's jobs, and not checked against the rows already there.
    const { rows } = await app.database.executeSql(
      `select table_name from pgboss.queue where name = 'mail'`,
    )
    const table = `pgboss.${String(rows[0]?.table_name)}`
    await app.database.executeSql(
      `alter table ${table} add constraint refuse_undeliverable
       check (data->'data'->>'to' not like 'undeliverable%') not valid`,
    )
    try {
      return await run()
    } finally {
      await app.database.executeSql(`alter table ${table} drop constraint refuse_undeliverable`)
    }
  }
  const undeliverable = () => `undeliverable-${newEmail()}`

  it('keeps a sign-up job retrying, with no account made, until its code can be queued', async () => {
    const email = undeliverable()
    await refuseMail(async () => {
      expect((await signUp(email)).statusCode).toBe(200)
      await vi.waitFor(
        async () => expect(await jobStates('account.sign-up', email)).toEqual(['retry']),
        {
          timeout: 15_000,
          interval: 50,
        },
      )
      // The account and its code are written together or not at all.
      expect(await app.db.select().from(users).where(eq(users.email, email))).toEqual([])
    })
    expect(await mailCount(email)).toBe(0)
  })

  it('keeps a reset code job retrying until its message can be queued', async () => {
    const email = undeliverable()
    await confirmedUser(email)
    const before = await mailCount(email)
    await refuseMail(async () => {
      const response = await post('/api/account/forgot-password', {
        email,
        humanCheck: await humanCheck(),
      })
      expect(response.statusCode).toBe(200)
      await vi.waitFor(
        async () => {
          const { rows } = await app.database.executeSql(
            `select state from pgboss.job where name = 'account.reset-code' and data->'data'->>'email' = $1`,
            [email],
          )
          expect(rows).toEqual([{ state: 'retry' }])
        },
        { timeout: 15_000, interval: 50 },
      )
    })
    expect(await mailCount(email)).toBe(before)
  })
})
