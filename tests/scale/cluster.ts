import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { Redis } from 'ioredis'
import pg from 'pg'
import { startTestS3, type TestS3 } from '../support/s3'
import { startTestSmtp, type TestSmtp } from '../support/smtp'

// Harmonize as it runs past one machine: two servers built as they ship (dist/server), on one
// PostgreSQL, one Redis and one S3-compatible store, behind Debian's nginx balancing round
// robin. Each piece is real; only the payment provider is the sandbox each server carries.

const root = path.resolve(import.meta.dirname, '../..')
const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/test'
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'
/** A Redis database of the scale test's own, emptied before each run. */
const REDIS_DATABASE = 7

/** One Harmonize server process, which can be stopped, killed and started again. */
export interface ServerProcess {
  name: string
  /** Its own address, behind the balancer's back. */
  url: string
  child: ChildProcess | null
  /** Everything it wrote, for a failing test's message. */
  output(): string
  start(): Promise<void>
  /** Sends `signal` and waits until the process is gone. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export interface Cluster {
  /** The balancer's address: what members use. */
  url: string
  servers: ServerProcess[]
  smtp: TestSmtp
  s3: TestS3
  databaseUrl: string
  /** Environment every server shares. */
  env: Record<string, string>
  /**
   * Takes server `index` out of the balancer (nginx's `down`, then a graceful reload) or puts
   * it back, and waits until the balancer's answers show it.
   */
  balance(index: number, inRotation: boolean): Promise<void>
  sql(text: string, values?: unknown[]): Promise<pg.QueryResult>
  close(): Promise<void>
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Waits until `url` answers 200, or throws with `output()` after `timeoutMs`. */
export async function waitForReady(
  url: string,
  output: () => string,
  timeoutMs = 120_000,
  gone: () => boolean = () => false,
) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (gone()) throw new Error(`${url} exited while starting:\n${output().slice(-4000)}`)
    const answer = await fetch(`${url}/readyz`).catch(() => null)
    if (answer?.status === 200) return
    await delay(100)
  }
  throw new Error(`${url} did not become ready in ${timeoutMs / 1000} s:\n${output().slice(-4000)}`)
}

function nginxConfig(
  prefix: string,
  port: number,
  upstreams: { address: string; down: boolean }[],
): string {
  // Round robin; a server that refuses a connection is skipped for the next (a request it never
  // received is safe to send elsewhere, also a POST), and left out for a few seconds. No
  // connection to a server is kept for a next request: one it closes as it stops could take a
  // request that then fails half-sent; a new connection is refused instead, and safely retried.
  return `
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream harmonize {
${upstreams
  .map(
    ({ address, down }) =>
      `    server ${address} max_fails=1 fail_timeout=2s${down ? ' down' : ''};`,
  )
  .join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 6m;
    location / {
      proxy_pass http://harmonize;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      # For the tests only (not in the README's example): which server answered.
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`
}

/** Starts the servers at the same moment on an empty database, and the balancer before them. */
export async function startCluster({ servers = 2 } = {}): Promise<Cluster> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'harmonize-scale-'))
  const name = `harmonize_scale_${process.pid}_${randomBytes(3).toString('hex')}`
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const databaseUrl = Object.assign(new URL(ADMIN_DATABASE_URL), { pathname: `/${name}` }).href
  const redisUrl = Object.assign(new URL(REDIS_URL), { pathname: `/${REDIS_DATABASE}` }).href
  const redis = new Redis(redisUrl)
  await redis.flushdb()
  redis.disconnect()

  const smtp = await startTestSmtp()
  const s3 = await startTestS3(`scale-${randomBytes(3).toString('hex')}`)
  const balancerPort = await freePort()
  const url = `http://127.0.0.1:${balancerPort}`
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    SMTP_URL: smtp.url,
    // The balancer on this machine is the one proxy: the member's address is what it adds.
    TRUST_PROXY: '127.0.0.1',
    CAPTCHA_COST: '1000',
    // Both sandboxes sign their events with one secret, so a test can deliver one to both.
    STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64url')}`,
    LOG_LEVEL: 'warn',
    ...s3.env,
  }

  const processes: ServerProcess[] = []
  for (let index = 0; index < servers; index++) {
    const port = await freePort()
    const dataDir = path.join(scratch, `server-${index + 1}`)
    mkdirSync(dataDir, { recursive: true })
    let output = ''
    const server: ServerProcess = {
      name: `server ${index + 1}`,
      url: `http://127.0.0.1:${port}`,
      child: null,
      output: () => output,
      async start() {
        const child = spawn(process.execPath, ['dist/server/server.mjs'], {
          cwd: root,
          env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        for (const stream of [child.stdout, child.stderr]) {
          stream?.setEncoding('utf8').on('data', (chunk: string) => {
            output = (output + chunk).slice(-200_000)
          })
        }
        server.child = child
        await waitForReady(
          server.url,
          server.output,
          undefined,
          () => child.exitCode !== null || child.signalCode !== null,
        )
      },
      async stop(signal) {
        const child = server.child
        if (!child || child.exitCode !== null || child.signalCode !== null) {
          return { code: child?.exitCode ?? null, signal: child?.signalCode ?? null }
        }
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
          (resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })),
        )
        child.kill(signal)
        const result = await exited
        server.child = null
        return result
      },
    }
    processes.push(server)
  }

  const prefix = path.join(scratch, 'nginx')
  mkdirSync(prefix, { recursive: true })
  const conf = path.join(prefix, 'nginx.conf')
  const down = new Set<number>()
  const writeConfig = () =>
    writeFileSync(
      conf,
      nginxConfig(
        prefix,
        balancerPort,
        processes.map((server, index) => ({
          address: server.url.replace('http://', ''),
          down: down.has(index),
        })),
      ),
    )
  writeConfig()
  const nginx = spawn('nginx', ['-p', prefix, '-c', conf, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let nginxOutput = ''
  nginx.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    nginxOutput += chunk
  })
  nginx.on('error', (error) => {
    nginxOutput += `\n${error.message}: install Debian's nginx (apt-get install nginx-light)`
  })

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  const close = async () => {
    await Promise.all(processes.map((server) => server.stop('SIGTERM')))
    nginx.kill('SIGQUIT')
    await pool.end()
    await smtp.close()
    await s3.close()
    const cleanup = new pg.Client({ connectionString: ADMIN_DATABASE_URL })
    await cleanup.connect()
    await cleanup.query(`drop database if exists ${name} with (force)`)
    await cleanup.end()
    // SCALE_KEEP=1 keeps the servers' folders and nginx's error log to look at afterwards.
    if (process.env.SCALE_KEEP) console.info(`kept ${scratch}`)
    else rmSync(scratch, { recursive: true, force: true })
  }

  try {
    // At the same moment, on the empty database.
    await Promise.all(processes.map((server) => server.start()))
    await waitForReady(url, () => `${nginxOutput}\n${processes.map((s) => s.output()).join('\n')}`)
  } catch (error) {
    // Nothing left running or taking room after a start that failed.
    await close().catch(() => {})
    throw error
  }

  return {
    url,
    servers: processes,
    smtp,
    s3,
    databaseUrl,
    env,
    sql: (text, values) => pool.query(text, values),
    async balance(index, inRotation) {
      if (inRotation) down.delete(index)
      else down.add(index)
      writeConfig()
      nginx.kill('SIGHUP')
      const address = processes[index]?.url.replace('http://', '')
      // Answered by the new workers: the server shows up again, or ten in a row without it.
      let without = 0
      const deadline = Date.now() + 30_000
      while (Date.now() < deadline) {
        // A kept-alive connection the old workers close as they go may fail: ask again.
        const answer = await fetch(`${url}/healthz`).catch(() => null)
        const by = answer?.headers.get('x-upstream') ?? ''
        if (inRotation && by === address) return
        without = by === address ? 0 : without + 1
        if (!inRotation && without >= 10) return
        await delay(20)
      }
      throw new Error(`the balancer did not ${inRotation ? 'take back' : 'leave out'} ${address}`)
    },
    close,
  }
}
