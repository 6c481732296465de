import { type AddressInfo, createServer, type Socket } from 'node:net'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { users } from '../../db/schema/auth'
import { buildUser } from '../../tests/support/factories'
import { solveHumanCheck } from '../../tests/support/human-check'
import { outboxMessages, outboxTotal, waitForOutboxMessage } from '../../tests/support/outbox'
import { captureLogs, emptyClientDir, runEveryStep } from '../../tests/support/scratch'
import { startTestSmtp, type TestSmtp } from '../../tests/support/smtp'
import { createTestEnvironment, type TestEnvironment } from '../../tests/support/test-app'
import { codeEmail } from '../features/auth/public'
import { translate } from '../i18n'
import { isLoopbackAddress } from './local-only'

/** A port on 127.0.0.1 where nothing listens (taken and released again). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

function message(to: string, subject: string, text = 'Hello there.') {
  return { to, subject, text, html: `<p>${text}</p>` }
}

describe('the local outbox (no SMTP_URL)', () => {
  let env: TestEnvironment
  let app: FastifyInstance
  const logs = captureLogs()

  beforeAll(async () => {
    env = await createTestEnvironment()
    app = await env.build({ clientDir: emptyClientDir(), logger: logs.logger })
    // Workers start once the app is ready; these tests queue mail without a request first.
    await app.ready()
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  it('keeps a sent message in mail_outbox and logs its code for the developer', async () => {
    const email = codeEmail({ language: 'en', purpose: 'sign-up', code: '604211', name: 'Eve' })
    await app.mailer.send({ to: 'store@example.com', ...email })

    await waitForOutboxMessage(app, 'store@example.com')
    const rows = await outboxMessages(app, 'store@example.com')
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ subject: email.subject, text: email.text, html: email.html })
    expect(rows[0]?.createdAt).toBeInstanceOf(Date)

    const line = logs.lines.find((entry) => entry.to === 'store@example.com')
    expect(line?.level).toBe(30)
    expect(line?.code).toBe('604211')
    expect(line?.msg).toContain('604211')
    expect(line?.msg).toContain('/dev/mailbox')
  })

  it('logs a message without a code as well, just without one', async () => {
    await app.mailer.send(message('nocode@example.com', 'No code here'))
    await waitForOutboxMessage(app, 'nocode@example.com')

    const line = logs.lines.find((entry) => entry.to === 'nocode@example.com')
    expect(line?.level).toBe(30)
    expect(line?.code).toBeUndefined()
    expect(line?.subject).toBe('No code here')
  })

  it('lists messages newest first at /dev/mailbox.json and filters by recipient', async () => {
    await app.mailer.send(message('ann@example.com', 'first to Ann'))
    await app.mailer.send(message('bob@example.com', 'only to Bob'))
    await app.mailer.send(message('ann@example.com', 'second to Ann'))
    await waitForOutboxMessage(app, 'ann@example.com', { already: 1 })
    await waitForOutboxMessage(app, 'bob@example.com')

    const all = await app.inject({ method: 'GET', url: '/dev/mailbox.json' })
    expect(all.statusCode).toBe(200)
    expect(all.headers['cache-control']).toBe('no-store')
    const subjects = all.json().messages.map((m: { subject: string }) => m.subject)
    expect(subjects.slice(0, 3)).toEqual(['second to Ann', 'only to Bob', 'first to Ann'])

    // The filter ignores case: addresses may be typed either way.
    const ann = await app.inject({ method: 'GET', url: '/dev/mailbox.json?to=ANN@example.com' })
    const annMessages = ann.json().messages
    expect(annMessages.map((m: { subject: string }) => m.subject)).toEqual([
      'second to Ann',
      'first to Ann',
    ])
    expect(annMessages[0]).toEqual({
      id: expect.any(Number),
      to: 'ann@example.com',
      subject: 'second to Ann',
      text: 'Hello there.',
      html: '<p>Hello there.</p>',
      attachments: [],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
    })
    expect(annMessages[0].id).toBeGreaterThan(annMessages[1].id)

    const nobody = await app.inject({ method: 'GET', url: '/dev/mailbox.json?to=zed@example.com' })
    expect(nobody.json()).toEqual({ messages: [] })

    // An empty filter (a submitted empty form) means everyone.
    const empty = await app.inject({ method: 'GET', url: '/dev/mailbox.json?to=' })
    expect(empty.statusCode).toBe(200)
    expect(empty.json().messages.length).toBe(all.json().messages.length)
  })

  it('drops mail about an account deleted while it waited, and still delivers mail about no account', async () => {
    const { user: kept } = await buildUser(app)
    const { user: gone } = await buildUser(app)
    // A billing notice queued just before its member deleted the account: the job becomes
    // visible with the deletion (one transaction), so it runs after the account is gone. The
    // deletion's own confirmation names no account and must still arrive.
    await app.db.transaction(async () => {
      await app.mailer.send({ ...message(gone.email, 'Your next payment'), member: gone.id })
      await app.mailer.send(message(gone.email, 'Your account was deleted'))
      await app.db.delete(users).where(eq(users.id, gone.id))
    })
    await app.mailer.send({ ...message(kept.email, 'Your next payment'), member: kept.id })

    await waitForOutboxMessage(app, kept.email)
    await waitForOutboxMessage(app, gone.email)
    await vi.waitFor(() =>
      expect(
        logs.lines.find((entry) => entry.to === gone.email && /not delivered/.test(entry.msg)),
      ).toBeDefined(),
    )
    expect((await outboxMessages(app, gone.email)).map((mail) => mail.subject)).toEqual([
      'Your account was deleted',
    ])
    expect((await outboxMessages(app, kept.email)).map((mail) => mail.subject)).toEqual([
      'Your next payment',
    ])
  })

  it('shows only the newest 50 messages', async () => {
    for (let i = 1; i <= 53; i++) {
      await app.mailer.send(message('many@example.com', `message ${i}`))
    }
    await waitForOutboxMessage(app, 'many@example.com', { already: 52, timeoutMs: 30_000 })

    const response = await app.inject({
      method: 'GET',
      url: '/dev/mailbox.json?to=many@example.com',
    })
    const subjects = response.json().messages.map((m: { subject: string }) => m.subject)
    expect(subjects).toHaveLength(50)
    expect(subjects[0]).toBe('message 53')
    expect(subjects.at(-1)).toBe('message 4')
  })

  it('shows an HTML page at /dev/mailbox with every value escaped and no script', async () => {
    await app.mailer.send({
      to: 'html@example.com',
      subject: '<script>alert("subject")</script> Welcome & hello',
      text: 'Your code: 123456\n<img src=x onerror=alert(1)>',
      html: '<p>ignored by the page</p>',
    })
    await waitForOutboxMessage(app, 'html@example.com')

    const response = await app.inject({ method: 'GET', url: '/dev/mailbox?to=html@example.com' })

    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.body).toContain(
      '&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt; Welcome &amp; hello',
    )
    expect(response.body).toContain(
      '<pre>Your code: 123456\n&lt;img src=x onerror=alert(1)&gt;</pre>',
    )
    expect(response.body).toContain('html@example.com')
    expect(response.body).not.toMatch(/<script|<img/i)
    expect(response.body).toMatch(/^<!doctype html>\n<html lang="en">/)
  })

  it('escapes the filter it shows back', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/dev/mailbox?to=${encodeURIComponent('"><script>x()</script>')}`,
    })

    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('value="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"')
    expect(response.body).not.toContain('<script')
  })

  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])(
    'answers a loopback client at %s',
    async (remoteAddress) => {
      for (const url of ['/dev/mailbox', '/dev/mailbox.json']) {
        const response = await app.inject({ method: 'GET', url, remoteAddress })
        expect(response.statusCode, url).toBe(200)
      }
    },
  )

  it.each(['10.1.2.3', '192.168.1.20', '::ffff:10.0.0.1', '2001:db8::1', '128.0.0.1'])(
    'answers any other client at %s with the shared 404',
    async (remoteAddress) => {
      for (const url of ['/dev/mailbox', '/dev/mailbox.json', '/dev/mailbox.json?to=x']) {
        const response = await app.inject({ method: 'GET', url, remoteAddress })

        expect(response.statusCode, url).toBe(404)
        expect(response.headers['content-type']).toContain('application/json')
        expect(response.json()).toEqual({
          statusCode: 404,
          error: 'Not Found',
          message: translate('errors.notFound', 'en'),
          requestId: response.headers['x-request-id'],
        })
        expect(response.body).not.toContain('example.com')
      }
    },
  )

  it('refuses a request relayed by a proxy on this machine, whatever the relay calls itself', async () => {
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
      { 'cf-connecting-ip': '203.0.113.9' },
      { 'true-client-ip': '203.0.113.9' },
      { 'x-client-ip': '203.0.113.9' },
      { via: '1.1 proxy.example' },
      { 'x-forwarded-host': 'harmonize.example' },
      { 'x-forwarded-proto': 'https' },
    ]) {
      const response = await app.inject({ method: 'GET', url: '/dev/mailbox.json', headers })
      expect(response.statusCode, JSON.stringify(headers)).toBe(404)
    }
  })

  it('keeps the outbox routes out of the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs' })).json()

    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/dev'))).toEqual([])
  })
})

describe('the local outbox of an installation with a public address', () => {
  it('keeps and logs the mail but shows no outbox pages, even to this machine', async () => {
    const logs = captureLogs()
    const env = await createTestEnvironment({ PUBLIC_URL: 'https://harmonize.example' })
    const app = await env.build({ clientDir: emptyClientDir(), logger: logs.logger })
    await app.ready()
    try {
      await app.mailer.send(message('public@example.com', 'Kept anyway', 'Code 224466'))
      await waitForOutboxMessage(app, 'public@example.com')
      // The line is logged just after the row is kept: waited for, not assumed.
      const line = await vi.waitFor(() => {
        const found = logs.lines.find((entry) => entry.to === 'public@example.com')
        if (!found) throw new Error('not logged yet')
        return found
      })
      expect(line?.msg).toContain('set SMTP_URL')
      expect(line?.msg).not.toContain('/dev/mailbox')
      for (const url of ['/dev/mailbox', '/dev/mailbox.json']) {
        const response = await app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' })
        expect(response.statusCode, url).toBe(404)
      }
    } finally {
      await app.close()
      await env.destroy()
    }
  })
})

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::FFFF:127.1.2.3', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['127.0.0', false],
    ['127.0.0.256', false],
    ['1127.0.0.1', false],
    ['fe80::1', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected)
  })
})

describe('delivery over SMTP (SMTP_URL set)', () => {
  let smtp: TestSmtp
  let env: TestEnvironment
  let app: FastifyInstance
  const logs = captureLogs()

  beforeAll(async () => {
    smtp = await startTestSmtp()
    env = await createTestEnvironment({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Harmonize <hello@harmonize.test>',
    })
    app = await env.build({ clientDir: emptyClientDir(), logger: logs.logger })
    // Workers start once the app is ready; these tests queue mail without a request first.
    await app.ready()
  })

  afterAll(async () => {
    await app?.close()
    await smtp?.close()
    await env?.destroy()
  })

  it('hands the message to the SMTP server, with a text and an HTML part', async () => {
    // Spanish, so non-ASCII text goes through the transfer encodings too.
    const email = codeEmail({
      language: 'es',
      purpose: 'sign-up',
      code: '739105',
      name: 'Eva Núñez',
    })
    await app.mailer.send({ to: 'eva@example.com', ...email })

    const received = await smtp.waitForMessage((m) => m.to.includes('eva@example.com'))

    expect(received.to).toEqual(['eva@example.com'])
    expect(received.from).toBe('hello@harmonize.test')
    expect(received.fromHeader).toContain('hello@harmonize.test')
    expect(received.subject).toBe(email.subject)
    expect(received.text.trim()).toBe(email.text.trim())
    expect(received.text).toContain('739105')
    expect(received.html?.trim()).toBe(email.html.trim())
    expect(received.raw).toMatch(/multipart\/alternative/i)
  })

  it('writes nothing to mail_outbox and logs nothing about the message', async () => {
    await app.mailer.send(message('quiet@example.com', 'Quiet', 'Code 551234'))
    await smtp.waitForMessage((m) => m.to.includes('quiet@example.com'))

    expect(await outboxTotal(app)).toBe(0)
    const mentions = logs.lines.filter((line) => JSON.stringify(line).includes('@example.com'))
    expect(mentions).toEqual([])
    expect(JSON.stringify(logs.lines)).not.toContain('551234')
  })

  it.each(['/dev/mailbox', '/dev/mailbox.json'])('has no %s route', async (url) => {
    const response = await app.inject({ method: 'GET', url })

    expect(response.statusCode).toBe(404)
    expect(response.json().message).toBe(translate('errors.notFound', 'en'))
  })
})

describe('SMTP failures: nothing is lost', () => {
  const apps = new Set<FastifyInstance>()
  const environments = new Set<TestEnvironment>()
  const servers: { close(): Promise<void> }[] = []

  // After each test, not after the file: every app holds pooled connections, and six of them
  // alive at once, beside another worker's file, ran PostgreSQL out of connections in CI.
  afterEach(async () => {
    const closing = [...servers.splice(0), ...apps].map((each) => () => each.close())
    const destroying = [...environments].map((each) => () => each.destroy())
    apps.clear()
    environments.clear()
    await runEveryStep([...closing, ...destroying])
  })

  async function appWith(smtpUrl: string, env?: TestEnvironment) {
    const logs = captureLogs()
    const environment = env ?? (await createTestEnvironment({ SMTP_URL: smtpUrl }))
    // Noted before the build, so a build that fails still has its database dropped.
    environments.add(environment)
    // Retries a second apart, so a test does not wait the production half minute.
    const app = await environment.build({
      clientDir: emptyClientDir(),
      logger: logs.logger,
      jobs: { retryDelaySeconds: 1, pollingIntervalSeconds: 0.5 },
    })
    apps.add(app)
    await app.ready()
    return { app, env: environment, logs }
  }

  async function mailJobs(app: FastifyInstance) {
    const { rows } = await app.database.executeSql(
      `select state, retry_count, data from pgboss.job where name = 'mail' order by created_on`,
    )
    return rows as { state: string; retry_count: number; data: unknown }[]
  }

  it('queues at once while no server answers, and delivers once the server is back', async () => {
    const port = await closedPort()
    const { app, logs } = await appWith(`smtp://relay-user:hunter2-secret@127.0.0.1:${port}`)

    // Queuing never waits for SMTP.
    await app.mailer.send(message('lost@example.com', 'Not lost', 'Code 100200'))

    await vi.waitFor(
      () => {
        const line = logs.lines.find((entry) => entry.msg === 'mail delivery failed')
        expect(line?.to).toBe('lost@example.com')
        expect(String(line?.reason)).toMatch(/ECONNREFUSED/)
      },
      { timeout: 15_000 },
    )
    await vi.waitFor(async () => expect((await mailJobs(app))[0]?.state).toBe('retry'), {
      timeout: 15_000,
    })
    expect(JSON.stringify(logs.lines)).not.toMatch(/hunter2|relay-user|100200/)

    const smtp = await startTestSmtp({ port })
    servers.push(smtp)
    const received = await smtp.waitForMessage((m) => m.to.includes('lost@example.com'), 30_000)
    expect(received.subject).toBe('Not lost')
    expect(received.text.trim()).toBe('Code 100200')
    await vi.waitFor(async () => expect((await mailJobs(app))[0]?.state).toBe('completed'))
  })

  it('keeps a queued message across a restart and delivers it after', async () => {
    const port = await closedPort()
    const first = await appWith(`smtp://127.0.0.1:${port}`)
    await first.app.mailer.send(message('restart@example.com', 'After the restart', 'Hi'))
    await vi.waitFor(async () => expect((await mailJobs(first.app))[0]?.state).toBe('retry'), {
      timeout: 15_000,
    })
    await first.app.close()
    apps.delete(first.app)

    const smtp = await startTestSmtp({ port })
    servers.push(smtp)
    await appWith(`smtp://127.0.0.1:${port}`, first.env)
    const received = await smtp.waitForMessage((m) => m.to.includes('restart@example.com'), 30_000)
    expect(received.subject).toBe('After the restart')
    expect(smtp.messages.filter((m) => m.to.includes('restart@example.com'))).toHaveLength(1)
  })

  it('answers the request while a server that never greets holds the delivery', async () => {
    // A server that accepts the connection and then says nothing, as a stuck relay does.
    const sockets: Socket[] = []
    const silent = createServer((socket) => {
      sockets.push(socket)
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    servers.push({
      close: () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy()
          silent.close(() => resolve())
        }),
    })
    const { port } = silent.address() as AddressInfo
    const { app } = await appWith(`smtp://127.0.0.1:${port}`)

    // A real sign-up, whose code goes to that server.
    const challenge = await app.inject({ method: 'GET', url: '/api/captcha/challenge' })
    const signUp = await app.inject({
      method: 'POST',
      url: '/api/account/sign-up',
      payload: {
        name: 'Stuck Relay',
        email: 'stuck@example.com',
        password: 'Calm-Water-432',
        humanCheck: await solveHumanCheck(challenge.json()),
      },
    })
    expect(signUp.statusCode).toBe(200)

    // The delivery is under way and stuck waiting for the greeting; the person was not kept
    // waiting for it.
    await vi.waitFor(() => expect(sockets.length).toBeGreaterThan(0), { timeout: 15_000 })
    expect((await mailJobs(app))[0]?.state).toBe('active')
  })

  it('retries a server that refuses the credentials, without repeating them', async () => {
    const smtp = await startTestSmtp({ credentials: { user: 'relay-user-7', pass: 'right-pass' } })
    servers.push(smtp)
    const wrongUrl = smtp.url.replace('right-pass', 'wrong-pass-9f3')
    const { app, logs } = await appWith(wrongUrl)

    await app.mailer.send(message('auth@example.com', 'Auth', 'Code 300400'))

    await vi.waitFor(
      () => {
        const line = logs.lines.find((entry) => entry.msg === 'mail delivery failed')
        expect(line?.code).toBe('EAUTH')
        // The test server's refusal names the account, as real servers often do.
        expect(line?.reason).toContain('Invalid credentials for [redacted]')
      },
      { timeout: 15_000 },
    )
    expect(JSON.stringify(logs.lines)).not.toMatch(/wrong-pass-9f3|relay-user-7|300400/)
    expect(smtp.messages).toEqual([])
  })

  it('keeps the text of queued messages sealed: no code can be read from the queue', async () => {
    const port = await closedPort()
    const { app } = await appWith(`smtp://127.0.0.1:${port}`)
    const email = codeEmail({ language: 'en', purpose: 'reset-password', code: '918273' })

    await app.mailer.send({ to: 'sealed@example.com', ...email })

    const [job] = await mailJobs(app)
    expect(JSON.stringify(job?.data)).toContain('sealed@example.com')
    expect(JSON.stringify(job?.data)).not.toContain('918273')
    expect(JSON.stringify(job?.data)).not.toContain(email.subject)
  })

  it('queues nothing when the change that caused the message is rolled back', async () => {
    const smtp = await startTestSmtp()
    servers.push(smtp)
    const { app } = await appWith(smtp.url)

    await expect(
      app.db.transaction(async () => {
        await app.mailer.send(message('never@example.com', 'Never', 'Hi'))
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    await app.db.transaction(async () => {
      await app.mailer.send(message('kept@example.com', 'Kept', 'Hi'))
    })

    await smtp.waitForMessage((m) => m.to.includes('kept@example.com'), 15_000)
    expect(smtp.messages.map((m) => m.to[0])).toEqual(['kept@example.com'])
    expect(await mailJobs(app)).toHaveLength(1)
  })
})

describe('the SMTP test server', () => {
  it('waits for a message that has not arrived yet, and times out clearly', async () => {
    const smtp = await startTestSmtp()
    try {
      await expect(smtp.waitForMessage(() => true, 50)).rejects.toThrow(
        /No matching mail within 50 ms \(received: none\)/,
      )
    } finally {
      await smtp.close()
    }
  })
})
