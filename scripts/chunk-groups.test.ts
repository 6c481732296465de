import { describe, expect, it } from 'vitest'
import { chunkPlan, type GraphModule, kindOf, SMALL_GROUP } from './chunk-groups'

const ROOT = '/repo'
const ICONS = '/repo/node_modules/lucide-react/dist/esm/icons'

/**
 * A module graph as Rolldown reports it, from each module's static and lazy imports (paths under
 * /repo, packages under /repo/node_modules) and its code's length (by default, too long for
 * its chunk to be merged). The first module is the entry.
 */
function graphOf(modules: Record<string, { imports?: string[]; lazy?: string[]; size?: number }>) {
  const ids = Object.keys(modules)
  const info = new Map<string, GraphModule>(
    ids.map((id, index) => [
      id,
      {
        id,
        isEntry: index === 0,
        importers: ids.filter((other) => modules[other]?.imports?.includes(id)),
        dynamicImporters: ids.filter((other) => modules[other]?.lazy?.includes(id)),
        importedIds: modules[id]?.imports ?? [],
        dynamicallyImportedIds: modules[id]?.lazy ?? [],
        code: 'x'.repeat(modules[id]?.size ?? SMALL_GROUP),
      },
    ]),
  )
  return { start: ids[0] ?? '', graph: { getModuleInfo: (id: string) => info.get(id) ?? null } }
}

const planOf = (modules: Parameters<typeof graphOf>[0]) => {
  const { start, graph } = graphOf(modules)
  return Object.fromEntries(chunkPlan(start, graph, ROOT))
}

/** An app with an entry, a router and two pages of each of two features. */
const app = (extra: Parameters<typeof graphOf>[0] = {}, pages: Record<string, string[]> = {}) => {
  const page = (feature: string, name: string) =>
    `/repo/client/features/${feature}/routes/${name}.tsx`
  const all = [
    page('auth', 'login-page'),
    page('auth', 'signup-page'),
    page('panels', 'home-page'),
    page('panels', 'panel-info-page'),
  ]
  return planOf({
    '/repo/client/app/main.tsx': { imports: ['/repo/client/app/routes.tsx'] },
    '/repo/client/app/routes.tsx': {
      imports: ['/repo/node_modules/react/index.js'],
      lazy: all,
    },
    '/repo/node_modules/react/index.js': {},
    ...Object.fromEntries(all.map((id) => [id, { imports: pages[id] ?? [] }])),
    ...extra,
  })
}
const LOGIN = '/repo/client/features/auth/routes/login-page.tsx'
const SIGNUP = '/repo/client/features/auth/routes/signup-page.tsx'
const HOME = '/repo/client/features/panels/routes/home-page.tsx'
const INFO = '/repo/client/features/panels/routes/panel-info-page.tsx'

describe('what a module is', () => {
  it('follows the folders of the layout, and packages', () => {
    expect(kindOf('/repo/client/features/auth/api.ts', ROOT)).toEqual({
      kind: 'feature',
      feature: 'auth',
    })
    expect(kindOf('/repo/client/lib/session.ts', ROOT).kind).toBe('lib')
    expect(kindOf('/repo/client/components/ui/button.tsx', ROOT).kind).toBe('components')
    expect(kindOf('/repo/domain/auth.ts', ROOT).kind).toBe('domain')
    expect(kindOf('/repo/client/app/routes.tsx', ROOT).kind).toBe('app')
    expect(kindOf(`${ICONS}/eye.mjs`, ROOT).kind).toBe('icon')
    expect(kindOf('/repo/node_modules/zod/index.js', ROOT).kind).toBe('package')
    expect(kindOf('/@vite-plugin-pwa/virtual:pwa-register', ROOT).kind).toBe('package')
    expect(kindOf('\0vite/preload-helper.js', ROOT).kind).toBe('package')
  })
})

describe('the chunk plan', () => {
  it('puts a package the entry imports lazily in one chunk with all it reaches, shared or not', () => {
    const dom = '/repo/node_modules/react-dom/client.js'
    const domCore = '/repo/node_modules/react-dom/index.js'
    const scheduler = '/repo/node_modules/scheduler/index.js'
    const radix = '/repo/node_modules/@radix-ui/react-dialog/index.js'
    const plan = planOf({
      '/repo/client/app/main.tsx': {
        imports: ['/repo/client/app/routes.tsx'],
        lazy: [dom],
      },
      '/repo/client/app/routes.tsx': {
        imports: ['/repo/node_modules/react/index.js'],
        lazy: [HOME, INFO],
      },
      '/repo/node_modules/react/index.js': {},
      [dom]: { imports: [domCore, scheduler, '/repo/node_modules/react/index.js'] },
      [domCore]: { imports: ['/repo/node_modules/react/index.js'] },
      [scheduler]: {},
      [radix]: { imports: [domCore] },
      [HOME]: { imports: [radix] },
      [INFO]: { imports: [radix] },
    })
    expect(plan[dom]).toBe('react-dom')
    expect(plan[domCore]).toBe('react-dom')
    expect(plan[scheduler]).toBe('react-dom')
    expect(plan['/repo/node_modules/react/index.js']).toBe('entry')
    // Radix, shared by two pages of one feature, stays with that feature's code.
    expect(plan[radix]).toBe('panels')
  })

  it('puts what the entry imports with it, and leaves a page and what only it uses to itself', () => {
    const plan = app(
      { '/repo/client/features/auth/components/remember-me.tsx': {} },
      { [LOGIN]: ['/repo/client/features/auth/components/remember-me.tsx'] },
    )
    expect(plan['/repo/client/app/routes.tsx']).toBe('entry')
    expect(plan['/repo/node_modules/react/index.js']).toBe('entry')
    expect(plan[LOGIN]).toBeNull()
    expect(plan['/repo/client/features/auth/components/remember-me.tsx']).toBeNull()
  })

  it("puts a feature's code shared by its pages in the feature's chunk, and by other features' pages in theirs together", () => {
    const card = '/repo/client/features/auth/components/auth-card.tsx'
    const notice = '/repo/client/features/access/components/no-access-notice.tsx'
    const plan = app(
      { [card]: {}, [notice]: {} },
      { [LOGIN]: [card], [SIGNUP]: [card, notice], [HOME]: [notice] },
    )
    expect(plan[card]).toBe('auth')
    expect(plan[notice]).toBe('auth+panels')
  })

  it('puts shared code that needs only the entry in common, with the icons it draws', () => {
    const field = '/repo/client/components/ui/password-field.tsx'
    const eye = `${ICONS}/eye.mjs`
    const plan = app(
      { [field]: { imports: ['/repo/node_modules/react/index.js', eye] }, [eye]: {} },
      { [LOGIN]: [field], [HOME]: [field, eye] },
    )
    expect(plan[field]).toBe('common')
    expect(plan[eye]).toBe('common')
  })

  it('keeps out of common a package the pages import too, and shared code needing more than the entry', () => {
    const forms = '/repo/node_modules/react-hook-form/index.js'
    const submit = '/repo/client/lib/form-mutation.ts'
    const plans = '/repo/client/lib/plan-query.ts'
    const contract = '/repo/domain/billing.ts'
    const zod = '/repo/node_modules/zod/index.js'
    const plan = app(
      {
        [forms]: {},
        [submit]: { imports: [forms] },
        [plans]: { imports: [contract] },
        [contract]: { imports: [zod] },
        [zod]: {},
      },
      { [LOGIN]: [forms, submit], [SIGNUP]: [forms, submit], [HOME]: [plans], [INFO]: [plans] },
    )
    expect(plan[forms]).toBe('auth')
    expect(plan[submit]).toBe('lib')
    expect(plan[plans]).toBe('lib')
    expect(plan[contract]).toBe('panels')
    expect(plan[zod]).toBe('panels')
  })

  it('puts an icon several chunks draw beside the shared code drawing it, or with the other pages’ icons', () => {
    const card = '/repo/client/features/auth/components/auth-card.tsx'
    const back = `${ICONS}/arrow-left.mjs`
    const play = `${ICONS}/play.mjs`
    const plan = app(
      { [card]: { imports: [back] }, [back]: {}, [play]: {} },
      { [LOGIN]: [card], [SIGNUP]: [card], [HOME]: [back, play], [INFO]: [play] },
    )
    expect(plan[card]).toBe('auth')
    expect(plan[back]).toBe('icons~auth')
    expect(plan[play]).toBe('icons')
  })

  it('keeps what a package loads lazily in the chunk of the lazy module using the package', () => {
    const register = '/repo/client/lib/pwa-register.ts'
    const virtual = '/@vite-plugin-pwa/virtual:pwa-register'
    const workbox = '/repo/node_modules/workbox-window/index.js'
    const plan = planOf({
      '/repo/client/app/main.tsx': { lazy: [register] },
      [register]: { imports: [virtual] },
      [virtual]: { lazy: [workbox] },
      [workbox]: {},
    })
    expect([plan[register], plan[virtual], plan[workbox]]).toEqual([
      'pwa-register',
      'pwa-register',
      'pwa-register',
    ])
  })

  describe('a small chunk of shared code', () => {
    const CLIENTS = '/repo/client/features/clients/routes/user-records-page.tsx'
    const zod = '/repo/node_modules/zod/index.js'
    const tiny = '/repo/node_modules/tiny/index.js'
    const planWith = (tinyUsers: string[]) =>
      planOf({
        '/repo/client/app/main.tsx': { lazy: [LOGIN, SIGNUP, HOME, CLIENTS] },
        [LOGIN]: { imports: [zod, ...(tinyUsers.includes(LOGIN) ? [tiny] : [])] },
        [SIGNUP]: { imports: tinyUsers.includes(SIGNUP) ? [tiny] : [] },
        [HOME]: { imports: [zod, ...(tinyUsers.includes(HOME) ? [tiny] : [])] },
        [CLIENTS]: { imports: [zod] },
        [zod]: {},
        [tiny]: { size: 200 },
      })

    it('joins one that every page loading it loads anyway', () => {
      const plan = planWith([LOGIN, HOME])
      expect(plan[zod]).toBe('auth+clients+panels')
      expect(plan[tiny]).toBe('auth+clients+panels')
    })

    it('stays apart when joining would make a page load code it did not', () => {
      // The sign-up page does not load zod's chunk.
      const plan = planWith([SIGNUP, HOME])
      expect(plan[tiny]).toBe('auth+panels')
    })
  })

  it('does not move a module when its file is renamed inside its folder', () => {
    const plans = ['auth-card', 'sign-in-card'].map((name) => {
      const card = `/repo/client/features/auth/components/${name}.tsx`
      return app({ [card]: {} }, { [LOGIN]: [card], [SIGNUP]: [card] })[
        `/repo/client/features/auth/components/${name}.tsx`
      ]
    })
    expect(plans).toEqual(['auth', 'auth'])
  })
})
