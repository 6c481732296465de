import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import type { APIRequestContext } from '@playwright/test'
import { expect } from '@playwright/test'
import { e2eDataDir } from './data-dir'

const root = path.resolve(import.meta.dirname, '../../..')

/** A new access code, made by the operator command through the running e2e server. */
export async function createAccessCode(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/cli.ts', 'codes', 'create'],
    { cwd: root, env: { ...process.env, DATA_DIR: e2eDataDir() } },
  )
  return stdout.trim()
}

/** Gives the signed-in user of `request` access with a fresh code. */
export async function grantAccess(request: APIRequestContext): Promise<void> {
  const response = await request.post('/api/account/access-code', {
    data: { code: await createAccessCode() },
  })
  expect(response.ok(), await response.text()).toBe(true)
}
