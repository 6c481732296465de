import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { npmScript, root } from './npm-script'

/** A first start on a slow, shared machine runs every migration and seed; give it time. */
const READY_TIMEOUT_MS = 240_000
const STOP_GRACE_MS = 15_000
/** Ports other runs on this machine expect to own (`npm start`, the e2e server). */
const RESERVED_PORTS = new Set([3000, 3111])

/** Variables of the server's configuration that must come from the bench, not the caller. */
const CONFIG_KEYS = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'SMTP_URL',
  'REDIS_URL',
  'AUTH_SECRET',
  'CAPTCHA_COST',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'PAYMENTS',
  'STORAGE_URL',
]

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer()
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const address = server.address()
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
      })
    })
    if (port && !RESERVED_PORTS.has(port)) return port
  }
}

/** The environment the server and its CLI get: the caller's, minus its app settings, plus ours. */
export function serverEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of CONFIG_KEYS) delete env[key]
  return { ...env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...settings }
}

export interface RunningServer {
  /** What Node's fetch and autocannon use: the listening address, no name lookup. */
  origin: string
  /** What a browser uses: the default PUBLIC_URL, which cookies and origin checks expect. */
  publicUrl: string
  /** The process that serves (the pid it writes into DATA_DIR/server.json). */
  pid: number
  /** From spawn to the first 200 from /readyz. */
  readyMs: number
  /** The start script built the client first, so readyMs includes a build. */
  builtClient: boolean
  env: NodeJS.ProcessEnv
  stop(): Promise<void>
}

/**
 * Starts the server the way `npm start` does (its script, read now) with `settings` and waits
 * for /readyz. The child leads a process group of its own, so stopping it also stops anything a
 * wrapper script started.
 */
export async function startServer(settings: Record<string, string>): Promise<RunningServer> {
  const port = await freePort()
  const env = serverEnv({ ...settings, PORT: String(port) })
  const dataDir = env.DATA_DIR
  if (!dataDir) throw new Error('startServer needs DATA_DIR')
  const origin = `http://127.0.0.1:${port}`
  const { command, args, shell } = npmScript('start')

  const started = performance.now()
  const child = spawn(command, args, {
    cwd: root,
    env,
    shell,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let exited = false
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true
      resolve()
    })
  })

  const stop = () => stopGroup(child, exit, () => exited)
  let readyMs = 0
  try {
    for (;;) {
      if (exited) throw new Error(`The server exited before it was ready:\n${output}`)
      if (performance.now() - started > READY_TIMEOUT_MS) {
        throw new Error(`The server was not ready after ${READY_TIMEOUT_MS / 1000} s:\n${output}`)
      }
      if (await answersReady(origin)) {
        readyMs = performance.now() - started
        break
      }
      await sleep(25)
    }
  } catch (error) {
    await stop()
    throw error
  }
  return {
    origin,
    publicUrl: `http://localhost:${port}`,
    pid: servingPid(dataDir, child),
    readyMs,
    builtClient: output.includes('Building the app'),
    env,
    stop,
  }
}

async function answersReady(origin: string): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2_000) })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

/** The serving process names itself in DATA_DIR/server.json; a wrapper's pid would be wrong. */
function servingPid(dataDir: string, child: ChildProcess): number {
  const info = path.resolve(root, dataDir, 'server.json')
  if (existsSync(info)) {
    const { pid } = JSON.parse(readFileSync(info, 'utf8')) as { pid?: number }
    if (pid) return pid
  }
  if (!child.pid) throw new Error('The server has no pid')
  return child.pid
}

async function stopGroup(child: ChildProcess, exit: Promise<void>, exited: () => boolean) {
  if (exited() || !child.pid) return
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name)
    } catch {
      // Already gone.
    }
  }
  signal('SIGTERM')
  const timedOut = await Promise.race([exit.then(() => false), sleep(STOP_GRACE_MS, true)])
  if (timedOut) {
    signal('SIGKILL')
    await exit
  }
}
