// `npm run build`: the production build of the PWA into dist/client and of the server into
// dist/server.
import { buildClient } from './build-client'
import { buildServer } from './build-server'

buildClient([])
await buildServer()
process.stdout.write('dist/server/server.mjs built\n')
