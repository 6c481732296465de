import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../db/client'
import { appMeta } from '../db/schema/meta'
import { buildServer } from '../scripts/build-server'
import {
  createTestEnvironment,
  type TestEnvironment,
  usingPostgres,
} from '../tests/support/test-app'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// A bound for a hang: on a machine with every core busy, a start took over 30 s.
const START_TIMEOUT_MS = 120_000
const READY_LINE = /Harmonize is running at (http:\/\/localhost:\d+)/

interface ServerProcess {
  child: ChildProcess
  /** Everything the process wrote so far, for assertions and failure messages. */
  stdout(): string
  stderr(): string
  /** Settles when the process has exited (at once if it already has). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children: ServerProcess[] = []

/**
 * Starts `server/server.ts` the way an operator does, with the test environment's variables
 * (or, given `args`, Node with those arguments instead).
 */
function startServer(
  env: Record<string, string>,
  args = ['--import', 'tsx', 'server/server.ts'],
): ServerProcess {
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }))
  })
  const server = { child, stdout: () => stdout, stderr: () => stderr, exited }
  children.push(server)
  return server
}

/**
 * Waits until the process announces its URL and returns it. Rejects with everything the process
 * wrote when it exits first or stays silent for too long.
 */
function waitForUrl(server: ServerProcess, timeoutMs = START_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const output = () => `stdout:\n${server.stdout()}\nstderr:\n${server.stderr()}`
    const check = () => {
      const match = READY_LINE.exec(server.stdout())
      if (match?.[1]) {
        done()
        resolve(match[1])
      }
    }
    const timer = setTimeout(() => {
      done()
      reject(new Error(`the server did not start within ${timeoutMs} ms\n${output()}`))
    }, timeoutMs)
    const onExit = (code: number | null) => {
      done()
      reject(new Error(`the server exited with code ${code} before it was ready\n${output()}`))
    }
    const done = () => {
      clearTimeout(timer)
      server.child.stdout?.off('data', check)
      server.child.off('exit', onExit)
    }
    server.child.stdout?.on('data', check)
    server.child.once('exit', onExit)
    check()
  })
}

/** Asks the process to stop as an orchestrator does and returns how it exited. */
async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM')
  return server.exited
}

/** Reads the installation id straight from the database, with no server running. */
async function readInstallationId(env: TestEnvironment): Promise<unknown> {
  const handle = await openDatabase(env.config.database)
  try {
    const [row] = await handle.db.select().from(appMeta).where(eq(appMeta.key, 'installation_id'))
    return row?.value
  } finally {
    await handle.close()
  }
}

describe('the server process', () => {
  let env: TestEnvironment

  beforeAll(async () => {
    env = await createTestEnvironment({ NODE_ENV: 'test', PORT: '0' })
  })

  afterEach(async () => {
    // Only a failed test leaves a process behind; a clean test stopped its own.
    for (const server of children.splice(0)) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL')
        await server.exited
      }
    }
  })

  afterAll(async () => {
    await env?.destroy()
  })

  it('prints its URL, answers the probes, keeps DATA_DIR to itself and stops cleanly on SIGTERM', async () => {
    const server = startServer(env.env)
    const url = await waitForUrl(server)
    expect(url).not.toBe('http://localhost:0')
    const lockFile = path.join(env.dataDir, 'harmonize.lock')
    if (!usingPostgres) {
      expect(existsSync(lockFile)).toBe(true)
      const second = startServer(env.env)
      expect((await second.exited).code).toBe(1)
      expect(second.stderr()).toContain('already in use')
      expect(second.stdout()).not.toMatch(READY_LINE)
    }

    // The process that holds the directory keeps serving.
    const health = await fetch(`${url}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(200)
    expect(ready.headers.get('x-request-id')).toBeTruthy()

    expect(await stop(server)).toEqual({ code: 0, signal: null })
    expect(existsSync(lockFile)).toBe(false)
  }, 300_000)

  it('refuses to start with a bad configuration and names the variable', async () => {
    const server = startServer({ ...env.env, PORT: 'abc' })
    const { code } = await server.exited

    expect(code).toBe(1)
    expect(server.stderr()).toContain('PORT must be a whole number from 0 to 65535 (got "abc")')
    expect(server.stdout()).not.toMatch(READY_LINE)
  })
})

describe('the app, built again on the same data', () => {
  it('keeps its data across a restart', async () => {
    const env = await createTestEnvironment()
    try {
      const first = await env.build()
      await first.ready()
      await first.close()
      const installationId = await readInstallationId(env)

      const second = await env.build()
      try {
        const ready = await second.inject({ method: 'GET', url: '/readyz' })
        expect(ready.statusCode).toBe(200)
        const countries = await second.inject({ method: 'GET', url: '/api/countries' })
        expect(countries.json().countries).toHaveLength(250)
      } finally {
        await second.close()
      }
      expect(installationId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/))
      expect(await readInstallationId(env)).toBe(installationId)
    } finally {
      await env.destroy()
    }
  }, 300_000)
})

/**
 * The second half of `npm start` (after `exec`): Node, its flags and the compiled entry, run here
 * on a bundle built into a folder of this test's own.
 */
function compiledServerArgs(entry: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string }
  }
  const serve = pkg.scripts.start.split('&& exec ')[1]?.trim().split(/\s+/) ?? []
  expect(serve[0]).toBe('node')
  expect(serve.at(-1)).toBe('dist/server/server.mjs')
  return [...serve.slice(1, -1), entry]
}

describe('the compiled server that npm start runs', () => {
  let outDir: string
  let env: TestEnvironment | undefined

  beforeAll(async () => {
    // Beside dist/server: the bundle finds node_modules and the migrations from where it lies.
    mkdirSync(path.join(repoRoot, 'dist'), { recursive: true })
    outDir = mkdtempSync(path.join(repoRoot, 'dist/test-server-'))
    await buildServer(outDir)
  }, 180_000)

  afterEach(async () => {
    for (const server of children.splice(0)) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL')
        await server.exited
      }
    }
  })

  afterAll(async () => {
    await env?.destroy()
    rmSync(outDir, { recursive: true, force: true })
  })

  it('creates a new database, migrates and seeds it, serves the API and stops on SIGTERM', async () => {
    // A new PGlite folder, not the tests' template: the first start's initdb runs too.
    env = await createTestEnvironment(
      { NODE_ENV: 'production', PORT: '0' },
      { fromTemplate: false },
    )
    const server = startServer(env.env, compiledServerArgs(path.join(outDir, 'server.mjs')))
    const url = await waitForUrl(server)

    expect((await fetch(`${url}/readyz`)).status).toBe(200)
    const panels = await fetch(`${url}/api/panels`)
    expect(panels.status).toBe(200)
    expect(((await panels.json()) as { panels: unknown[] }).panels).toHaveLength(16)
    // The country lists are loaded on first use, from node_modules, beside the bundle.
    const countries = await fetch(`${url}/api/countries`)
    expect(((await countries.json()) as { countries: unknown[] }).countries).toHaveLength(250)

    expect(await stop(server)).toEqual({ code: 0, signal: null })
    expect(server.stderr()).toBe('')
  }, 300_000)
})
