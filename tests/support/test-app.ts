import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { type BuildOptions, buildApp } from '../../server/app'
import { type Config, loadConfig } from '../../server/config'
import { copyPgliteTemplate } from './pglite-template'

/**
 * A database of its own for one test file: a fresh PGlite directory by default, or a fresh
 * PostgreSQL database on the server named by TEST_DATABASE_URL (CI runs the suite both ways).
 */
export interface TestEnvironment {
  env: Record<string, string>
  config: Config
  dataDir: string
  /** Builds the app on this environment's database (it can be built again after close). */
  build(options?: BuildOptions): Promise<FastifyInstance>
  /** Drops the database and removes the data directory. */
  destroy(): Promise<void>
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL)

/**
 * The sandbox's bank answering at the product's earliest moment, half a second after a charge,
 * without the product's spread to one and a half: `build({ payments: { sandboxBankDelay:
 * QUICK_BANK } })`, for test files that only wait for the bank's answer. Not sooner: the
 * product never answers sooner, so a test must not depend on an answer that comes faster.
 */
export const QUICK_BANK = { minSeconds: 0.5, maxSeconds: 0.6 }

/**
 * How many test databases one test process may hold open at once. Each app keeps a pool of
 * connections; two workers whose files kept every app until the end of the file ran
 * PostgreSQL (100 connections) out of them in CI, a failure that came and went with timing.
 * Past this cap the test fails at once, every time, with the cure in its message.
 */
const MAX_OPEN_ENVIRONMENTS = 4
let openEnvironments = 0

export async function createTestEnvironment(
  extraEnv: Record<string, string> = {},
  options: { fromTemplate?: boolean } = {},
): Promise<TestEnvironment> {
  if (openEnvironments >= MAX_OPEN_ENVIRONMENTS) {
    throw new Error(
      `More than ${MAX_OPEN_ENVIRONMENTS} test databases open at once in one test file: close ` +
        'each app and destroy its environment after the test that made it (afterEach), not ' +
        'after the file.',
    )
  }
  openEnvironments += 1
  try {
    return await openEnvironment(extraEnv, options)
  } catch (error) {
    openEnvironments -= 1
    throw error
  }
}

async function openEnvironment(
  extraEnv: Record<string, string>,
  options: { fromTemplate?: boolean },
): Promise<TestEnvironment> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'harmonize-test-'))
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    CAPTCHA_COST: '1000',
    ...extraEnv,
  }
  let dropDatabase = async () => {}
  const adminUrl = process.env.TEST_DATABASE_URL
  if (adminUrl && !extraEnv.DATABASE_URL) {
    const name = `harmonize_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    env.DATABASE_URL = url.toString()
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    }
  }
  // PostgreSQL needs the secret from the environment (config.ts says why); PGlite generates one.
  // A test that passes AUTH_SECRET, even an empty one, gets exactly what it asked for.
  if (env.DATABASE_URL && extraEnv.AUTH_SECRET === undefined) {
    env.AUTH_SECRET = randomBytes(32).toString('base64url')
  }
  const config = loadConfig(env)
  // A copy of the machine's migrated template instead of a fresh initdb in WebAssembly, the
  // costliest part of a test's start on a busy machine.
  if (config.database.kind === 'pglite' && options.fromTemplate !== false) {
    await copyPgliteTemplate(config.database.dir)
  }
  let destroyed = false
  return {
    env,
    config,
    dataDir,
    build: (options = {}) => buildApp(config, { logger: false, ...options }),
    async destroy() {
      if (destroyed) return
      destroyed = true
      openEnvironments -= 1
      await dropDatabase()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * One app on a database of its own for the whole test file, built before its tests and closed
 * after them: `const testApp = setUpTestApp()`, then `testApp.app` inside a test.
 */
export function setUpTestApp(
  extraEnv: Record<string, string> = {},
  options: BuildOptions = {},
): { readonly app: FastifyInstance; readonly environment: TestEnvironment } {
  let environment: TestEnvironment | undefined
  let app: FastifyInstance | undefined
  beforeAll(async () => {
    environment = await createTestEnvironment(extraEnv)
    app = await environment.build(options)
  })
  afterAll(async () => {
    await app?.close()
    await environment?.destroy()
  })
  const built = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test app is built in beforeAll; use it in a test')
    return value
  }
  return {
    get app() {
      return built(app)
    },
    get environment() {
      return built(environment)
    },
  }
}
