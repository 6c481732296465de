// `npm start`: builds the client when it is missing or stale, then runs the server in this
// process (so Ctrl-C and SIGTERM reach it directly). Migrations and seeds run as the server starts.
import { buildClient, clientNeedsBuild } from './build-client'

if (clientNeedsBuild()) {
  process.stdout.write('Building the app (first start, or the sources changed)…\n')
  buildClient()
}

await import('../server/server')
