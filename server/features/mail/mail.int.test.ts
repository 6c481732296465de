import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailOutbox } from '../../../db/schema/mail'
import { startTestSmtp, type TestSmtp } from '../../../tests/support/smtp'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import { translate } from '../../i18n'
import { isLoopbackAddress, MailDeliveryError } from '../../plugins/mail'
import { codeEmail } from './templates'

const tempDirs: string[] = []

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

/** A directory with no built client in it, so tests do not depend on whether dist/ exists. */
function emptyDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'harmonize-client-'))
  tempDirs.push(dir)
  return dir
}

type LogLine = { level: number; msg: string; [key: string]: unknown }

/** A pino configuration that keeps every line (info and up) in memory instead of printing it. */
function captureLogs(): { lines: LogLine[]; logger: FastifyServerOptions['logger'] } {
  const lines: LogLine[] = []
  return {
    lines,
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  }
}

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

async function outboxCount(app: FastifyInstance): Promise<number> {
  const [row] = await app.db.select({ count: sql<number>`count(*)::int` }).from(mailOutbox)
  return Number(row?.count)
}

describe('the local outbox (no SMTP_URL)', () => {
  let env: TestEnvironment
  let app: FastifyInstance
  const logs = captureLogs()

  beforeAll(async () => {
    env = await createTestEnvironment()
    app = await env.build({ clientDir: emptyDir(), logger: logs.logger })
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  it('keeps a sent message in mail_outbox and logs its code for the developer', async () => {
    const email = codeEmail({ language: 'en', purpose: 'sign-up', code: '604211', name: 'Eve' })
    await app.mailer.send({ to: 'store@example.com', ...email })

    const rows = await app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, 'store@example.com'))
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

    const line = logs.lines.find((entry) => entry.to === 'nocode@example.com')
    expect(line?.level).toBe(30)
    expect(line?.code).toBeUndefined()
    expect(line?.subject).toBe('No code here')
  })

  it('lists messages newest first at /dev/mailbox.json and filters by recipient', async () => {
    await app.mailer.send(message('ann@example.com', 'first to Ann'))
    await app.mailer.send(message('bob@example.com', 'only to Bob'))
    await app.mailer.send(message('ann@example.com', 'second to Ann'))

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

  it('shows only the newest 50 messages', async () => {
    for (let i = 1; i <= 53; i++) {
      await app.mailer.send(message('many@example.com', `message ${i}`))
    }

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

  it('refuses a request relayed by a proxy on this machine', async () => {
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
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
    app = await env.build({ clientDir: emptyDir(), logger: logs.logger })
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

    expect(await outboxCount(app)).toBe(0)
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

describe('SMTP failures', () => {
  const opened: { app: FastifyInstance; env: TestEnvironment }[] = []
  const servers: TestSmtp[] = []

  afterAll(async () => {
    for (const { app, env } of opened) {
      await app.close()
      await env.destroy()
    }
    for (const server of servers) await server.close()
  })

  async function appWith(smtpUrl: string) {
    const logs = captureLogs()
    const env = await createTestEnvironment({ SMTP_URL: smtpUrl })
    const app = await env.build({ clientDir: emptyDir(), logger: logs.logger })
    opened.push({ app, env })
    return { app, logs }
  }

  it('rejects with a clear error, and logs the recipient, when no server answers', async () => {
    const port = await closedPort()
    const { app, logs } = await appWith(`smtp://relay-user:hunter2-secret@127.0.0.1:${port}`)

    const sending = app.mailer.send(message('lost@example.com', 'Lost', 'Code 100200'))

    await expect(sending).rejects.toBeInstanceOf(MailDeliveryError)
    const error = (await sending.catch((e: unknown) => e)) as MailDeliveryError
    expect(error.message).toMatch(/^Mail to lost@example\.com could not be delivered: /)
    expect(error.message).toMatch(/ECONNREFUSED/)
    expect(error.code).toMatch(/^E[A-Z]+$/)
    expect(error.message).not.toMatch(/hunter2|relay-user/)

    const line = logs.lines.find((entry) => entry.msg === 'mail delivery failed')
    expect(line?.level).toBe(50)
    expect(line?.to).toBe('lost@example.com')
    expect(JSON.stringify(logs.lines)).not.toMatch(/hunter2|100200/)
  })

  it('rejects when the server refuses the credentials, without repeating them', async () => {
    const smtp = await startTestSmtp({ credentials: { user: 'relay-user-7', pass: 'right-pass' } })
    servers.push(smtp)
    const wrongUrl = smtp.url.replace('right-pass', 'wrong-pass-9f3')
    const { app, logs } = await appWith(wrongUrl)

    const sending = app.mailer.send(message('auth@example.com', 'Auth', 'Code 300400'))

    await expect(sending).rejects.toThrow(/^Mail to auth@example\.com could not be delivered/)
    const error = (await sending.catch((e: unknown) => e)) as MailDeliveryError
    expect(error.code).toBe('EAUTH')
    // The test server's refusal names the account, as real servers often do.
    expect(error.message).toContain('Invalid credentials for [redacted]')
    expect(error.message).not.toMatch(/wrong-pass-9f3|relay-user-7/)
    expect(JSON.stringify(logs.lines)).not.toMatch(/wrong-pass-9f3|relay-user-7/)
    expect(smtp.messages).toEqual([])
  })

  it('delivers once the credentials are right', async () => {
    const smtp = await startTestSmtp({ credentials: { user: 'relay-user-7', pass: 'right-pass' } })
    servers.push(smtp)
    const { app } = await appWith(smtp.url)

    await app.mailer.send(message('authed@example.com', 'Signed in', 'Code 500600'))

    const received = await smtp.waitForMessage()
    expect(received.subject).toBe('Signed in')
    expect(received.text.trim()).toBe('Code 500600')
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
