// Prints the gzipped JavaScript the browser must load to first render /login, chunk by chunk,
// and fails when it is above the budget. Reads the Vite manifest of the last build.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET_KB = 150
const root = path.resolve(import.meta.dirname, '../..')
const dist = path.join(root, 'dist/client')
const manifestPath = path.join(dist, '.vite/manifest.json')

/** The module the /login route renders. Update it when the sign-in page moves. */
const LOGIN_PAGE_MODULE = 'features/auth/routes/login-page.tsx'

interface Chunk {
  file: string
  isEntry?: boolean
  imports?: string[]
  css?: string[]
}

if (!existsSync(manifestPath)) {
  console.error('No build found: run `npm run build` first.')
  process.exit(1)
}
const manifest: Record<string, Chunk> = JSON.parse(readFileSync(manifestPath, 'utf8'))
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry)
if (!entryKey) throw new Error('The manifest has no entry chunk.')
if (!manifest[LOGIN_PAGE_MODULE]) {
  console.error(`${LOGIN_PAGE_MODULE} is not in the build; update LOGIN_PAGE_MODULE.`)
  process.exit(1)
}

// The entry and the login page, with everything they import statically.
const needed = new Set<string>()
const visit = (key: string) => {
  if (needed.has(key)) return
  needed.add(key)
  for (const child of manifest[key]?.imports ?? []) visit(child)
}
visit(entryKey)
visit(LOGIN_PAGE_MODULE)

const gzipKb = (file: string) =>
  gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024
const rows = [...needed]
  .map((key) => ({ file: manifest[key]?.file ?? key, kb: gzipKb(manifest[key]?.file ?? key) }))
  .sort((a, b) => b.kb - a.kb)
const total = rows.reduce((sum, row) => sum + row.kb, 0)
const css = [...needed]
  .flatMap((key) => manifest[key]?.css ?? [])
  .reduce((sum, f) => sum + gzipKb(f), 0)

console.log('First render of /login (gzipped JavaScript):')
for (const row of rows) console.log(`  ${row.kb.toFixed(1).padStart(7)} KB  ${row.file}`)
console.log(`  ${total.toFixed(1).padStart(7)} KB  total (budget ${BUDGET_KB} KB)`)
console.log(`  ${css.toFixed(1).padStart(7)} KB  CSS, not counted`)
if (total > BUDGET_KB) {
  console.error(`Over budget by ${(total - BUDGET_KB).toFixed(1)} KB.`)
  process.exit(1)
}
