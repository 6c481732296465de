import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { inputsHash, isStale, writeStamp } from './build-stamp'

const root = path.resolve(import.meta.dirname, '..')
// Vite empties dist/client, so the stamp lives beside it.
export const clientStampFile = 'dist/.client-inputs'
const stampFile = path.join(root, clientStampFile)
export const CLIENT_INPUTS = [
  'client',
  'domain',
  // The panel pages are prerendered with the panels' texts, as the server presents them.
  'db/seed/panels-content.ts',
  'server/features/panels/presenter.ts',
  'server/features/panels/public.ts',
  'vite.config.ts',
  'package.json',
  'scripts/build-client.ts',
  'scripts/chunk-groups.ts',
  'scripts/precompress.ts',
  'scripts/prerender-pages.ts',
]

/** True when dist/client is missing or was built from other sources or packages. */
export function clientNeedsBuild(): boolean {
  return isStale(stampFile, inputsHash(root, CLIENT_INPUTS))
}

/**
 * Runs one step of the build in a child Node; throws, naming the step, when it fails. The
 * server's NODE_ENV (test, development) must not leak into the bundle: with anything but
 * production, React ships its development build and the service worker is left out.
 */
function step(what: string, args: string[]) {
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) throw new Error(`${what} failed (see the output above).`)
}

/**
 * Builds the PWA with Vite, then the same code for Node, which renders every page to HTML
 * (scripts/prerender-pages.ts); throws when a step fails.
 */
export function buildClient(args: string[] = ['--logLevel', 'warn']) {
  const hash = inputsHash(root, CLIENT_INPUTS)
  const vite = path.join(root, 'node_modules/vite/bin/vite.js')
  step('The client build', [vite, 'build', ...args])
  step('The prerendering build', [
    vite,
    'build',
    '--ssr',
    'app/prerender.tsx',
    '--outDir',
    '../dist/prerender',
    ...args,
  ])
  step('Prerendering the pages', ['--import', 'tsx', 'scripts/prerender-pages.ts'])
  writeStamp(stampFile, hash)
}
