// `npm test` step: fails on an import that crosses a boundary of our layout
// (docs/decisions/0005-one-way-to-do-each-thing.md) and on an import cycle, between modules or
// between features (docs/decisions/0018-no-import-cycles.md). Prints each forbidden import and
// each cycle with the rule it breaks; exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
// Oxc's parser, as Rolldown (Vite's bundler) ships it: TypeScript and JSX without the TypeScript
// compiler's API, which the native TypeScript 7 package does not offer.
import { parseSync } from 'rolldown/utils'

const root = path.resolve(import.meta.dirname, '..')
const SCANNED = ['client', 'server', 'domain', 'db', 'scripts', 'tests']
/** Files that put features together; they may import any part of a feature. */
const COMPOSITION_ROOTS = new Set(['server/app.ts', 'client/app/routes.tsx'])
/** More cycles than this through the same files are summed up, not listed. */
const MAX_CYCLES_PER_KNOT = 20

export interface Violation {
  file: string
  imported: string
  rule: string
}

/** One import of a file, resolved to a path from the root. */
export interface Import {
  target: string
  /** `import type` or `export type … from`: gone once compiled, so never part of a cycle. */
  typeOnly: boolean
  /** A dynamic `import()`; it still makes the two modules need each other. */
  lazy: boolean
}

/** Each scanned file with its imports (of ours and of packages alike). */
export type ImportGraph = Map<string, Import[]>

export interface Cycle {
  kind: 'modules' | 'features'
  /**
   * The loop in order, back to where it started (modules, or feature names); for a knot with
   * more cycles than are listed, its members.
   */
  path: string[]
  crowded: boolean
  /** For a feature cycle: each import that makes a step (`from → to`). */
  through: string[]
  rule: string
}

export const MODULE_CYCLE_RULE =
  'modules never import each other, directly or through others (import() counts, import type does not)'
export const FEATURE_CYCLE_RULE =
  'features never import each other, through any of their files (public.ts too)'

/** Tests and their support code (`testing/` folders hold the client's, which needs the DOM). */
const isTest = (file: string) =>
  /\.test\.tsx?$/.test(file) || file.startsWith('tests/') || file.includes('/testing/')

/** `server/features/auth/…` → { side: 'server', feature: 'auth', rest: '…' }. */
function featureOf(file: string) {
  const match = /^(client|server)\/features\/([^/]+)\/(.+)$/.exec(file)
  return match ? { side: match[1], feature: match[2] ?? '', rest: match[3] ?? '' } : null
}

/** Folders below the features: what they import must not depend on any feature. */
const SERVICES = ['server/plugins/', 'server/payments/', 'server/storage/', 'server/mail/']
const SHARED_CLIENT = ['client/lib/', 'client/components/']

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
    SERVICES.some((folder) => file.startsWith(folder)) &&
    !isTest(file) &&
    target.startsWith('server/features/')
  ) {
    return 'a plugin or service (payments, storage, mail) never imports a feature'
  }
  if (
    SHARED_CLIENT.some((folder) => file.startsWith(folder)) &&
    !isTest(file) &&
    target.startsWith('client/features/')
  ) {
    // Shared code is below every feature; its chunks are too (scripts/chunk-groups.ts).
    return 'shared client code (client/lib, client/components) never imports a feature'
  }
  if (
    target.startsWith('server/payments/sandbox/') &&
    !file.startsWith('server/payments/') &&
    !file.startsWith('tests/') &&
    !isTest(file)
  ) {
    return 'only server/payments/ reaches the sandbox; the rest uses the contract (gateway.ts)'
  }
  const to = featureOf(target)
  if (!to || COMPOSITION_ROOTS.has(file) || file.startsWith('tests/')) return null
  const from = featureOf(file)
  if (from && from.side === to.side && from.feature === to.feature) return null
  if (to.rest === 'public.ts' || to.rest === 'public.tsx') return null
  return `another feature is used only through its public module (features/${to.feature}/public.ts)`
}

interface ImportSpecifier {
  specifier: string
  typeOnly: boolean
  lazy: boolean
}

/**
 * Every import and re-export of a module's source, static and dynamic, from the parser's module
 * record (the whole syntax tree would take several times longer to hand over). An `import()`
 * of a computed name cannot be followed and is left out.
 */
export function importSpecifiers(file: string, text: string): ImportSpecifier[] {
  const { module, errors } = parseSync(file, text)
  if (errors.length > 0) throw new Error(`${file}: ${errors[0]?.message ?? 'does not parse'}`)
  const found: (ImportSpecifier & { at: number })[] = []
  for (const { start, end, moduleRequest, entries } of module.staticImports) {
    const typeOnly = entries.length > 0 && entries.every((entry) => entry.isType)
    found.push({
      at: start,
      specifier: moduleRequest.value,
      typeOnly: typeOnly && declaredAsType(text.slice(start, end)),
      lazy: false,
    })
  }
  for (const { start, end, entries } of module.staticExports) {
    const specifier = entries[0]?.moduleRequest?.value
    if (specifier === undefined) continue
    const typeOnly = entries.every((entry) => entry.isType)
    found.push({
      at: start,
      specifier,
      typeOnly: typeOnly && declaredAsType(text.slice(start, end)),
      lazy: false,
    })
  }
  for (const { start, moduleRequest } of module.dynamicImports) {
    const specifier = literalText(text.slice(moduleRequest.start, moduleRequest.end))
    if (specifier !== null) found.push({ at: start, specifier, typeOnly: false, lazy: true })
  }
  // In the order of the source.
  return found.sort((a, b) => a.at - b.at).map(({ at, ...specifier }) => specifier)
}

/**
 * Whether a statement whose every name is a type says so once for all (`import type { A }`),
 * which compiles to nothing. `import { type A }` says it name by name: with
 * `verbatimModuleSyntax` it compiles to `import {} from`, which still loads the module.
 */
const declaredAsType = (statement: string) => /^(import|export)\s+type\b/.test(statement)

/** The text of a string literal or of a template literal with no `${}`; null otherwise. */
function literalText(argument: string): string | null {
  const match = /^(['"`])([^'"`\\$]*)\1$/.exec(argument)
  return match?.[2] ?? null
}

/**
 * The root path `specifier` names from `file`: relative paths with or without their extension,
 * `.tsx` and `index` files, without a Vite suffix (`?raw`, `?url`). A package keeps its name; a
 * path that is not one of `files` (JSON catalogues, other assets) keeps its own.
 */
export function resolveImport(file: string, specifier: string, files: Set<string>): string {
  const bare = specifier.replace(/[?#].*$/, '')
  if (!bare.startsWith('./') && !bare.startsWith('../')) return bare
  const target = path.posix.join(path.posix.dirname(file), bare)
  const stem = target.replace(/\.[cm]?jsx?$/, '')
  const candidates = [
    target,
    `${target}.ts`,
    `${target}.tsx`,
    `${target}/index.ts`,
    `${target}/index.tsx`,
    // TypeScript lets `./a.js` name `a.ts`.
    `${stem}.ts`,
    `${stem}.tsx`,
  ]
  return candidates.find((candidate) => files.has(candidate)) ?? target
}

/** The import graph of source texts keyed by their root paths. */
export function importGraph(sources: Map<string, string>): ImportGraph {
  const files = new Set(sources.keys())
  const graph: ImportGraph = new Map()
  for (const [file, text] of sources) {
    graph.set(
      file,
      importSpecifiers(file, text).map(({ specifier, typeOnly, lazy }) => ({
        target: resolveImport(file, specifier, files),
        typeOnly,
        lazy,
      })),
    )
  }
  return graph
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

/** The repository's import graph. */
export function repositoryGraph(): ImportGraph {
  const files = SCANNED.flatMap(sourceFiles)
  return importGraph(
    new Map(files.map((file) => [file, readFileSync(path.join(root, file), 'utf8')])),
  )
}

export function findViolations(graph: ImportGraph = repositoryGraph()): Violation[] {
  const violations: Violation[] = []
  for (const [file, imports] of graph) {
    for (const { target } of imports) {
      const rule = brokenRule(file, target)
      if (rule) violations.push({ file, imported: target, rule })
    }
  }
  return violations
}

/** Who needs whom at run time: type-only imports left out, packages and assets too. */
function runtimeEdges(graph: ImportGraph): Map<string, string[]> {
  const edges = new Map<string, string[]>()
  for (const [file, imports] of graph) {
    const targets = imports
      .filter(({ typeOnly, target }) => !typeOnly && graph.has(target))
      .map(({ target }) => target)
    edges.set(file, [...new Set(targets)].sort())
  }
  return edges
}

/** Strongly connected components (Tarjan): the groups of nodes that can each reach the others. */
function components(edges: Map<string, string[]>): Map<string, number> {
  const componentOf = new Map<string, number>()
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  let counter = 0
  let component = 0
  const connect = (node: string) => {
    index.set(node, counter)
    low.set(node, counter)
    counter++
    stack.push(node)
    onStack.add(node)
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to)
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0))
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0))
      }
    }
    if (low.get(node) === index.get(node)) {
      let member: string | undefined
      do {
        member = stack.pop()
        if (member === undefined) break
        onStack.delete(member)
        componentOf.set(member, component)
      } while (member !== node)
      component++
    }
  }
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node)
  return componentOf
}

/** The loops of a graph: each elementary cycle once, or a knot that has too many to list. */
export interface Loops {
  /** Each starts at its smallest node, passes only through larger ones, and ends where it began. */
  cycles: string[][]
  /** The nodes of each knot (strongly connected group) with more than `limit` cycles. */
  crowded: string[][]
}

/** Every elementary cycle of `edges` (each node's targets sorted), at most `limit` per knot. */
export function elementaryCycles(edges: Map<string, string[]>, limit = MAX_CYCLES_PER_KNOT): Loops {
  const componentOf = components(edges)
  const cycles: string[][] = []
  const crowded = new Set<number>()
  const found = new Map<number, number>()
  for (const start of [...edges.keys()].sort()) {
    const component = componentOf.get(start) ?? -1
    if (crowded.has(component)) continue
    const walk = [start]
    // False once the knot has given `limit` cycles: the walk stops there.
    const visit = (node: string): boolean => {
      for (const to of edges.get(node) ?? []) {
        if (to === start) {
          const count = found.get(component) ?? 0
          if (count === limit) {
            crowded.add(component)
            return false
          }
          found.set(component, count + 1)
          cycles.push([...walk, start])
        } else if (to > start && componentOf.get(to) === component && !walk.includes(to)) {
          walk.push(to)
          const goOn = visit(to)
          walk.pop()
          if (!goOn) return false
        }
      }
      return true
    }
    visit(start)
  }
  const membersOf = (component: number) =>
    [...componentOf].filter(([, c]) => c === component).map(([node]) => node)
  return { cycles, crowded: [...crowded].map((component) => membersOf(component).sort()) }
}

/** Import cycles between modules of ours. */
export function moduleCycles(graph: ImportGraph): Cycle[] {
  const { cycles, crowded } = elementaryCycles(runtimeEdges(graph))
  return [
    ...cycles.map((path) => ({ path, crowded: false })),
    ...crowded.map((path) => ({ path, crowded: true })),
  ].map((loop) => ({ kind: 'modules', ...loop, through: [], rule: MODULE_CYCLE_RULE }))
}

/**
 * Cycles between features; a feature is its client and server folders together. Found on the
 * features' own code: a test may set up another feature's data without its feature needing it.
 */
export function featureCycles(graph: ImportGraph): Cycle[] {
  const steps = new Map<string, Map<string, string[]>>()
  for (const [file, targets] of runtimeEdges(graph)) {
    const from = featureOf(file)
    if (!from || isTest(file)) continue
    for (const target of targets) {
      const to = featureOf(target)
      if (!to || to.feature === from.feature) continue
      const byTarget = steps.get(from.feature) ?? new Map<string, string[]>()
      byTarget.set(to.feature, [...(byTarget.get(to.feature) ?? []), `${file} → ${target}`])
      steps.set(from.feature, byTarget)
    }
  }
  const edges = new Map<string, string[]>()
  for (const [feature, byTarget] of steps) edges.set(feature, [...byTarget.keys()].sort())
  const { cycles, crowded } = elementaryCycles(edges)
  const through = (path: string[]) =>
    path.slice(1).flatMap((feature, step) => steps.get(path[step] ?? '')?.get(feature) ?? [])
  return [
    ...cycles.map((path) => ({ path, crowded: false, through: through(path) })),
    ...crowded.map((path) => ({ path, crowded: true, through: [] })),
  ].map((loop) => ({ kind: 'features', ...loop, rule: FEATURE_CYCLE_RULE }))
}

/** Module cycles first, then feature cycles. */
export function findCycles(graph: ImportGraph = repositoryGraph()): Cycle[] {
  return [...moduleCycles(graph), ...featureCycles(graph)]
}

/** A cycle as the report prints it: the loop, the imports that make it, the rule. */
export function describeCycle({ kind, path: loop, crowded, through, rule }: Cycle): string {
  const head = crowded
    ? `more ${kind === 'features' ? 'feature cycles' : 'cycles'} than are listed, through ${loop.join(', ')}`
    : `${kind === 'features' ? 'features ' : ''}${loop.join(' → ')}`
  return [head, ...through.map((line) => `    ${line}`), `    ${rule}`].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const graph = repositoryGraph()
  const violations = findViolations(graph)
  const cycles = findCycles(graph)
  for (const { file, imported, rule } of violations) {
    process.stdout.write(`${file} → ${imported}\n    ${rule}\n`)
  }
  for (const cycle of cycles) process.stdout.write(`${describeCycle(cycle)}\n`)
  const problems = [
    violations.length > 0 &&
      `${violations.length} forbidden ${violations.length === 1 ? 'import' : 'imports'}`,
    cycles.length > 0 && `${cycles.length} import ${cycles.length === 1 ? 'cycle' : 'cycles'}`,
  ].filter(Boolean)
  process.stdout.write(
    problems.length === 0
      ? 'Imports: every boundary holds, and no import cycle.\n'
      : `Imports: ${problems.join(', ')}.\n`,
  )
  process.exit(problems.length === 0 ? 0 : 1)
}
