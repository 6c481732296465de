import { desc, eq, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import nodemailer from 'nodemailer'
import { z } from 'zod'
import { users } from '../../db/schema/auth'
import { mailOutbox } from '../../db/schema/mail'
import { noControlCharacters } from '../../domain/text'
import type { Config } from '../config'
import { sendError } from '../errors'
import { escapeHtml } from '../html'
import { requestLanguage, translate } from '../i18n'
import { sealer } from '../sealer'
import type { QueueOptions } from './jobs'
import { isLocalRequest, isLoopbackAddress } from './local-only'

/** One message as our code writes it; the sender is always MAIL_FROM. */
export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
  /** Where answers go instead of MAIL_FROM, e.g. the member who wrote to support. */
  replyTo?: { name: string; address: string }
  /** Files sent with it, such as an invoice's PDF (content in base64). */
  attachments?: MailAttachment[]
  /**
   * The member (user id) whose account alone the message is about, such as a billing notice:
   * it is dropped instead of delivered when that account no longer exists, for a member who
   * deleted it while the message waited in the queue. Left out of what must reach the address
   * after the account is gone, such as the deletion's own confirmation.
   */
  member?: string
}

export interface MailAttachment {
  filename: string
  contentType: string
  /** Base64. */
  content: string
}

export interface Mailer {
  /**
   * Queues the message. Inside `app.db.transaction(…)` it is queued by that transaction, so it
   * goes out exactly when the change that caused it is kept. Delivery happens in the background
   * and is retried for about two days; a message that still fails is listed by
   * `npm run cli -- jobs failed`.
   */
  send(message: MailMessage): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer
  }
}

/**
 * A message could not be handed over. Its text names the recipient and the reason, never the
 * SMTP server's credentials, so it is safe to log.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    /** nodemailer's error code (ECONNECTION, EAUTH…), when there is one. */
    public readonly code?: string,
  ) {
    super(message)
    this.name = 'MailDeliveryError'
  }
}

/** The queue every message goes through. */
const MAIL_QUEUE = 'mail'

/**
 * Twelve retries from half a minute, doubling: the last one is about two days after the first
 * attempt, long enough to outlast a mail server's outage. A try may take up to SMTP's own
 * time-outs (below); one still running after three minutes belonged to a process that died.
 */
const MAIL_RETRIES: QueueOptions = {
  retryLimit: 12,
  retryDelaySeconds: 30,
  expireInSeconds: 180,
}

/** A queued message: the recipient in the clear for listings, the rest sealed. */
interface MailJob {
  to: string
  sealed: string
}

/** How many messages the outbox pages show. */
const OUTBOX_PAGE_SIZE = 50

const OTP_CODE = /\b\d{6}\b/

/**
 * Mail delivery through the job queue. With SMTP_URL: nodemailer to that server. Without it: the
 * local outbox, where every message is stored in `mail_outbox`, logged with its code and listed
 * at /dev/mailbox for loopback clients, so the product runs end to end on one machine.
 */
export const mailPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const browsable = outboxIsBrowsable(config)
    const deliver = config.SMTP_URL
      ? smtpDelivery(app, config.SMTP_URL, config.MAIL_FROM)
      : outboxDelivery(app, config, browsable)
    // Queued messages hold one-time codes: sealed, they are as unreadable in the job tables as
    // in the hashed `verification` table.
    const seal = sealer<Omit<MailMessage, 'to'>>(app.secrets.authSecret, 'mail queue')
    const queue = await app.jobs.define<MailJob>(
      MAIL_QUEUE,
      { ...MAIL_RETRIES, describe: (job) => job.to },
      async (job) => {
        const { member, ...content } = seal.open(job.sealed)
        if (member && !(await accountExists(app, member))) {
          app.log.info({ to: job.to }, 'mail not delivered: the account it is about was deleted')
          return
        }
        await deliver({ to: job.to, ...content })
      },
    )
    app.decorate('mailer', {
      async send({ to, ...content }) {
        await queue.send({ to, sealed: seal.close(content) })
      },
    })
    if (!config.SMTP_URL && browsable) registerOutboxRoutes(app)
  },
  { name: 'mail', dependencies: ['db', 'jobs'] },
)

async function accountExists(app: FastifyInstance, userId: string): Promise<boolean> {
  const [row] = await app.db.select({ id: users.id }).from(users).where(eq(users.id, userId))
  return Boolean(row)
}

function smtpDelivery(
  app: FastifyInstance,
  smtpUrl: string,
  from: string,
): (message: MailMessage) => Promise<void> {
  // nodemailer waits up to two minutes for a silent server by default; the queue would rather
  // try again later. Values given in the URL's query still win.
  const transport = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 },
    { from },
  )
  const redact = redactor(smtpUrl)
  app.addHook('onClose', async () => {
    transport.close()
  })
  return async (message) => {
    try {
      await transport.sendMail({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        attachments: message.attachments?.map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          content: file.content,
          encoding: 'base64',
        })),
      })
    } catch (error) {
      // nodemailer's messages can quote the server's reply, which may echo what we sent.
      const { code, reason } = describeFailure(error, redact)
      app.log.error({ to: message.to, code, reason }, 'mail delivery failed')
      throw new MailDeliveryError(`Mail to ${message.to} could not be delivered: ${reason}`, code)
    }
  }
}

function outboxDelivery(app: FastifyInstance, config: Config, browsable: boolean) {
  return async (message: MailMessage) => {
    try {
      await app.db.insert(mailOutbox).values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        attachments: (message.attachments ?? []).map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          bytes: Buffer.byteLength(file.content, 'base64'),
        })),
      })
    } catch (error) {
      app.log.error({ to: message.to, err: error }, 'mail could not be kept in the outbox')
      throw new MailDeliveryError(`Mail to ${message.to} could not be kept in the local outbox`)
    }
    // The log is where a developer without a mail server looks for the code.
    const code = message.text.match(OTP_CODE)?.[0]
    const where = browsable ? `see ${config.publicUrl}/dev/mailbox` : 'set SMTP_URL to send it'
    app.log.info(
      { to: message.to, subject: message.subject, ...(code ? { code } : {}) },
      code
        ? `mail kept in the local outbox (code ${code}), ${where}`
        : `mail kept in the local outbox, ${where}`,
    )
  }
}

/**
 * The outbox pages exist only while PUBLIC_URL is this machine (localhost, 127.x, ::1): a
 * developer's installation. An installation with a public address that forgot SMTP_URL must
 * not show sign-in codes to whoever reaches it through a proxy on the same machine, which
 * connects from loopback and need not say it relays.
 */
function outboxIsBrowsable(config: Pick<Config, 'publicUrl'>): boolean {
  const host = new URL(config.publicUrl).hostname.replace(/^\[|\]$/g, '')
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host)
}

/** Replaces the URL's user name and password, in the forms a server might echo, with a marker. */
function redactor(smtpUrl: string): (text: string) => string {
  const secrets = new Set<string>([smtpUrl])
  const add = (value: string) => {
    secrets.add(value).add(Buffer.from(value).toString('base64'))
  }
  try {
    const url = new URL(smtpUrl)
    const user = safeDecode(url.username)
    const pass = safeDecode(url.password)
    // A user name of a few letters is no secret, and hiding it would garble every message.
    if (user.length >= 4) add(user)
    if (url.username.length >= 4) add(url.username)
    if (pass) {
      add(pass)
      add(url.password)
      secrets.add(Buffer.from(`\u0000${user}\u0000${pass}`).toString('base64'))
    }
  } catch {
    // config.ts already checked the scheme; an unparsable rest leaves only the URL to hide.
  }
  // Longest first, so a password inside the URL is not half-replaced before the URL is.
  const ordered = [...secrets].filter(Boolean).sort((a, b) => b.length - a.length)
  return (text) => ordered.reduce((out, secret) => out.replaceAll(secret, '[redacted]'), text)
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

function describeFailure(
  error: unknown,
  redact: (text: string) => string,
): { code: string | undefined; reason: string } {
  const details = error as { code?: unknown; message?: unknown } | null
  const code = typeof details?.code === 'string' ? details.code : undefined
  const message = typeof details?.message === 'string' ? details.message : String(error)
  return { code, reason: redact(message).replace(/\s+/g, ' ').trim().slice(0, 300) }
}

const mailboxQuerySchema = z.object({
  /** Only messages to this address, compared without regard to case; empty means everyone. */
  to: z
    .string()
    .check(noControlCharacters)
    .trim()
    .max(320)
    .optional()
    .transform((value) => value || undefined),
})

const outboxMessageSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  attachments: z.array(
    z.object({ filename: z.string(), contentType: z.string(), bytes: z.number().int() }),
  ),
  createdAt: z.iso.datetime({ offset: true }),
})

const mailboxResponseSchema = z.object({ messages: z.array(outboxMessageSchema) })

async function refuseRemote(request: FastifyRequest, reply: FastifyReply) {
  // The same 404 as any unknown path, so the route's existence is not revealed either.
  if (!isLocalRequest(request)) {
    return sendError(request, reply, 404, translate('errors.notFound', requestLanguage(request)))
  }
}

function registerOutboxRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  async function newest(to: string | undefined) {
    const rows = await app.db
      .select()
      .from(mailOutbox)
      .where(to ? sql`lower(${mailOutbox.to}) = lower(${to})` : undefined)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(OUTBOX_PAGE_SIZE)
    return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }))
  }

  routes.get(
    '/dev/mailbox.json',
    {
      onRequest: refuseRemote,
      schema: {
        hide: true,
        querystring: mailboxQuerySchema,
        response: { 200: mailboxResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      return { messages: await newest(request.query.to) }
    },
  )

  routes.get(
    '/dev/mailbox',
    {
      onRequest: refuseRemote,
      schema: { hide: true, querystring: mailboxQuerySchema },
    },
    async (request, reply) => {
      const messages = await newest(request.query.to)
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(mailboxPage(messages, request.query.to))
    },
  )
}

function mailboxPage(
  messages: {
    id: number
    to: string
    subject: string
    text: string
    attachments: { filename: string; bytes: number }[]
    createdAt: string
  }[],
  to: string | undefined,
): string {
  const items = messages.map(
    (message) => `<article>
<h3>${escapeHtml(message.subject)}</h3>
<p class="meta"><time>${escapeHtml(message.createdAt)}</time> · to ${escapeHtml(message.to)}</p>
<pre>${escapeHtml(message.text)}</pre>
${message.attachments.map((file) => `<p class="meta">Attached: ${escapeHtml(file.filename)} (${file.bytes} bytes)</p>`).join('\n')}
</article>`,
  )
  const heading = to ? `Messages to ${escapeHtml(to)}` : 'Newest messages'
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Local outbox · Harmonize</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 860px; margin: 0 auto; padding: 24px; }
form { margin: 16px 0 24px; }
article { border-top: 1px solid #ddd; padding: 12px 0; }
h3 { font-size: 1.1rem; margin: 0 0 4px; }
.meta { color: #555; margin: 0 0 8px; font-size: 0.9rem; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: 12px; margin: 0; }
</style>
</head>
<body>
<h1>Local outbox</h1>
<p>SMTP_URL is unset, so mail is kept here instead of sent (newest ${OUTBOX_PAGE_SIZE}).</p>
<form method="get" action="/dev/mailbox">
<label for="to">Recipient</label>
<input id="to" name="to" type="email" value="${escapeHtml(to ?? '')}">
<button type="submit">Filter</button>
${to ? '<a href="/dev/mailbox">Show all</a>' : ''}
</form>
<h2>${heading}</h2>
${items.length > 0 ? items.join('\n') : '<p>No messages yet.</p>'}
</body>
</html>
`
}
