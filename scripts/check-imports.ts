// `npm test` step: fails on an import that crosses a boundary of our layout
// (docs/decisions/0005-one-way-to-do-each-thing.md). Prints each forbidden import with the rule
// it breaks; exits 1 when there is one.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const root = path.resolve(import.meta.dirname, '..')
const SCANNED = ['client', 'server', 'domain', 'db', 'scripts', 'tests']
/** Files that put features together; they may import any part of a feature. */
const COMPOSITION_ROOTS = new Set(['server/app.ts', 'client/app/routes.tsx'])

export interface Violation {
  file: string
  imported: string
  rule: string
}

/** Tests and their support code (`testing/` folders hold the client's, which needs the DOM). */
const isTest = (file: string) =>
  /\.test\.tsx?$/.test(file) || file.startsWith('tests/') || file.includes('/testing/')

/** `server/features/auth/…` → { side: 'server', feature: 'auth', rest: '…' }. */
function featureOf(file: string) {
  const match = /^(client|server)\/features\/([^/]+)\/(.+)$/.exec(file)
  return match ? { side: match[1], feature: match[2], rest: match[3] ?? '' } : null
}

/** The rule `file` breaks by importing `target` (both relative to the root), or null. */
export function brokenRule(file: string, target: string): string | null {
  const top = target.split('/')[0] ?? ''
  if (!SCANNED.includes(top)) return null
  if (file.startsWith('domain/') && !isTest(file) && top !== 'domain') {
    return 'domain imports nothing of ours outside domain/'
  }
  if (file.startsWith('client/')) {
    if (['server', 'db', 'scripts'].includes(top))
      return 'client never imports server, db or scripts'
    if ((top === 'tests' || target.includes('/testing/')) && !isTest(file)) {
      return 'only client tests may use tests/ and testing/'
    }
  }
  if (file.startsWith('db/') && ['server', 'client', 'scripts'].includes(top)) {
    return 'db imports only domain and db'
  }
  if (
    file.startsWith('server/plugins/') &&
    !isTest(file) &&
    target.startsWith('server/features/')
  ) {
    return 'a plugin never imports a feature'
  }
  const to = featureOf(target)
  if (!to || COMPOSITION_ROOTS.has(file) || file.startsWith('tests/')) return null
  const from = featureOf(file)
  if (from && from.side === to.side && from.feature === to.feature) return null
  if (to.rest === 'public.ts' || to.rest === 'public.tsx') return null
  return `another feature is used only through its public module (features/${to.feature}/public.ts)`
}

/** Every import and re-export of `file` (static and dynamic), resolved to a root path. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8')
  const { importedFiles } = ts.preProcessFile(text, true, true)
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(path.posix.join(path.posix.dirname(file), name)))
}

function resolve(target: string): string {
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`]) {
    try {
      if (statSync(path.join(root, candidate)).isFile()) return candidate
    } catch {
      // Try the next form.
    }
  }
  // JSON catalogues and other assets keep their own names.
  return target
}

function sourceFiles(folder: string): string[] {
  const found: string[] = []
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = `${folder}/${entry.name}`
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) {
        found.push(...sourceFiles(relative))
      }
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      found.push(relative)
    }
  }
  return found
}

export function findViolations(): Violation[] {
  const violations: Violation[] = []
  for (const file of SCANNED.flatMap(sourceFiles)) {
    for (const imported of importsOf(file)) {
      const rule = brokenRule(file, imported)
      if (rule) violations.push({ file, imported, rule })
    }
  }
  return violations
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = findViolations()
  for (const { file, imported, rule } of violations) {
    process.stdout.write(`${file} → ${imported}\n    ${rule}\n`)
  }
  process.stdout.write(
    violations.length === 0
      ? 'Imports: every boundary holds.\n'
      : `Imports: ${violations.length} forbidden ${violations.length === 1 ? 'import' : 'imports'}.\n`,
  )
  process.exit(violations.length === 0 ? 0 : 1)
}
