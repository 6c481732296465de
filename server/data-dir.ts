import { randomBytes } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'

export class DataDirLockedError extends Error {
  constructor(dir: string, holder: string) {
    super(
      `DATA_DIR ${dir} is already in use by another Harmonize process (${holder}). ` +
        'The embedded database allows one process at a time: stop the other process, ' +
        'or give this one its own DATA_DIR, or set DATABASE_URL to use PostgreSQL.',
    )
    this.name = 'DataDirLockedError'
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM means the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes an exclusive lock on DATA_DIR for the embedded database. PGlite has no lock of its own
 * and a second process opening the same directory can corrupt it, so we refuse instead.
 * A lock left by a process that died is taken over. Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true })
  const lockPath = path.join(dir, 'harmonize.lock')
  const self = `pid ${process.pid} on ${hostname()}`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600)
      writeFileSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date() }))
      closeSync(fd)
      let released = false
      return () => {
        if (released) return
        released = true
        rmSync(lockPath, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      let holder: { pid?: number; host?: string } = {}
      try {
        holder = JSON.parse(readFileSync(lockPath, 'utf8'))
      } catch {
        // An unreadable lock file is treated as stale.
      }
      const sameHost = holder.host === undefined || holder.host === hostname()
      if (holder.pid && (!sameHost || isAlive(holder.pid))) {
        throw new DataDirLockedError(dir, `pid ${holder.pid} on ${holder.host ?? 'this machine'}`)
      }
      rmSync(lockPath, { force: true })
    }
  }
  throw new DataDirLockedError(dir, `a process racing ${self}`)
}

export interface Secrets {
  authSecret: string
  /** Lets the operator command talk to a running server on this machine (see scripts/cli.ts). */
  cliToken: string
}

/**
 * Returns the secrets this installation signs with. Values from the environment win; missing
 * ones are generated once into DATA_DIR/secrets.json (owner-only) so they survive restarts and
 * never need to be committed anywhere.
 */
export function loadSecrets(dir: string, fromEnv: Partial<Secrets>): Secrets {
  mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'secrets.json')
  let stored: Partial<Secrets> = {}
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${file} exists but cannot be read as JSON; fix or remove it.`)
    }
  }
  const generated: Secrets = {
    authSecret: stored.authSecret ?? randomBytes(32).toString('base64url'),
    cliToken: stored.cliToken ?? randomBytes(32).toString('base64url'),
  }
  if (!stored.authSecret || !stored.cliToken) {
    writeFileSync(file, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600 })
  }
  return { ...generated, authSecret: fromEnv.authSecret ?? generated.authSecret }
}

/** Where a running server tells local tools its address. */
export const serverInfoFile = (dir: string) => path.join(dir, 'server.json')
