import { EventEmitter } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

// A real SMTP server for tests (Vitest and Playwright alike, so no test-runner imports here):
// the app talks the real protocol through nodemailer and the test reads what arrived.

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), as the server saw them. */
  to: string[]
  /** Envelope sender (MAIL FROM). */
  from: string
  /** The From header as written. */
  fromHeader: string
  subject: string
  /** The text/plain part (or the whole body of a single-part text message). */
  text: string
  /** The text/html part, when there is one. */
  html: string | undefined
  /** The message exactly as received. */
  raw: string
}

export interface TestSmtp {
  /** `smtp://127.0.0.1:PORT`, or with `user:pass@` when credentials were required. */
  url: string
  /** Every message received so far, oldest first. */
  messages: ReceivedMail[]
  /** Resolves with the first message (already received or still to come) that matches. */
  waitForMessage(
    predicate?: (message: ReceivedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMail>
  close(): Promise<void>
}

export interface TestSmtpOptions {
  /** Require AUTH with these credentials; without them anyone may send, with or without AUTH. */
  credentials?: { user: string; pass: string }
  /** Listen on this port (a server that "comes back" where the app expects it); free one by default. */
  port?: number
}

/** Starts a plaintext SMTP server on 127.0.0.1 on a free port that keeps what it receives. */
export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const { credentials } = options
  const messages: ReceivedMail[] = []
  const events = new EventEmitter()
  events.setMaxListeners(0)

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (
        !credentials ||
        (auth.username === credentials.user && auth.password === credentials.pass)
      ) {
        return callback(null, { user: auth.username })
      }
      // Real servers often name the account they refused; the app must not repeat it.
      return callback(new Error(`Invalid credentials for ${auth.username}`))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const mail = parseMail(raw, {
          to: session.envelope.rcptTo.map((address) => address.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        })
        messages.push(mail)
        events.emit('message', mail)
        callback()
      })
    },
  })

  let listening = false
  await new Promise<void>((resolve, reject) => {
    // After start-up, errors are clients hanging up mid-session: not the test's concern, but
    // an 'error' event nobody listens to would crash the process.
    server.on('error', (error) => {
      if (!listening) reject(error)
    })
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      listening = true
      resolve()
    })
  })
  const { port } = server.server.address() as AddressInfo
  const auth = credentials
    ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@`
    : ''

  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    messages,
    waitForMessage(predicate = () => true, timeoutMs = 5000) {
      const found = messages.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const onMessage = (mail: ReceivedMail) => {
          if (!predicate(mail)) return
          clearTimeout(timer)
          events.off('message', onMessage)
          resolve(mail)
        }
        const timer = setTimeout(() => {
          events.off('message', onMessage)
          const seen = messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none'
          reject(new Error(`No matching mail within ${timeoutMs} ms (received: ${seen})`))
        }, timeoutMs)
        events.on('message', onMessage)
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

// Just enough MIME for what nodemailer writes: headers, multipart bodies, base64 and
// quoted-printable transfer encodings, RFC 2047 encoded words. Not a general mail parser.

interface Part {
  headers: Map<string, string>
  body: string
}

function parseMail(raw: string, envelope: { to: string[]; from: string }): ReceivedMail {
  const root = splitPart(raw)
  const leaves = flatten(root)
  const text = leaves.find((part) => contentType(part).type === 'text/plain')
  const html = leaves.find((part) => contentType(part).type === 'text/html')
  return {
    to: envelope.to,
    from: envelope.from,
    fromHeader: decodeWords(root.headers.get('from') ?? ''),
    subject: decodeWords(root.headers.get('subject') ?? ''),
    text: text ? decodeBody(text) : '',
    html: html ? decodeBody(html) : undefined,
    raw,
  }
}

function splitPart(source: string): Part {
  const normalized = source.replace(/\r\n/g, '\n')
  const end = normalized.indexOf('\n\n')
  const head = end === -1 ? normalized : normalized.slice(0, end)
  const body = end === -1 ? '' : normalized.slice(end + 2)
  const headers = new Map<string, string>()
  // Folded header lines continue with leading whitespace.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':')
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

function contentType(part: Part): { type: string; params: Map<string, string> } {
  const [type = 'text/plain', ...rest] = (part.headers.get('content-type') ?? 'text/plain').split(
    ';',
  )
  const params = new Map<string, string>()
  for (const param of rest) {
    const eq = param.indexOf('=')
    if (eq > 0) {
      const key = param.slice(0, eq).trim().toLowerCase()
      params.set(
        key,
        param
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      )
    }
  }
  return { type: type.trim().toLowerCase(), params }
}

function flatten(part: Part): Part[] {
  const { type, params } = contentType(part)
  const boundary = params.get('boundary')
  if (!type.startsWith('multipart/') || !boundary) return [part]
  const sections = part.body.split(`--${boundary}`)
  // Before the first boundary is the preamble; after the closing `--boundary--` the epilogue.
  return sections
    .slice(1)
    .filter((section) => !section.startsWith('--'))
    .flatMap((section) => flatten(splitPart(section.replace(/^\n/, '').replace(/\n$/, ''))))
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString()
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body)
  return part.body
}

function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3)
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(joined[i] ?? ''))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeWords(value: string): string {
  // Whitespace between two adjacent encoded words is not part of the text (RFC 2047 §6.2).
  return value
    .replace(/(=\?[^?]+\?[bBqQ]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_match, _charset, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    )
}
