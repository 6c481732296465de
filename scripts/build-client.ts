import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const builtIndex = path.join(root, 'dist/client/index.html')
const INPUTS = [
  'client',
  'domain',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
  'scripts/build-client.ts',
]

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)))
  }
  return newest
}

/** True when dist/client is missing or older than any source it is built from. */
export function clientNeedsBuild(): boolean {
  if (!existsSync(builtIndex)) return true
  const builtAt = statSync(builtIndex).mtimeMs
  return INPUTS.some((input) => newestMtime(path.join(root, input)) > builtAt)
}

/** Builds the PWA with Vite in a child process; throws when the build fails. */
export function buildClient(args: string[] = ['--logLevel', 'warn']) {
  const vite = path.join(root, 'node_modules/vite/bin/vite.js')
  const result = spawnSync(process.execPath, [vite, 'build', ...args], {
    cwd: root,
    stdio: 'inherit',
    // The server's NODE_ENV (test, development) must not leak into the bundle: with anything
    // but production, React ships its development build and the service worker is left out.
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) throw new Error('The client build failed (see the output above).')
}
