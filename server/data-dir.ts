import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  type Dirent,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { isMainThread } from 'node:worker_threads'

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

export class DataDirPermissionError extends Error {
  constructor(target: string, code: string | undefined) {
    super(
      `Cannot make ${target} private to this user (${code ?? 'unknown error'}). DATA_DIR holds ` +
        'the database, uploads and the signing secret: give it and everything in it to the user ' +
        'that runs Harmonize (for example chown -R that-user DATA_DIR).',
    )
    this.name = 'DataDirPermissionError'
  }
}

/** Group and other permission bits. */
const SHARED_BITS = 0o077

/** Takes group and other access away from `target`, whose current mode is `mode`. */
function removeSharedAccess(target: string, mode: number): void {
  if ((mode & SHARED_BITS) === 0) return
  try {
    chmodSync(target, mode & 0o7777 & ~SHARED_BITS)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // Removed while we walked (PGlite drops temporary files while it runs).
    if (code === 'ENOENT') return
    throw new DataDirPermissionError(target, code)
  }
}

function makeContentsPrivate(folder: string): void {
  let entries: Dirent[]
  try {
    entries = readdirSync(folder, { withFileTypes: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return
    throw new DataDirPermissionError(folder, code)
  }
  for (const entry of entries) {
    // chmod follows links, so a link could make us change something outside DATA_DIR.
    if (entry.isSymbolicLink()) continue
    const target = path.join(folder, entry.name)
    let mode: number
    try {
      mode = lstatSync(target).mode
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw error
    }
    removeSharedAccess(target, mode)
    if (entry.isDirectory()) makeContentsPrivate(target)
  }
}

/**
 * Makes DATA_DIR private to the user running the server: it holds the database, the uploads and
 * the signing secret. Creates it with mode 0700 (or takes group and other access away from an
 * existing one and from everything already inside, for installations made before this rule),
 * and sets the process umask to 0077 so what is created afterwards starts owner-only.
 * Idempotent; cheap enough to call at every start. Links inside are left alone.
 *
 * PGlite follows the umask for its folders but not its files: Emscripten chmods each file it
 * creates to the mode the C code asked for, and the cluster it lays down on first start is 0666.
 * So call this again once the embedded database is open.
 */
export function secureDataDir(dir: string): void {
  // Worker threads share the process umask and may not change it; the main thread sets it.
  if (isMainThread) process.umask(0o077)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  removeSharedAccess(dir, statSync(dir).mode)
  makeContentsPrivate(dir)
}

/**
 * When the kernel started process `pid` (clock ticks since boot, from /proc), `dead` for none
 * or a zombie (killed, not yet reaped: it holds nothing any more), or null where /proc cannot
 * tell (not Linux).
 */
function startOf(pid: number): string | 'dead' | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ESRCH') return existsSync('/proc/self/stat') ? 'dead' : null
    return null
  }
  // The command's name (field 2) may hold spaces and parentheses; the fields after its closing
  // parenthesis start with the state (field 3), and the start time is field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  if (fields[0] === 'Z' || fields[0] === 'X') return 'dead'
  return fields[19] ?? null
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

/** Whether the process a lock names still runs: the same pid, started at the same moment. */
function holds(holder: { pid: number; started?: string | null }): boolean {
  const started = startOf(holder.pid)
  if (started === 'dead') return false
  // A pid reused by another process (a container restarted, pids counted again from 1).
  if (started !== null && holder.started) return started === holder.started
  return isAlive(holder.pid)
}

/** DATA_DIRs this process has locked: a second lock on one is refused like another process's. */
const lockedHere = new Set<string>()

/**
 * Takes an exclusive lock on DATA_DIR for the embedded database. PGlite has no lock of its own
 * and a second process opening the same directory can corrupt it, so we refuse instead.
 * A lock left by a process that is gone is taken over at once: one killed (even while not yet
 * reaped), or whose pid now names another process or this one. Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  secureDataDir(dir)
  const lockPath = path.join(dir, 'harmonize.lock')
  const self = `pid ${process.pid} on ${hostname()}`
  if (lockedHere.has(realpathSync(dir))) throw new DataDirLockedError(dir, self)
  const content = JSON.stringify({
    pid: process.pid,
    started: startOf(process.pid),
    host: hostname(),
    since: new Date(),
  })
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written whole beside it, then linked into place (which fails if a lock is there): a lock
    // file is never seen empty or half-written, which another process would take for stale.
    const mine = path.join(dir, `.harmonize.lock.${process.pid}.${randomBytes(4).toString('hex')}`)
    writeFileSync(mine, content, { mode: 0o600 })
    try {
      linkSync(mine, lockPath)
      lockedHere.add(realpathSync(dir))
      let released = false
      return () => {
        if (released) return
        released = true
        lockedHere.delete(realpathSync(dir))
        rmSync(lockPath, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    } finally {
      rmSync(mine, { force: true })
    }
    let found = ''
    try {
      found = readFileSync(lockPath, 'utf8')
    } catch {
      continue // Released meanwhile: try again.
    }
    let holder: { pid?: number; host?: string; started?: string | null } = {}
    try {
      holder = JSON.parse(found)
    } catch {
      // Unreadable (never one of ours, which are linked in whole): stale.
    }
    const sameHost = holder.host === undefined || holder.host === hostname()
    // This process holds no lock on it (checked above): one naming our pid was a former
    // process's.
    const ours = sameHost && holder.pid === process.pid
    if (holder.pid && !ours && (!sameHost || holds({ pid: holder.pid, started: holder.started }))) {
      throw new DataDirLockedError(dir, `pid ${holder.pid} on ${holder.host ?? 'this machine'}`)
    }
    // Taken over by moving it aside, in one step, and only if what moved is what was judged
    // stale: of two processes taking over the same stale lock, the second moves the first's
    // fresh lock, sees so, and puts it back.
    const aside = `${lockPath}.stale.${process.pid}.${randomBytes(4).toString('hex')}`
    try {
      renameSync(lockPath, aside)
    } catch {
      continue
    }
    if (readFileSync(aside, 'utf8') !== found) {
      try {
        linkSync(aside, lockPath)
      } finally {
        rmSync(aside, { force: true })
      }
      throw new DataDirLockedError(dir, `a process racing ${self}`)
    }
    rmSync(aside, { force: true })
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
  secureDataDir(dir)
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
