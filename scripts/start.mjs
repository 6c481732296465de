// `npm start`, first half. When nothing under the builds' inputs moved since scripts/start.ts
// last found both builds current (scripts/start-stamp.mjs), this is all: a few tens of
// milliseconds. Otherwise scripts/start.ts compares contents and builds what is out of date;
// it needs the TypeScript loader, which alone takes about 300 ms to load. The second half
// (package.json) replaces the shell with the server.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { startStampHolds } from './start-stamp.mjs'

const root = path.resolve(import.meta.dirname, '..')

if (!startStampHolds(root)) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/start.ts')],
    { cwd: root, stdio: 'inherit' },
  )
  process.exitCode = result.status ?? 1
}
