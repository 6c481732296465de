// Prints the gzipped JavaScript /login needs, chunk by chunk, and fails above the budgets:
// what its first render needs (the entry, React's renderer, the page and the language's texts), and what must
// have arrived before the form can be sent (the human-check widget and its worker, which load
// when the person starts using the form). Also fails when two chunks import each other, and
// when a page other than /admin loads the console's code.
// Reads the Vite manifest of the last build.
// `npm run bench` measures the same in a real Chromium, with what the server really sends.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { CHUNK_MODULES_FILE } from '../chunk-groups'
import { rendererKey } from '../prerender-pages'

const FIRST_RENDER_BUDGET_KB = 150
const READY_TO_SEND_BUDGET_KB = 160
const root = path.resolve(import.meta.dirname, '../..')
const dist = path.join(root, 'dist/client')
const manifestPath = path.join(dist, '.vite/manifest.json')

/** The /login route's page, a lazy route (client/app/routes.tsx), so an entry of the build. */
const LOGIN_PAGE_MODULE = 'features/auth/routes/login-page.tsx'
/** English is the default language; its catalogue is part of the first render. */
const CATALOGUE_MODULE = 'locales/en.json'

interface Chunk {
  file: string
  name?: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  dynamicImports?: string[]
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
const loginPageKey = LOGIN_PAGE_MODULE
for (const key of [LOGIN_PAGE_MODULE, CATALOGUE_MODULE]) {
  if (!manifest[key]?.isDynamicEntry) {
    console.error(
      `${key} is not a lazily loaded entry of the build; update scripts/bench/bundle-size.ts.`,
    )
    process.exit(1)
  }
}

/** The files of `keys` with everything they import statically. */
function filesOf(keys: string[]): Set<string> {
  return new Set([...keysOf(keys)].map((key) => manifest[key]?.file ?? key))
}

/**
 * Workers load when they are started, not with the page: the human check's solver starts when
 * the box is ticked (client/components/human-check.tsx). Their files are named inside the code.
 */
function withWorkerFiles(files: Set<string>): Set<string> {
  const all = new Set(files)
  for (const file of files) {
    const code = readFileSync(path.join(dist, file), 'utf8')
    for (const match of code.matchAll(/new Worker\((?:new URL\()?[`"'/]+(assets\/[^`"']+\.js)/g)) {
      if (match[1]) all.add(match[1])
    }
  }
  return all
}

const gzipKb = (file: string) =>
  gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024

function print(title: string, files: Set<string>, budget?: number): number {
  const rows = [...files].map((file) => ({ file, kb: gzipKb(file) })).sort((a, b) => b.kb - a.kb)
  const total = rows.reduce((sum, row) => sum + row.kb, 0)
  console.log(`${title} (gzipped JavaScript):`)
  for (const row of rows) console.log(`  ${row.kb.toFixed(1).padStart(7)} KB  ${row.file}`)
  console.log(
    `  ${total.toFixed(1).padStart(7)} KB  total, ${rows.length} files${budget ? ` (budget ${budget} KB)` : ''}`,
  )
  return total
}

/** The manifest keys of `keys` with everything they import statically. */
function keysOf(keys: string[]): Set<string> {
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    for (const child of manifest[key]?.imports ?? []) visit(child)
  }
  for (const key of keys) visit(key)
  return seen
}

const firstRender = filesOf([entryKey, rendererKey(manifest), loginPageKey, CATALOGUE_MODULE])
/**
 * What the page's own code loads once it is on screen (its form's validation, its endpoints):
 * the lazy imports of the page's chunks, not the entry's (every other page). The dialog's code
 * is a lazy import of the `common` chunk that every page loads; it comes only when a page shows
 * a dialog, and /login has none. Any other lazy import there fails this script until it is
 * judged here: /login might use it.
 */
const DIALOG_MODULE = 'components/ui/modal-dialog.tsx'
const entryKeys = keysOf([entryKey])
const loginKeys = [...keysOf([loginPageKey])].filter((key) => !entryKeys.has(key))
const unjudged = loginKeys
  .filter((key) => key.startsWith('_common-'))
  .flatMap((key) => manifest[key]?.dynamicImports ?? [])
  .filter((key) => key !== DIALOG_MODULE)
if (unjudged.length > 0) {
  console.error(
    `The common chunk loads ${unjudged.join(', ')} lazily: count it in /login's budget or say here why not (scripts/bench/bundle-size.ts).`,
  )
  process.exit(1)
}
const pageLazyKeys = loginKeys
  .flatMap((key) => manifest[key]?.dynamicImports ?? [])
  .filter((key) => key !== DIALOG_MODULE)
const afterShown = new Set([
  ...withWorkerFiles(filesOf(pageLazyKeys)),
  ...withWorkerFiles(firstRender),
])
const later = new Set([...afterShown].filter((file) => !firstRender.has(file)))
if (![...later].some((file) => /worker/.test(file))) {
  console.error(
    'No worker for the human check found in /login; update scripts/bench/bundle-size.ts.',
  )
  process.exit(1)
}
const firstTotal = print('First render of /login', firstRender, FIRST_RENDER_BUDGET_KB)
const laterTotal = print(
  '\nThen, once the page is shown and the box is ticked (validation, requests, the human check)',
  later,
)
const readyTotal = firstTotal + laterTotal
console.log(
  `\n  ${readyTotal.toFixed(1).padStart(7)} KB  before the form can be sent (budget ${READY_TO_SEND_BUDGET_KB} KB)`,
)
// One stylesheet for the app (vite.config.ts), inside the HTML of the prerendered pages.
const cssKb = Object.values(manifest)
  .filter((chunk) => chunk.file.endsWith('.css'))
  .reduce((sum, chunk) => sum + gzipKb(chunk.file), 0)
console.log(`  ${cssKb.toFixed(1).padStart(7)} KB  CSS, inside the page's HTML, not counted`)

/**
 * Chunks that import each other statically: scripts/chunk-groups.ts places every module itself,
 * without pulling its dependencies along, so a rule that places one wrongly can make two chunks
 * each wait for the other, and which runs first is then nobody's choice (docs/decisions/0017).
 */
function staticCycles(): string[] {
  const found: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const visit = (key: string, path: string[]) => {
    state.set(key, 'open')
    for (const child of manifest[key]?.imports ?? []) {
      if (state.get(child) === 'open') {
        const loop = child === key ? [key, key] : [...path.slice(path.indexOf(child)), key, child]
        found.push(loop.map((item) => manifest[item]?.file ?? item).join(' → '))
      } else if (!state.has(child)) visit(child, [...path, key])
    }
    state.set(key, 'done')
  }
  for (const key of Object.keys(manifest)) if (!state.has(key)) visit(key, [])
  return found
}

/**
 * The operator's console is a lazy chunk of its own (issue 27): no other page, nor the entry,
 * loads any of its modules with it, shared chunks included. Its modules are those of
 * client/features/admin/; which chunk holds which module comes from the build
 * (scripts/chunk-groups.ts, chunkModules).
 */
function consoleLeaks(): string[] {
  const modulesPath = path.join(dist, CHUNK_MODULES_FILE)
  if (!existsSync(modulesPath)) return [`${CHUNK_MODULES_FILE} is missing: build again`]
  const modules: Record<string, string[]> = JSON.parse(readFileSync(modulesPath, 'utf8'))
  const isConsole = (module: string) => module.startsWith('client/features/admin/')
  const consoleFiles = new Set(
    Object.entries(modules)
      .filter(([, held]) => held.some(isConsole))
      .map(([file]) => file),
  )
  // Every load but the console's own (its page and its texts, keyed by their source).
  const starts = Object.keys(manifest).filter(
    (key) =>
      (manifest[key]?.isEntry || manifest[key]?.isDynamicEntry) &&
      !key.startsWith('features/admin/'),
  )
  return starts.flatMap((start) =>
    [...filesOf([start])]
      .filter((file) => consoleFiles.has(file))
      .map((file) => `${manifest[start]?.file ?? start} loads ${file}`),
  )
}

let over = false
const leaks = consoleLeaks()
if (leaks.length > 0) {
  console.error(`The console's code comes with other pages:\n  ${leaks.join('\n  ')}`)
  over = true
} else {
  console.log("\nThe console's code (client/features/admin/) loads with /admin alone.")
}
const cycles = staticCycles()
if (cycles.length > 0) {
  console.error(`Chunks that import each other:\n  ${cycles.join('\n  ')}`)
  over = true
}
if (firstTotal > FIRST_RENDER_BUDGET_KB) {
  console.error(
    `First render over budget by ${(firstTotal - FIRST_RENDER_BUDGET_KB).toFixed(1)} KB.`,
  )
  over = true
}
if (readyTotal > READY_TO_SEND_BUDGET_KB) {
  console.error(
    `Ready to send over budget by ${(readyTotal - READY_TO_SEND_BUDGET_KB).toFixed(1)} KB.`,
  )
  over = true
}
if (over) process.exit(1)
