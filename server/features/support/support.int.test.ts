import { createServer } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SUPPORT_MAILS_PER_HOUR } from '../../../domain/support'
import { createSignedInUser } from '../../../tests/support/accounts'
import { operatorCookie } from '../../../tests/support/operators'
import { emptyClientDir } from '../../../tests/support/scratch'
import { type ReceivedMail, startTestSmtp, type TestSmtp } from '../../../tests/support/smtp'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'

const SUPPORT = 'help-desk@harmonize.test'
const FROM = 'hello@harmonize.test'

/** A port on 127.0.0.1 where nothing listens (taken and released again). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** One header of a received message as written, folded lines joined. */
function header(mail: ReceivedMail, name: string): string {
  const head = mail.raw.replace(/\r\n/g, '\n').split('\n\n')[0] ?? ''
  const line = head
    .replace(/\n[ \t]+/g, ' ')
    .split('\n')
    .find((entry) => entry.toLowerCase().startsWith(`${name.toLowerCase()}:`))
  return line ? line.slice(name.length + 1).trim() : ''
}

function post(
  app: FastifyInstance,
  payload: unknown,
  { cookie, language = 'en' }: { cookie?: string; language?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/support/mail',
    headers: { 'accept-language': language, ...(cookie ? { cookie } : {}) },
    payload: payload as Record<string, unknown>,
  })
}

async function buildWith(env: TestEnvironment) {
  // Retries a second apart, so the outage test does not wait the production half minute.
  const app = await env.build({
    clientDir: emptyClientDir(),
    jobs: { retryDelaySeconds: 1, pollingIntervalSeconds: 0.5 },
  })
  await app.ready()
  return app
}

describe('support mail', () => {
  let smtp: TestSmtp
  let env: TestEnvironment
  let app: FastifyInstance

  beforeAll(async () => {
    smtp = await startTestSmtp()
    env = await createTestEnvironment({
      SMTP_URL: smtp.url,
      MAIL_FROM: `Harmonize <${FROM}>`,
      SUPPORT_EMAIL: SUPPORT,
    })
    app = await buildWith(env)
  })

  afterAll(async () => {
    await app?.close()
    await smtp?.close()
    await env?.destroy()
  })

  it('reaches SUPPORT_EMAIL from MAIL_FROM, answerable to the member, their name and address first', async () => {
    const { user, cookie } = await createSignedInUser(app, { name: 'Ana Núñez', language: 'es' })
    const subject = `Cannot open my panels ${user.id}`
    const body = 'Since yesterday the app stays on the spinner.\n\nThanks, Ana'

    const response = await post(app, { subject: `  ${subject} `, body }, { cookie })

    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ ok: true })
    expect(response.headers['cache-control']).toBe('no-store')
    const received = await smtp.waitForMessage((m) => m.subject === subject, 15_000)
    expect(received.to).toEqual([SUPPORT])
    expect(received.from).toBe(FROM)
    expect(received.fromHeader).toContain(FROM)
    expect(header(received, 'reply-to')).toContain(`<${user.email}>`)
    expect(received.text).toMatch(
      new RegExp(`^Name: Ana Núñez\\nE-mail: ${user.email.replace(/\./g, '\\.')}\\n`),
    )
    expect(received.text).toContain('Language: es')
    expect(received.text).toContain(`Account: ${user.id}`)
    expect(received.text.trim().endsWith(body)).toBe(true)
    expect(received.html).toContain('Since yesterday the app stays on the spinner.')
  })

  it('sends the member a copy of what they wrote, in their language, answerable to support', async () => {
    const spanish = await createSignedInUser(app, { name: 'Ana', language: 'es' })
    const english = await createSignedInUser(app, { name: 'Eve', language: 'en' })
    const body = 'First line\nSecond line'

    for (const { cookie } of [spanish, english]) {
      expect((await post(app, { subject: 'Invoice address', body }, { cookie })).statusCode).toBe(
        200,
      )
    }

    const copy = await smtp.waitForMessage((m) => m.to.includes(spanish.user.email), 15_000)
    expect(copy.subject).toBe('Hemos recibido tu mensaje: Invoice address')
    expect(copy.text).toMatch(/^Hola, Ana:/)
    expect(copy.text).toContain('menos de 24 horas')
    expect(copy.text).toContain('    Asunto: Invoice address\n\n    First line\n    Second line')
    expect(copy.html).toContain('First line\nSecond line')
    expect(header(copy, 'reply-to')).toContain(`<${SUPPORT}>`)

    const englishCopy = await smtp.waitForMessage((m) => m.to.includes(english.user.email), 15_000)
    expect(englishCopy.subject).toBe('We received your message: Invoice address')
    expect(englishCopy.text).toContain('within 24 hours')
    expect(englishCopy.text).toContain('    Subject: Invoice address')
  })

  it('keeps what the member wrote for the console’s page about them, newest first, and nothing refused', async () => {
    const operator = await operatorCookie(app)
    const { user, cookie } = await createSignedInUser(app)
    expect((await post(app, { subject: 'First', body: 'One\nTwo' }, { cookie })).statusCode).toBe(
      200,
    )
    expect((await post(app, { subject: 'Second', body: 'Three' }, { cookie })).statusCode).toBe(200)
    expect((await post(app, { subject: '   ', body: 'Refused' }, { cookie })).statusCode).toBe(400)
    const detail = await app.inject({
      method: 'GET',
      url: `/api/admin/members/${user.id}`,
      headers: { cookie: operator },
    })
    expect(detail.json().supportMessages).toEqual([
      { id: expect.any(String), subject: 'Second', body: 'Three', createdAt: expect.any(String) },
      { id: expect.any(String), subject: 'First', body: 'One\nTwo', createdAt: expect.any(String) },
    ])
  })

  it('refuses a missing, blank or over-long field, in the language of the request', async () => {
    const { cookie } = await createSignedInUser(app)
    const cases = [
      {
        payload: { subject: '   ', body: 'Hello' },
        en: 'Please write a subject',
        es: 'Por favor, escribe un asunto',
        field: 'body.subject',
      },
      {
        payload: { subject: 'Hello' },
        en: 'Please write your message',
        es: 'Por favor, escribe tu mensaje',
        field: 'body.body',
      },
      {
        payload: { subject: 'x'.repeat(151), body: 'Hello' },
        en: 'The subject can be up to 150 characters long.',
        es: 'El asunto puede tener como máximo 150 caracteres.',
        field: 'body.subject',
      },
      {
        payload: { subject: 'Hello', body: 'x'.repeat(5001) },
        en: 'The message can be up to 5000 characters long.',
        es: 'El mensaje puede tener como máximo 5000 caracteres.',
        field: 'body.body',
      },
      {
        // A line break in the subject would be a header of its own.
        payload: { subject: 'Hi\r\nBcc: someone@example.com', body: 'Hello' },
        en: 'Please remove the invisible control characters from this field.',
        es: 'Quita los caracteres de control invisibles de este campo.',
        field: 'body.subject',
      },
    ]
    for (const { payload, en, es, field } of cases) {
      for (const [language, message] of [
        ['en', en],
        ['es', es],
      ] as const) {
        const response = await post(app, payload, { cookie, language })
        expect(response.statusCode, `${language} ${JSON.stringify(payload)}`).toBe(400)
        expect(response.json().issues).toContainEqual({ field, message })
      }
    }
  })

  it('answers 401 to a visitor and sends nothing', async () => {
    const before = smtp.messages.length
    const response = await post(app, { subject: 'Hello', body: 'From nobody' })

    expect(response.statusCode).toBe(401)
    expect(response.json().message).toBe('Please sign in to continue.')
    expect(smtp.messages.length).toBe(before)
  })

  it(`takes ${SUPPORT_MAILS_PER_HOUR} messages an hour from one member, then says why not`, async () => {
    const limited = await createSignedInUser(app)
    const other = await createSignedInUser(app)
    for (let count = 1; count <= SUPPORT_MAILS_PER_HOUR; count++) {
      const response = await post(
        app,
        { subject: `Limit ${count}`, body: 'Hello' },
        { cookie: limited.cookie },
      )
      expect(response.statusCode, `message ${count}`).toBe(200)
    }

    const refused = await post(
      app,
      { subject: 'One too many', body: 'Hello' },
      { cookie: limited.cookie, language: 'es' },
    )
    expect(refused.statusCode).toBe(429)
    expect(refused.json().message).toBe(
      'Has enviado 5 mensajes en la última hora, el máximo que aceptamos. Podrás enviar otro dentro de 1 hora; respondemos a todos los mensajes en menos de 24 horas.',
    )
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600)

    // The limit is the member's own: someone else still gets through.
    const fine = await post(
      app,
      { subject: 'Not limited', body: 'Hello' },
      { cookie: other.cookie },
    )
    expect(fine.statusCode).toBe(200)

    await smtp.waitForMessage((m) => m.subject === 'Not limited', 15_000)
    await smtp.waitForMessage((m) => m.subject === `Limit ${SUPPORT_MAILS_PER_HOUR}`, 15_000)
    expect(smtp.messages.some((m) => m.subject.includes('One too many'))).toBe(false)
  })
})

describe('support mail while the mail server is down', () => {
  let env: TestEnvironment
  let app: FastifyInstance
  let smtp: TestSmtp | undefined
  let port: number

  beforeAll(async () => {
    port = await closedPort()
    env = await createTestEnvironment({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      SUPPORT_EMAIL: SUPPORT,
    })
    app = await buildWith(env)
  })

  afterAll(async () => {
    await app?.close()
    await smtp?.close()
    await env?.destroy()
  })

  async function mailJobStates() {
    const { rows } = await app.database.executeSql(
      `select state from pgboss.job where name = 'mail' order by created_on`,
    )
    return rows.map((row) => String(row.state))
  }

  it('accepts the message at once and delivers it once the server is back', async () => {
    const { user, cookie } = await createSignedInUser(app, { name: 'Eve Outage' })

    const response = await post(
      app,
      { subject: 'During the outage', body: 'Still here?' },
      { cookie },
    )

    expect(response.statusCode).toBe(200)
    await vi.waitFor(async () => expect(await mailJobStates()).toEqual(['retry', 'retry']), {
      timeout: 15_000,
    })

    smtp = await startTestSmtp({ port })
    const received = await smtp.waitForMessage((m) => m.to.includes(SUPPORT), 30_000)
    expect(received.subject).toBe('During the outage')
    expect(header(received, 'reply-to')).toContain(`<${user.email}>`)
    expect(received.text).toMatch(/^Name: Eve Outage\n/)
    expect(received.text).toContain('Still here?')
    const copy = await smtp.waitForMessage((m) => m.to.includes(user.email), 30_000)
    expect(copy.subject).toBe('We received your message: During the outage')
    await vi.waitFor(async () => expect(await mailJobStates()).toEqual(['completed', 'completed']))
    expect(smtp.messages.filter((m) => m.to.includes(SUPPORT))).toHaveLength(1)
  })
})
