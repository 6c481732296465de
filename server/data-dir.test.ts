import { spawn } from 'node:child_process'
import { once } from 'node:events'
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DataDirLockedError, loadSecrets, lockDataDir, secureDataDir } from './data-dir'

const modeOf = (target: string) => lstatSync(target).mode & 0o777

/** Every path under `dir` (itself included) that group or others may use, with its mode. */
function sharedEntries(dir: string): string[] {
  const found: string[] = []
  const visit = (target: string) => {
    const info = lstatSync(target)
    if (info.isSymbolicLink()) return
    if (info.mode & 0o077)
      found.push(`${path.relative(dir, target) || '.'} ${modeOf(target).toString(8)}`)
    if (info.isDirectory()) for (const name of readdirSync(target)) visit(path.join(target, name))
  }
  visit(dir)
  return found
}

describe('secureDataDir', () => {
  let root: string
  let umaskBefore: number

  beforeEach(() => {
    // The umask is process-wide: put back whatever the runner had.
    umaskBefore = process.umask()
    root = mkdtempSync(path.join(tmpdir(), 'harmonize-data-dir-'))
  })

  afterEach(() => {
    process.umask(umaskBefore)
    rmSync(root, { recursive: true, force: true })
  })

  it('creates a missing DATA_DIR readable by its owner only', () => {
    const dir = path.join(root, 'var', 'data')

    secureDataDir(dir)

    expect(modeOf(dir)).toBe(0o700)
  })

  it('takes group and other access away from an installation made before the rule', () => {
    const dir = path.join(root, 'data')
    mkdirSync(path.join(dir, 'pgdata', 'global'), { recursive: true })
    mkdirSync(path.join(dir, 'files', 'avatars'), { recursive: true })
    writeFileSync(path.join(dir, 'pgdata', 'global', 'pg_control'), 'control')
    writeFileSync(path.join(dir, 'files', 'avatars', 'user-1'), 'picture')
    writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\n')
    for (const [relative, mode] of [
      ['.', 0o777],
      ['pgdata', 0o777],
      ['pgdata/global', 0o755],
      ['pgdata/global/pg_control', 0o666],
      ['files', 0o775],
      ['files/avatars', 0o777],
      ['files/avatars/user-1', 0o644],
      ['run.sh', 0o755],
    ] as const) {
      chmodSync(path.join(dir, relative), mode)
    }
    expect(sharedEntries(dir)).toHaveLength(8)

    secureDataDir(dir)

    expect(sharedEntries(dir)).toEqual([])
    // Only group and other bits go: the owner keeps what it had.
    expect(modeOf(dir)).toBe(0o700)
    expect(modeOf(path.join(dir, 'files', 'avatars'))).toBe(0o700)
    expect(modeOf(path.join(dir, 'pgdata', 'global', 'pg_control'))).toBe(0o600)
    expect(modeOf(path.join(dir, 'run.sh'))).toBe(0o700)
  })

  it('leaves what a link inside points to alone', () => {
    const dir = path.join(root, 'data')
    mkdirSync(dir)
    const outside = path.join(root, 'shared-with-the-team.txt')
    writeFileSync(outside, 'not ours to lock')
    chmodSync(outside, 0o644)
    symlinkSync(outside, path.join(dir, 'link'))

    secureDataDir(dir)

    expect(modeOf(outside)).toBe(0o644)
  })

  it('makes what is created afterwards owner-only', () => {
    const dir = path.join(root, 'data')
    secureDataDir(dir)

    writeFileSync(path.join(dir, 'server.json'), '{}')
    mkdirSync(path.join(dir, 'files'))

    expect(modeOf(path.join(dir, 'server.json'))).toBe(0o600)
    expect(modeOf(path.join(dir, 'files'))).toBe(0o700)
  })

  it('runs where DATA_DIR is first created: by the lock and by the secrets', () => {
    for (const [name, create] of [
      ['locked', (dir: string) => lockDataDir(dir)()],
      ['secrets', (dir: string) => loadSecrets(dir, {})],
    ] as const) {
      const dir = path.join(root, name)
      mkdirSync(dir, { mode: 0o777 })
      chmodSync(dir, 0o777)
      writeFileSync(path.join(dir, 'old-upload'), 'x')
      chmodSync(path.join(dir, 'old-upload'), 0o666)

      create(dir)

      expect(sharedEntries(dir), name).toEqual([])
      expect(statSync(dir).mode & 0o777, name).toBe(0o700)
    }
  })
})

describe('lockDataDir', () => {
  let dir: string
  const lockFile = () => path.join(dir, 'harmonize.lock')
  /** What the lock file says of a process, as a server writes it. */
  const lockOf = (pid: number, started: string | null) =>
    writeFileSync(lockFile(), JSON.stringify({ pid, started, host: hostname(), since: new Date() }))
  /** The kernel's start time of a process, as /proc tells it. */
  const startOf = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  }

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harmonize-lock-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('refuses a DATA_DIR held by a running process, and by this one a second time', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'])
    try {
      const pid = holder.pid ?? 0
      lockOf(pid, startOf(pid))
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
      expect(() => lockDataDir(dir)).toThrow(`pid ${pid}`)
    } finally {
      holder.kill('SIGKILL')
    }
    await once(holder, 'exit')
    const release = lockDataDir(dir)
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
    release()
    lockDataDir(dir)()
  })

  it('takes over at once a lock whose process was killed, or whose pid another process or this one now has', async () => {
    // Killed: the restart that follows a crash is never refused.
    const killed = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'])
    const pid = killed.pid ?? 0
    lockOf(pid, startOf(pid))
    killed.kill('SIGKILL')
    await once(killed, 'exit')
    lockDataDir(dir)()

    // A pid now used by a process started later (pid 1 runs, but not since the lock's time).
    lockOf(1, '1')
    lockDataDir(dir)()
    // This process's pid, written by a former process (a container restarted with the same
    // pids): this process holds no lock, so it is a leftover.
    lockOf(process.pid, startOf(process.pid))
    const release = lockDataDir(dir)
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid })
    release()
  })
})

describe('lockDataDir, several processes at once', () => {
  it('lets exactly one of several processes take over a stale lock', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'harmonize-lock-race-'))
    try {
      writeFileSync(
        path.join(dir, 'harmonize.lock'),
        JSON.stringify({ pid: 1, started: '1', host: hostname() }),
      )
      // Each process tries at once, holds what it got until all have tried, and says.
      const script = `
        import { lockDataDir } from ${JSON.stringify(path.resolve(import.meta.dirname, 'data-dir.ts'))}
        let result = 'refused'
        try { lockDataDir(${JSON.stringify(dir)}); result = 'locked' } catch {}
        process.stdout.write(result)
        await new Promise((resolve) => process.stdin.once('data', resolve))
      `
      const children = Array.from({ length: 4 }, () =>
        spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]),
      )
      const results = await Promise.all(
        children.map(
          (child) =>
            new Promise<string>((resolve) => {
              child.stdout.setEncoding('utf8').once('data', resolve)
            }),
        ),
      )
      for (const child of children) child.stdin.end('done')
      await Promise.all(children.map((child) => once(child, 'exit')))
      expect(results.filter((result) => result === 'locked')).toHaveLength(1)
      expect(results.filter((result) => result === 'refused')).toHaveLength(3)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
