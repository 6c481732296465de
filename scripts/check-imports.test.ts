import { describe, expect, it } from 'vitest'
import {
  brokenRule,
  type Cycle,
  describeCycle,
  elementaryCycles,
  FEATURE_CYCLE_RULE,
  findCycles,
  findViolations,
  importGraph,
  importSpecifiers,
  MODULE_CYCLE_RULE,
  repositoryGraph,
  resolveImport,
} from './check-imports'

/** The cycles of in-memory sources, as the report's loops (`a.ts → b.ts → a.ts`). */
const cyclesOf = (sources: Record<string, string>, kind?: Cycle['kind']) =>
  findCycles(importGraph(new Map(Object.entries(sources))))
    .filter((cycle) => kind === undefined || cycle.kind === kind)
    .map(({ path }) => path.join(' → '))

describe('the import boundaries', () => {
  it('refuse domain importing anything of ours outside domain/', () => {
    expect(brokenRule('domain/access.ts', 'server/errors.ts')).toMatch(/domain imports nothing/)
    expect(brokenRule('domain/access.ts', 'domain/text.ts')).toBeNull()
  })

  it('refuse client code importing the server, the database or scripts', () => {
    expect(brokenRule('client/lib/api-client.ts', 'server/errors.ts')).toMatch(/client never/)
    expect(brokenRule('client/lib/api-client.ts', 'db/schema/auth.ts')).toMatch(/client never/)
    expect(brokenRule('client/lib/api-client.ts', 'domain/messages.ts')).toBeNull()
  })

  it('refuse a plugin or a service folder importing a feature', () => {
    for (const file of [
      'server/plugins/auth.ts',
      'server/payments/plugin.ts',
      'server/mail/layout.ts',
    ])
      expect(brokenRule(file, 'server/features/auth/public.ts')).toMatch(/never imports a feature/)
  })

  it('refuse client/lib and client/components importing a feature, even its public module', () => {
    for (const file of ['client/lib/plan-query.ts', 'client/components/ui/dialog.tsx'])
      expect(brokenRule(file, 'client/features/access/public.ts')).toMatch(
        /never imports a feature/,
      )
    expect(brokenRule('client/lib/plan-query.ts', 'client/lib/query-keys.ts')).toBeNull()
    expect(brokenRule('client/app/routes.tsx', 'client/features/access/public.ts')).toBeNull()
  })

  it('refuse the sandbox to anything outside server/payments/ but tests', () => {
    const sandbox = 'server/payments/sandbox/gateway.ts'
    expect(brokenRule('server/features/billing/clock.ts', sandbox)).toMatch(/only server\/payments/)
    expect(brokenRule('scripts/cli.ts', sandbox)).toMatch(/only server\/payments/)
    expect(brokenRule('server/payments/plugin.ts', sandbox)).toBeNull()
    expect(brokenRule('tests/support/test-app.ts', sandbox)).toBeNull()
    expect(brokenRule('server/features/billing/clock.ts', 'server/payments/gateway.ts')).toBeNull()
  })

  it("refuse a feature reaching into another feature's files, but not into its own", () => {
    expect(
      brokenRule('server/features/auth/service.ts', 'server/features/access/service.ts'),
    ).toMatch(/public module/)
    expect(
      brokenRule('client/features/panels/routes/home-page.tsx', 'client/features/access/api.ts'),
    ).toMatch(/public module/)
    expect(
      brokenRule('server/features/auth/service.ts', 'server/features/access/public.ts'),
    ).toBeNull()
    expect(
      brokenRule('server/features/auth/routes.ts', 'server/features/auth/service.ts'),
    ).toBeNull()
    expect(brokenRule('server/app.ts', 'server/features/auth/routes.ts')).toBeNull()
  })

  it('see type-only imports too: a type from the server is still the server', () => {
    const graph = importGraph(
      new Map([
        ['client/lib/a.ts', "import type { AppError } from '../../server/errors'"],
        ['server/errors.ts', 'export class AppError extends Error {}'],
      ]),
    )
    expect(findViolations(graph)).toEqual([
      {
        file: 'client/lib/a.ts',
        imported: 'server/errors.ts',
        rule: 'client never imports server, db or scripts',
      },
    ])
  })

  it('hold in the repository today', () => {
    expect(findViolations()).toEqual([])
  })
})

describe('reading imports', () => {
  it('finds static imports, re-exports and import() calls, and tells type-only ones', () => {
    const text = [
      "import type { A } from './types'",
      "import { b, type B } from './mixed'",
      "import { type C } from './inline-type'",
      "import './side-effect'",
      "export type { D } from './export-type'",
      "export type * from './export-type-star'",
      "export { e } from './export-value'",
      "export * from './export-star'",
      "import shader from './shader.glsl?raw'",
      "const page = () => import('./page')",
      'const plain = () => import(`./plain`)',
      "const computed = (name: string) => import('./pages/' + name)",
      // A template with a `${name}` placeholder, split so that this string holds none itself.
      ['const templated = (name: string) => import(`./pages/$', '{name}`)'].join(''),
      'export const f = <T,>(value: T): Array<T> => [value]',
    ].join('\n')
    expect(importSpecifiers('x.tsx', text)).toEqual([
      { specifier: './types', typeOnly: true, lazy: false },
      { specifier: './mixed', typeOnly: false, lazy: false },
      // verbatimModuleSyntax keeps it as `import {} from './inline-type'`: the module still loads.
      { specifier: './inline-type', typeOnly: false, lazy: false },
      { specifier: './side-effect', typeOnly: false, lazy: false },
      { specifier: './export-type', typeOnly: true, lazy: false },
      { specifier: './export-type-star', typeOnly: true, lazy: false },
      { specifier: './export-value', typeOnly: false, lazy: false },
      { specifier: './export-star', typeOnly: false, lazy: false },
      { specifier: './shader.glsl?raw', typeOnly: false, lazy: false },
      { specifier: './page', typeOnly: false, lazy: true },
      { specifier: './plain', typeOnly: false, lazy: true },
    ])
  })

  it('reads TSX', () => {
    const text = "import { Card } from './card'\nexport const Page = () => <Card title='x' />"
    expect(importSpecifiers('page.tsx', text)).toEqual([
      { specifier: './card', typeOnly: false, lazy: false },
    ])
  })

  it('refuses a file that does not parse, rather than reading half of it', () => {
    expect(() => importSpecifiers('broken.ts', "import { from './x'")).toThrow(/broken\.ts/)
  })

  it('resolves relative paths with or without an extension, .tsx, index files and suffixes', () => {
    const files = new Set([
      'client/lib/a.ts',
      'client/lib/b.tsx',
      'client/lib/c/index.ts',
      'client/lib/d/index.tsx',
      'client/shaders/wave.ts',
    ])
    const from = 'client/lib/x.ts'
    expect(resolveImport(from, './a', files)).toBe('client/lib/a.ts')
    expect(resolveImport(from, './a.ts', files)).toBe('client/lib/a.ts')
    expect(resolveImport(from, './a.js', files)).toBe('client/lib/a.ts')
    expect(resolveImport(from, './b', files)).toBe('client/lib/b.tsx')
    expect(resolveImport(from, './c', files)).toBe('client/lib/c/index.ts')
    expect(resolveImport(from, './d', files)).toBe('client/lib/d/index.tsx')
    expect(resolveImport(from, '../shaders/wave?raw', files)).toBe('client/shaders/wave.ts')
    expect(resolveImport(from, '../shaders/wave.ts?url', files)).toBe('client/shaders/wave.ts')
    // Assets keep their names, packages theirs.
    expect(resolveImport(from, '../locales/en.json', files)).toBe('client/locales/en.json')
    expect(resolveImport(from, 'react', files)).toBe('react')
  })
})

describe('import cycles', () => {
  it('are found between two modules, printed once', () => {
    expect(
      cyclesOf({
        'server/a.ts': "import { b } from './b'\nexport const a = 1",
        'server/b.ts': "import { a } from './a'\nexport const b = 2",
      }),
    ).toEqual(['server/a.ts → server/b.ts → server/a.ts'])
  })

  it('are found through a longer loop, with the files in order', () => {
    expect(
      cyclesOf({
        'server/a.ts': "import { b } from './b'",
        'server/b.ts': "import { c } from './c'",
        'server/c.ts': "export { a } from './a'",
        'server/d.ts': "import { a } from './a'",
      }),
    ).toEqual(['server/a.ts → server/b.ts → server/c.ts → server/a.ts'])
  })

  it('count a lazy import() like a static one', () => {
    expect(
      cyclesOf({
        'server/plugins/storage.ts':
          "export const open = async () => (await import('./s3-storage')).s3\nexport const key = 1",
        'server/plugins/s3-storage.ts': "import { key } from './storage'\nexport const s3 = key",
      }),
    ).toEqual([
      'server/plugins/s3-storage.ts → server/plugins/storage.ts → server/plugins/s3-storage.ts',
    ])
  })

  it('leave out type-only imports and re-exports, which are gone once compiled', () => {
    expect(
      cyclesOf({
        'server/payments/plugin.ts':
          "import { createSandbox } from './sandbox'\nexport interface Gateway {}",
        'server/payments/sandbox.ts':
          "import type { Gateway } from './plugin'\nexport type { Gateway as G } from './plugin'",
      }),
    ).toEqual([])
  })

  it('list every loop of a knot once', () => {
    expect(
      cyclesOf({
        'a.ts': "import './b'\nimport './c'",
        'b.ts': "import './a'",
        'c.ts': "import './b'",
      }),
    ).toEqual(['a.ts → b.ts → a.ts', 'a.ts → c.ts → b.ts → a.ts'])
  })

  it('sum up a knot with more loops than are worth listing', () => {
    // Every node imports every other one: 2 + 3×2 + 4×3×2 … loops.
    const nodes = ['a', 'b', 'c', 'd', 'e', 'f']
    const edges = new Map(nodes.map((node) => [node, nodes.filter((other) => other !== node)]))
    const { cycles, crowded } = elementaryCycles(edges, 5)
    expect(cycles).toHaveLength(5)
    expect(crowded).toEqual([nodes])
  })

  it('are found between features even when no two files form one', () => {
    const sources = {
      // Client: billing reads access's answer…
      'client/features/billing/plan-summary.tsx': "import { useAccess } from '../access/public'",
      'client/features/access/public.ts': 'export const useAccess = () => null',
      // …server: access reads billing's facts.
      'server/features/access/service.ts': "import { facts } from '../billing/public'",
      'server/features/billing/public.ts': 'export const facts = []',
      // A test may reach another feature without making a cycle.
      'server/features/billing/billing.test.ts': "import '../access/service'",
    }
    expect(cyclesOf(sources, 'modules')).toEqual([])
    const [cycle, ...others] = findCycles(importGraph(new Map(Object.entries(sources))))
    expect(others).toEqual([])
    expect(cycle && describeCycle(cycle)).toBe(
      [
        'features access → billing → access',
        '    server/features/access/service.ts → server/features/billing/public.ts',
        '    client/features/billing/plan-summary.tsx → client/features/access/public.ts',
        `    ${FEATURE_CYCLE_RULE}`,
      ].join('\n'),
    )
  })

  it('are printed with the rule they break', () => {
    const [cycle] = findCycles(
      importGraph(new Map(Object.entries({ 'a.ts': "import './b'", 'b.ts': "import './a'" }))),
    )
    expect(cycle && describeCycle(cycle)).toBe(`a.ts → b.ts → a.ts\n    ${MODULE_CYCLE_RULE}`)
  })

  it('in the repository today are exactly these', () => {
    expect(findCycles(repositoryGraph()).map(({ path }) => path.join(' → '))).toEqual([])
  })
})
