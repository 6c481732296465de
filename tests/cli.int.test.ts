import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { makeWav, makeWebmHeader } from './support/media'
import { createTestEnvironment, type TestEnvironment, usingPostgres } from './support/test-app'

const root = path.resolve(import.meta.dirname, '..')
const run = promisify(execFile)
const CODE = /^HZ-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/

let environment: TestEnvironment
const servers: ChildProcess[] = []

beforeAll(async () => {
  environment = await createTestEnvironment()
})

afterEach(() => {
  for (const server of servers.splice(0)) server.kill('SIGKILL')
})

afterAll(async () => {
  await environment.destroy()
})

async function cli(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...environment.env },
  }).catch((error: { code: number; stdout: string; stderr: string }) => error)
}

function startServer(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: root,
    env: { ...process.env, ...environment.env },
  })
  servers.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk) => {
      output += chunk
      if (output.includes('Harmonize is running at')) resolve()
    })
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before it was ready`)))
  })
}

describe('npm run cli -- codes', () => {
  it('creates codes, one per line, lists and revokes them without a running server', async () => {
    const created = await cli('codes', 'create', '--count', '3', '--note', 'Retreat')
    const codes = created.stdout.trim().split('\n')
    expect(codes).toHaveLength(3)
    for (const code of codes) expect(code).toMatch(CODE)

    const revoked = await cli('codes', 'revoke', codes[0]?.toLowerCase() ?? '')
    expect(revoked.stdout).toContain(`Revoked ${codes[0]}`)
    const listed = (await cli('codes', 'list')).stdout
    expect(listed).toMatch(new RegExp(`${codes[0]}\\s+revoked`))
    expect(listed).toMatch(new RegExp(`${codes[1]}\\s+available .* Retreat`))
  })

  it('explains bad usage and unknown codes with exit code 1', async () => {
    const usage = (await cli('codes', 'explode')) as { code?: number; stderr: string }
    expect(usage.code).toBe(1)
    expect(usage.stderr).toContain('Usage:')
    const unknown = (await cli('codes', 'revoke', 'HZ-2222-2222')) as {
      code?: number
      stderr: string
    }
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('not an active code')
  })

  it('works while the server runs on the same data', async () => {
    await startServer()
    const created = await cli('codes', 'create')
    expect(created.stdout.trim()).toMatch(CODE)
    const listed = (await cli('codes', 'list')).stdout
    expect(listed).toContain(created.stdout.trim())
    // With the embedded database this went through the server; nothing else may open it.
    if (!usingPostgres) expect(listed.split('\n').length).toBeGreaterThan(1)
  })
})

describe('npm run cli -- media', () => {
  const files = () => {
    const wav = path.join(environment.dataDir, 'calm tone.wav')
    const webm = path.join(environment.dataDir, 'clip.webm')
    const text = path.join(environment.dataDir, 'notes.txt')
    writeFileSync(wav, makeWav(0.25))
    writeFileSync(webm, makeWebmHeader())
    writeFileSync(text, 'not a media file')
    return { wav, webm, text }
  }

  async function addListRemove(label: string) {
    const { wav, webm, text } = files()
    const backing = await cli('media', 'add', wav, '--backing')
    expect(backing.stdout.trim()).toBe('medias/WH_BackingTrack-calm-tone.wav')
    const video = await cli('media', 'add', webm, '--panel', '01')
    expect(video.stdout.trim()).toBe('medias/clip.webm')
    const refused = (await cli('media', 'add', text)) as { code?: number; stderr: string }
    expect(refused.code, label).toBe(1)
    expect(refused.stderr).toContain('This file type is not supported.')

    const listed = (await cli('media', 'list')).stdout
    expect(listed).toMatch(/medias\/WH_BackingTrack-calm-tone\.wav\s+backing\s+all\s+audio\/wav/)
    expect(listed).toMatch(/medias\/clip\.webm\s+video\s+01\s+video\/webm/)

    for (const key of ['medias/WH_BackingTrack-calm-tone.wav', 'medias/clip.webm']) {
      expect((await cli('media', 'remove', key)).stdout).toContain(`Removed ${key}`)
    }
    const missing = (await cli('media', 'remove', 'medias/clip.webm')) as { code?: number }
    expect(missing.code).toBe(1)
    expect((await cli('media', 'list')).stdout).toContain('No media files yet.')
  }

  it('adds, lists and removes media files without a running server', async () => {
    await addListRemove('direct')
  })

  it('does the same through the running server', async () => {
    await startServer()
    await addListRemove('through the server')
  })
})
