import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Tests sit beside the code they test; they never end up in a build. */
const NOT_BUILT = /\.test\.tsx?$|(^|[\\/])__snapshots__([\\/]|$)/

function addFiles(root: string, relative: string, into: string[]) {
  const full = path.join(root, relative)
  if (!existsSync(full) || NOT_BUILT.test(relative)) return
  if (!statSync(full).isDirectory()) {
    into.push(relative)
    return
  }
  for (const entry of readdirSync(full)) addFiles(root, path.join(relative, entry), into)
}

/**
 * The packages that are installed, by name and version. `npm install` rewrites package-lock.json
 * (npm 11 adds other platforms' optional packages), so its bytes say little about what a build
 * reads; the list of what is in node_modules does.
 */
function installedPackages(root: string): string {
  const hidden = path.join(root, 'node_modules/.package-lock.json')
  if (!existsSync(hidden)) return ''
  const { packages = {} } = JSON.parse(readFileSync(hidden, 'utf8')) as {
    packages?: Record<string, { version?: string }>
  }
  return Object.entries(packages)
    .map(([name, { version }]) => `${name}@${version ?? ''}`)
    .sort()
    .join('\n')
}

/**
 * A fingerprint of what a build reads: the content of its source files (not their dates, which
 * a checkout or an install changes without changing what is built) and the installed packages.
 */
export function inputsHash(root: string, inputs: readonly string[]): string {
  const files: string[] = []
  for (const input of inputs) addFiles(root, input, files)
  const hash = createHash('sha256')
  for (const file of files.sort()) {
    hash.update(`${file.split(path.sep).join('/')}\0`)
    hash.update(readFileSync(path.join(root, file)))
    hash.update('\0')
  }
  hash.update(installedPackages(root))
  return hash.digest('hex')
}

/** True when the build was made from other inputs than these, or is missing. */
export function isStale(stampFile: string, hash: string): boolean {
  return !existsSync(stampFile) || readFileSync(stampFile, 'utf8').trim() !== hash
}

/** Records what a finished build was made from; written last, so a failed build stays stale. */
export function writeStamp(stampFile: string, hash: string) {
  writeFileSync(stampFile, `${hash}\n`)
}

/** What scripts/start-stamp.mjs compares; see there. */
interface StartStamp {
  outputs: string[]
  stamps: Record<string, string>
  folders: Record<string, string>
  files: Record<string, [size: number, time: number]>
}

/**
 * Every folder's entries and every file's size and time under `inputs`, tests included (a
 * change there only costs the slower check once). Taken before the builds are checked, so a file
 * that changes meanwhile is seen as changed at the next start.
 */
export function snapshotInputs(root: string, inputs: readonly string[]) {
  const folders: StartStamp['folders'] = {}
  const files: StartStamp['files'] = {}
  const visit = (relative: string) => {
    const full = path.join(root, relative)
    if (!existsSync(full)) return
    const stats = statSync(full)
    if (!stats.isDirectory()) {
      files[relative] = [stats.size, stats.mtimeMs]
      return
    }
    const entries = readdirSync(full).sort()
    folders[relative] = entries.join('\n')
    for (const entry of entries) visit(path.join(relative, entry))
  }
  for (const input of inputs) visit(input)
  return { folders, files }
}

/**
 * Lets the next `npm start` skip the content check while nothing in `snapshot` moves, the builds'
 * stamps (`stampFiles`) keep their content and `outputs` exist. Written once both builds are
 * known to be current.
 */
export function writeStartStamp(
  root: string,
  snapshot: ReturnType<typeof snapshotInputs>,
  stampFiles: readonly string[],
  outputs: readonly string[],
  file: string,
) {
  const stamp: StartStamp = {
    outputs: [...outputs],
    stamps: Object.fromEntries(
      stampFiles.map((stampFile) => [stampFile, readFileSync(path.join(root, stampFile), 'utf8')]),
    ),
    ...snapshot,
  }
  writeFileSync(path.join(root, file), JSON.stringify(stamp))
}
