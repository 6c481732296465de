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

/** Builds the PWA with Vite in a child process; throws when the build fails. */
export function buildClient(args: string[] = ['--logLevel', 'warn']) {
  const hash = inputsHash(root, CLIENT_INPUTS)
  const vite = path.join(root, 'node_modules/vite/bin/vite.js')
  const result = spawnSync(process.execPath, [vite, 'build', ...args], {
    cwd: root,
    stdio: 'inherit',
    // The server's NODE_ENV (test, development) must not leak into the bundle: with anything
    // but production, React ships its development build and the service worker is left out.
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) throw new Error('The client build failed (see the output above).')
  // The same code built for Node, which renders the pages to HTML (scripts/prerender-pages.ts).
  const ssr = spawnSync(
    process.execPath,
    [vite, 'build', '--ssr', 'app/prerender.tsx', '--outDir', '../dist/prerender', ...args],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  )
  if (ssr.status !== 0) throw new Error('The prerendering build failed (see the output above).')
  const pages = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prerender-pages.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (pages.status !== 0) throw new Error('Prerendering the pages failed (see the output above).')
  writeStamp(stampFile, hash)
}
