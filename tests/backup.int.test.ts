import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../db/client'
import { accessCodes } from '../db/schema/access'
import { serverInfoFile } from '../server/data-dir'
import { createTestEnvironment, type TestEnvironment, usingPostgres } from './support/test-app'

// `npm run cli -- backup FILE` and `restore FILE` on the embedded database: a backup taken while
// the server runs and writes, brought back into an empty DATA_DIR, holds every row that was
// answered before it began; restore refuses a DATA_DIR with a database or a server.

const root = path.resolve(import.meta.dirname, '..')

// Each test starts the command line several times, each a new Node process that loads the app:
// seconds each on a busy machine, so the whole test may take minutes.
const CLI_TEST_MS = 240_000

const cli = (env: Record<string, string>, ...args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )

describe.skipIf(usingPostgres)('backups of the embedded database', () => {
  let environment: TestEnvironment
  let app: FastifyInstance
  let url: string
  const scratch = mkdtempSync(path.join(tmpdir(), 'harmonize-backup-'))

  beforeAll(async () => {
    environment = await createTestEnvironment()
    app = await environment.build()
    await app.listen({ port: 0, host: '127.0.0.1' })
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    // The server writes where it listens (server.ts); this app was built in-process.
    writeFileSync(serverInfoFile(environment.config.dataDir), JSON.stringify({ url }))
  })
  afterAll(async () => {
    await app?.close()
    await environment?.destroy()
    rmSync(scratch, { recursive: true, force: true })
  })

  it(
    'backs up while the server writes; restored, every row answered before it began is there',
    async () => {
      const answered: { code: string; at: number }[] = []
      let writing = true
      // Codes made through the running server, one after another, until the backup is done.
      const load = (async () => {
        while (writing) {
          const made = await fetch(`${url}/api/operator/codes/create`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${app.secrets.cliToken}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ count: 3, note: 'under load' }),
          })
          if (made.ok) {
            const at = Date.now()
            for (const code of ((await made.json()) as { codes: string[] }).codes) {
              answered.push({ code, at })
            }
          }
        }
      })()
      while (answered.length < 30) await new Promise((resolve) => setImmediate(resolve))

      const file = path.join(scratch, 'during-load.backup')
      const began = Date.now()
      const backup = await cli(environment.env, 'backup', file)
      writing = false
      await load
      expect(backup.code, backup.stderr).toBe(0)
      expect(backup.stdout).toMatch(/^Backup written to .+during-load\.backup \(\d+\.\d MB\)/)
      expect(existsSync(`${file}.partial`)).toBe(false)
      // Answered at the latest in the millisecond the backup was asked for.
      const before = answered.filter((row) => row.at <= began).map((row) => row.code)
      expect(before.length).toBeGreaterThanOrEqual(30)

      // Not over the running server's DATA_DIR, nor over a backup already there.
      const refused = await cli(environment.env, 'restore', file)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('A Harmonize server is using')
      expect((await cli(environment.env, 'backup', file)).stderr).toContain('exists already')

      const fresh = { ...environment.env, DATA_DIR: path.join(scratch, 'restored') }
      const restored = await cli(fresh, 'restore', file)
      expect(restored.code, restored.stderr).toBe(0)
      expect(restored.stdout).toContain('Restored the backup taken at')
      expect((await cli(fresh, 'restore', file)).stderr).toContain('already holds a database')

      const handle = await openDatabase({
        kind: 'pglite',
        dir: path.join(fresh.DATA_DIR, 'pgdata'),
      })
      try {
        const kept = new Set(
          (await handle.db.select({ code: accessCodes.code }).from(accessCodes)).map(
            (row) => row.code,
          ),
        )
        expect(before.filter((code) => !kept.has(code))).toEqual([])
      } finally {
        await handle.close()
      }
      // The restored DATA_DIR serves: the command line finds its codes.
      const listed = await cli(fresh, 'codes', 'list')
      expect(listed.stdout).toContain(before[0])
    },
    CLI_TEST_MS,
  )

  it(
    'refuses what is not a backup, and points PostgreSQL to its own tools',
    async () => {
      const notOne = path.join(scratch, 'not-a-backup')
      writeFileSync(notOne, 'just words')
      const empty = { ...environment.env, DATA_DIR: path.join(scratch, 'empty') }
      const refused = await cli(empty, 'restore', notOne)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('is not a Harmonize backup')
      expect((await cli(empty, 'restore', path.join(scratch, 'missing'))).stderr).toContain(
        'There is no file',
      )
      const postgres = await cli(
        {
          ...environment.env,
          DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
          AUTH_SECRET: 'x'.repeat(43),
        },
        'backup',
        path.join(scratch, 'pg.backup'),
      )
      expect(postgres.code).toBe(1)
      expect(postgres.stderr).toContain('pg_dump')
    },
    CLI_TEST_MS,
  )
})
