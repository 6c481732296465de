import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { solveHumanCheck } from '../../../tests/support/human-check'
import { TEST_PASSWORD, uniqueEmail } from '../../../tests/support/identities'
import type { RunningServer } from './app-server'
import type { Cookie } from './browser'
import { npmScript, root } from './npm-script'

// A subscriber made the way a person and the operator make one, through the running server:
// sign up (human check solved in Node; the server runs with a low CAPTCHA_COST), the code from
// the local outbox, sign in, then an access code from the operator's CLI, redeemed by the member.

const CODE_WAIT_MS = 60_000

export interface Subscriber {
  email: string
  cookies: Cookie[]
  /** The cookies as one `cookie` request header. */
  cookieHeader: string
}

type Server = Pick<RunningServer, 'origin' | 'publicUrl' | 'env'>

export async function signUpSubscriber(server: Server): Promise<Subscriber> {
  const email = uniqueEmail('bench')
  const password = TEST_PASSWORD
  await post(server, '/api/account/sign-up', {
    name: 'Bench Member',
    email,
    password,
    language: 'en',
    humanCheck: await humanCheck(server),
  })
  await post(server, '/api/account/confirm', { email, code: await mailedCode(server, email) })
  const signedIn = await post(server, '/api/account/sign-in', {
    email,
    password,
    rememberMe: false,
    humanCheck: await humanCheck(server),
  })
  const cookies = signedIn.headers.getSetCookie().flatMap((line) => {
    const [pair = ''] = line.split(';')
    const at = pair.indexOf('=')
    // An expired cookie is the server clearing one, not one to send.
    if (at < 1 || /max-age=0\b/i.test(line)) return []
    return [{ name: pair.slice(0, at).trim(), value: pair.slice(at + 1).trim() }]
  })
  if (cookies.length === 0) throw new Error('Signing in set no cookie')
  const cookieHeader = cookies.map(({ name, value }) => `${name}=${value}`).join('; ')

  const code = await cliAccessCode(server)
  const access = await post(server, '/api/account/access-code', { code }, cookieHeader)
  if (!((await access.json()) as { hasAccess?: boolean }).hasAccess) {
    throw new Error('The access code did not give access')
  }
  return { email, cookies, cookieHeader }
}

async function post(server: Server, url: string, body: object, cookie?: string) {
  const response = await fetch(`${server.origin}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      // What a browser on PUBLIC_URL sends; origin checks refuse anything else.
      origin: server.publicUrl,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  })
  if (!response.ok) {
    throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`)
  }
  return response
}

async function humanCheck(server: Server): Promise<string> {
  const response = await fetch(`${server.origin}/api/captcha/challenge`)
  if (!response.ok) throw new Error(`The human-check challenge answered ${response.status}`)
  return solveHumanCheck(await response.json())
}

/** The 6-digit code in the local outbox (no SMTP_URL), which loopback clients may read. */
async function mailedCode(server: Server, email: string): Promise<string> {
  const deadline = Date.now() + CODE_WAIT_MS
  while (Date.now() < deadline) {
    const response = await fetch(
      `${server.origin}/dev/mailbox.json?to=${encodeURIComponent(email)}`,
    )
    if (!response.ok) throw new Error(`/dev/mailbox.json answered ${response.status}`)
    const { messages } = (await response.json()) as { messages: { text: string }[] }
    const code = messages[0]?.text.match(/\b(\d{6})\b/)?.[1]
    if (code) return code
    await sleep(200)
  }
  throw new Error(`No code was mailed to ${email} within ${CODE_WAIT_MS / 1000} s`)
}

/** A new code from `npm run cli -- codes create`, with the server's own environment. */
async function cliAccessCode(server: Server): Promise<string> {
  // One word, so the same arguments work with and without a shell.
  const note = `bench-${randomBytes(3).toString('hex')}`
  const { command, args, shell } = npmScript('cli', ['codes', 'create', '--note', note])
  const child = spawn(command, args, { cwd: root, env: server.env, shell })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  const code = stdout.trim().split('\n').at(-1)?.trim()
  if (status !== 0 || !code) {
    throw new Error(`npm run cli -- codes create failed (${status}):\n${stdout}${stderr}`)
  }
  return code
}
