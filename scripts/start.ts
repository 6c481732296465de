// The slow half of the first half of `npm start` (scripts/start.mjs runs it when anything under
// the builds' inputs moved): builds the client and the server when they are missing or were
// built from other sources, then writes the stamp that lets the next start skip all this. The
// second half (package.json) replaces the shell with `node dist/server/server.mjs`, so the server
// runs compiled JavaScript with no TypeScript loader in its process, and signals reach it
// directly (docs/decisions/0011-compiled-server.md).
import path from 'node:path'
import { buildClient, CLIENT_INPUTS, clientNeedsBuild, clientStampFile } from './build-client'
import {
  buildServer,
  SERVER_INPUTS,
  serverEntry,
  serverNeedsBuild,
  serverStampFile,
} from './build-server'
import { snapshotInputs, writeStartStamp } from './build-stamp'
import { START_STAMP } from './start-stamp.mjs'

const root = path.resolve(import.meta.dirname, '..')
// What the start itself does is an input too: a change here must not be skipped.
const START_FILES = [
  'scripts/start.ts',
  'scripts/start.mjs',
  'scripts/start-stamp.mjs',
  'scripts/build-stamp.ts',
  'node_modules/.package-lock.json',
]

// The two builds share some inputs (domain, package.json); each is walked once.
const snapshot = snapshotInputs(root, [
  ...new Set([...CLIENT_INPUTS, ...SERVER_INPUTS, ...START_FILES]),
])
if (clientNeedsBuild()) {
  process.stdout.write('Building the app (first start, or the sources changed)…\n')
  buildClient()
}
if (serverNeedsBuild()) await buildServer()
writeStartStamp(
  root,
  snapshot,
  [clientStampFile, serverStampFile],
  ['dist/client/index.html', path.relative(root, serverEntry)],
  START_STAMP,
)
