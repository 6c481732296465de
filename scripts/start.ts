// The first half of `npm start`: builds the client and the server when they are missing or were
// built from other sources, then exits. The second half (package.json) replaces the shell with
// `node dist/server/server.mjs`, so the server runs compiled JavaScript with no TypeScript
// loader in its process, and signals reach it directly (docs/decisions/0011-compiled-server.md).
import { buildClient, clientNeedsBuild } from './build-client'
import { buildServer, serverNeedsBuild } from './build-server'

if (clientNeedsBuild()) {
  process.stdout.write('Building the app (first start, or the sources changed)…\n')
  buildClient()
}
if (serverNeedsBuild()) await buildServer()
