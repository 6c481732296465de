// How the browser's build is cut into chunks: by what each module is and by which features use
// it, read from the import graph while Rolldown splits the build (vite.config.ts), never from a
// file's name, so renaming or moving a file inside its folder leaves the chunks as they were.
// Left to itself, Rolldown makes a chunk per set of lazy modules sharing code: 35 files for
// /login's first render. These rules keep the count down (docs/decisions/0016, 0017) by the
// code's structure; `npm run size` holds /login's first render to its budget whatever moves.
import path from 'node:path'
import type { Plugin } from 'vite'

/** What Rolldown tells about a module while it splits the build (its ModuleInfo, in part). */
export interface GraphModule {
  id: string
  isEntry: boolean
  importers: readonly string[]
  dynamicImporters: readonly string[]
  importedIds: readonly string[]
  dynamicallyImportedIds: readonly string[]
  /** The module's code as the bundler read it; its length stands for the module's weight. */
  code?: string | null
}

export interface ModuleGraph {
  getModuleInfo(id: string): GraphModule | null
}

type Kind = 'app' | 'feature' | 'lib' | 'components' | 'domain' | 'icon' | 'package'

/**
 * What a module is, from where it lives under `root`: a feature's (`client/features/NAME/`),
 * shared code (`client/lib/`, `client/components/`, `domain/`), the app's shell (the rest of
 * `client/`), a lucide icon, or another package (plugins' virtual modules too).
 */
export function kindOf(id: string, root: string): { kind: Kind; feature?: string } {
  const file = id.replaceAll('\\', '/')
  const base = `${root.replaceAll('\\', '/')}/`
  if (file.includes('/node_modules/lucide-react/dist/esm/icons/')) return { kind: 'icon' }
  if (!file.startsWith(base) || file.includes('/node_modules/')) return { kind: 'package' }
  const local = file.slice(base.length)
  const feature = /^client\/features\/([^/]+)\//.exec(local)?.[1]
  if (feature) return { kind: 'feature', feature }
  if (local.startsWith('client/lib/')) return { kind: 'lib' }
  if (local.startsWith('client/components/')) return { kind: 'components' }
  if (local.startsWith('domain/')) return { kind: 'domain' }
  return { kind: 'app' }
}

/**
 * The chunk of every module of the build `start` belongs to: a group's name, or null where
 * Rolldown's own splitting decides (a module loaded only lazily, and what only it uses).
 *
 * - `entry`: what the entry imports, directly or not: the shell and the framework every page
 *   runs on (React, the router, the query client, i18next). It becomes the entry's chunk.
 * - A package the entry imports lazily (React's DOM renderer) is a chunk of its own with all the
 *   package code it reaches, named after the package (`react-dom`).
 * - A module only loaded lazily (a page, a lazy part, a language's texts) is a chunk of its own
 *   with what nothing else uses; with the modules its packages load lazily too (the service
 *   worker's registration and workbox-window), named after it.
 * - `common`: code of client/lib, client/components and domain/ shared by several lazy modules
 *   that needs nothing but the entry's chunk and itself (the form fields and buttons, sending a form, the
 *   messages' texts), with the icons it draws.
 * - `lib`, `components`: the rest of those folders' shared code (queries over the contracts,
 *   the dialog over Radix), one chunk per folder.
 * - Everything else shared (a feature's parts, domain's contracts and zod, packages) goes in a
 *   chunk per set of features using it, named after them: `auth` is the sign-in pages' shared
 *   code, `account+billing` the plan and cards that My Account shows too.
 * - An icon drawn from one chunk joins it. One drawn from several goes beside the shared chunks
 *   that draw it (`icons~auth`), or, drawn only by pages, into `icons`, so a page does not load
 *   another feature's code for an icon, nor ten icons one request each.
 * - A chunk of shared code under SMALL_GROUP characters joins the chunk of another set of
 *   features that every page loading it loads too (mergeSmallGroups): each was one more request
 *   on those pages, seven of the seventeen My Account waited for under 1 KB compressed.
 */
export function chunkPlan(
  start: string,
  graph: ModuleGraph,
  root: string,
): Map<string, string | null> {
  const modules = new Map<string, GraphModule>()
  const queue = [start]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (modules.has(id)) continue
    const module = graph.getModuleInfo(id)
    if (!module) continue
    modules.set(id, module)
    queue.push(
      ...module.importers,
      ...module.dynamicImporters,
      ...module.importedIds,
      ...module.dynamicallyImportedIds,
    )
  }
  const kind = (id: string) => kindOf(id, root)
  const ours = (id: string) => kind(id).kind !== 'package' && kind(id).kind !== 'icon'
  const at = (id: string) => modules.get(id)
  const imports = (id: string) => at(id)?.importedIds ?? []
  const importers = (id: string) => at(id)?.importers ?? []

  // Load boundaries: the entry and every module something imports with import().
  const bounds = [...modules.values()]
    .filter((module) => module.isEntry || module.dynamicImporters.length > 0)
    .map(({ id }) => id)
  /** For each module, the load boundaries whose static imports reach it. */
  const reachedFrom = new Map<string, Set<string>>()
  for (const bound of bounds) {
    const walk = [bound]
    for (let id = walk.pop(); id !== undefined; id = walk.pop()) {
      const from = reachedFrom.get(id) ?? new Set<string>()
      if (from.has(bound)) continue
      reachedFrom.set(id, from.add(bound))
      walk.push(...imports(id))
    }
  }
  const fromEntry = (id: string) =>
    [...(reachedFrom.get(id) ?? [])].some((bound) => at(bound)?.isEntry)
  const lazyOnly = (id: string) =>
    !at(id)?.isEntry && (at(id)?.dynamicImporters.length ?? 0) > 0 && importers(id).length === 0
  /** The features, and `app` for the shell's own lazy parts, whose boundaries reach a module. */
  const users = (id: string) => {
    const names = new Set<string>()
    for (const bound of reachedFrom.get(id) ?? []) {
      const { kind: boundKind, feature } = kind(bound)
      if (feature) names.add(feature)
      else if (boundKind === 'app') names.add('app')
    }
    return [...names].sort().join('+') || 'shared'
  }

  const plan = new Map<string, string | null>()
  for (const id of modules.keys()) {
    if (fromEntry(id)) plan.set(id, 'entry')
    else if (lazyOnly(id) || (reachedFrom.get(id)?.size ?? 0) < 2) plan.set(id, null)
  }

  // A package the entry module imports lazily (React's DOM renderer, imported apart so that it is
  // evaluated in a task of its own: ADR 0026) is every page's next load: it comes whole, with all
  // the package code it reaches, even what other chunks use too (react-dom's portals, which
  // Radix's dialog imports). Split by users, that code went with Radix, and /login loaded it.
  for (const bound of bounds) {
    const module = at(bound)
    if (kind(bound).kind !== 'package' || !module?.dynamicImporters.some(fromEntry)) {
      continue
    }
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(bound)?.[1] ?? 'renderer'
    for (const [member, from] of reachedFrom) {
      if (from.has(bound) && plan.get(member) !== 'entry' && kind(member).kind === 'package') {
        plan.set(member, name)
      }
    }
  }

  // A package's own import() (vite-plugin-pwa's registration loading workbox-window) is not a
  // boundary of ours: what it loads comes in the chunk of the lazy module that uses the package.
  for (const id of modules.keys()) {
    const module = at(id)
    if (!module || !lazyOnly(id) || module.dynamicImporters.some(ours)) continue
    const hosts = new Set(module.dynamicImporters.flatMap((j) => [...(reachedFrom.get(j) ?? [])]))
    const [host] = hosts
    if (hosts.size !== 1 || !host || !lazyOnly(host)) continue
    const name = path.basename(host).replace(/\.[^.]+$/, '')
    for (const [member, from] of reachedFrom) {
      if ([...from].every((bound) => bound === host || bound === id)) plan.set(member, name)
    }
  }

  // common: the greatest set of shared modules whose imports are all in the entry or in common.
  const common = new Set([...modules.keys()].filter((id) => !plan.has(id)))
  for (let changed = true; changed; ) {
    changed = false
    for (const id of common) {
      const what = kind(id).kind
      const fits =
        what === 'lib' ||
        what === 'components' ||
        what === 'domain' ||
        // An icon that shared code draws comes with it. Other packages never: react-hook-form
        // or zod would bring every page that shares anything their weight.
        (what === 'icon' && importers(id).some((j) => common.has(j)))
      if (!fits || !imports(id).every((j) => plan.get(j) === 'entry' || common.has(j))) {
        common.delete(id)
        changed = true
      }
    }
  }
  for (const id of common) plan.set(id, 'common')

  const featureSets = new Set<string>()
  for (const id of modules.keys()) {
    if (plan.has(id)) continue
    const what = kind(id).kind
    if (what === 'lib' || what === 'components') plan.set(id, what)
    else if (what !== 'icon') {
      plan.set(id, users(id))
      featureSets.add(users(id))
    }
  }

  for (const id of modules.keys()) {
    if (plan.has(id)) continue
    const drawnIn = new Set(importers(id).map((j) => plan.get(j)))
    const shared = [...drawnIn].filter((chunk) => typeof chunk === 'string').sort()
    const [only] = drawnIn
    if (drawnIn.size === 1 && only) plan.set(id, only)
    else plan.set(id, shared.length > 0 ? `icons~${shared.join('~')}` : 'icons')
  }
  mergeSmallGroups(plan, featureSets, {
    size: (id) => at(id)?.code?.length ?? 0,
    bounds: (id) => reachedFrom.get(id) ?? new Set(),
    imports,
  })
  return plan
}

/**
 * Below this many characters of code (before minifying: about 1 KB compressed), a chunk of
 * shared code costs a page more as a request of its own than as bytes inside another chunk.
 */
export const SMALL_GROUP = 6_000

/**
 * Moves each small group of shared code, smallest first, into the feature-set group that costs
 * least: one that every page (load boundary) loading the small group loads too, so no page
 * makes a request it did not make, choosing the one that fewest other pages load (those now
 * load the small group's bytes). It is never the entry's chunk, nor one that would then import
 * a chunk importing it: chunks in a cycle could run a module before one it needs.
 */
function mergeSmallGroups(
  plan: Map<string, string | null>,
  /** The groups named after the features sharing them (`account+billing`): those may merge. */
  featureSets: ReadonlySet<string>,
  graph: {
    size(id: string): number
    bounds(id: string): ReadonlySet<string>
    imports(id: string): readonly string[]
  },
) {
  const members = () => {
    const groups = new Map<string, string[]>()
    for (const [id, group] of plan) {
      if (group && featureSets.has(group)) groups.set(group, [...(groups.get(group) ?? []), id])
    }
    return groups
  }
  const boundsOf = (ids: readonly string[]) => new Set(ids.flatMap((id) => [...graph.bounds(id)]))
  const sizeOf = (ids: readonly string[]) => ids.reduce((sum, id) => sum + graph.size(id), 0)
  /** Whether group `to`'s chunk imports group `from`'s, directly or not, under the plan. */
  const reaches = (from: string, to: string) => {
    const seen = new Set<string>([from])
    const walk = [from]
    for (let group = walk.pop(); group !== undefined; group = walk.pop()) {
      if (group === to) return true
      for (const [id, at] of plan) {
        if (at !== group) continue
        for (const next of graph.imports(id)) {
          const chunk = plan.get(next)
          if (chunk && !seen.has(chunk)) {
            seen.add(chunk)
            walk.push(chunk)
          }
        }
      }
    }
    return false
  }
  const done = new Set<string>()
  for (;;) {
    const groups = members()
    const small = [...groups]
      .filter(([name, ids]) => !done.has(name) && sizeOf(ids) < SMALL_GROUP)
      .sort((a, b) => sizeOf(a[1]) - sizeOf(b[1]))[0]
    if (!small) return
    const [name, ids] = small
    done.add(name)
    const loaders = boundsOf(ids)
    let best: { name: string; extra: number } | undefined
    for (const [other, otherIds] of groups) {
      if (other === name) continue
      const theirs = boundsOf(otherIds)
      if (![...loaders].every((bound) => theirs.has(bound))) continue
      const extra = theirs.size - loaders.size
      if (best && extra >= best.extra) continue
      // Merged, `other` imports what `name` imports, and what imports `name` imports `other`:
      // refused if that closes a cycle.
      const targets = new Set(ids.flatMap((id) => graph.imports(id).map((j) => plan.get(j))))
      const users = new Set(
        [...plan]
          .filter(([id]) => graph.imports(id).some((j) => ids.includes(j)))
          .map(([, group]) => group),
      )
      for (const set of [targets, users]) {
        set.delete(name)
        set.delete(other)
      }
      if ([...targets].some((target) => target && reaches(target, other))) continue
      if ([...users].some((user) => user && reaches(other, user))) continue
      best = { name: other, extra }
    }
    if (best) for (const id of ids) plan.set(id, best.name)
  }
}

/** Where the build lists the modules of ours in each chunk (read by scripts/bench/bundle-size.ts). */
export const CHUNK_MODULES_FILE = '.vite/chunk-modules.json'

/**
 * Writes, beside Vite's manifest, which of our modules (paths from `root`) each JavaScript file
 * holds. The manifest names a shared chunk by its group only, so a check of what a page loads
 * (the console's code, say) reads this.
 */
export function chunkModules(root: string): Plugin {
  return {
    name: 'harmonize-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const base = `${root.replaceAll('\\', '/')}/`
      const files: Record<string, string[]> = {}
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue
        files[output.fileName] = output.moduleIds
          .map((id) => id.replaceAll('\\', '/'))
          .filter((id) => id.startsWith(base) && !id.includes('/node_modules/'))
          .map((id) => id.slice(base.length))
      }
      this.emitFile({
        type: 'asset',
        fileName: CHUNK_MODULES_FILE,
        source: JSON.stringify(files),
      })
    },
  }
}
