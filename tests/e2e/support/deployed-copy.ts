// A second, private deployment of the built app for tests that deploy a new version while a
// page is open. The shared e2e server's dist/client is used by every spec running in parallel,
// so it is never changed: this serves a temporary copy of it through the server's own client
// plugin (same headers, same fallbacks), and passes /api on to the shared server.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import { clientPlugin, defaultClientDir } from '../../../server/plugins/client'
import { BASE_URL } from './base-url'

export interface DeployedCopy {
  /** Where the copy answers, e.g. http://localhost:41234 */
  url: string
  /** The browser's fetches of the service worker script (registration, update checks), answered. */
  updateChecks(): number
  /**
   * Deploys a new build: index.html gets `data-build` on its root element, and the service
   * worker lists the page with a new revision, as a real rebuild would.
   */
  deploy(build: string): void
  close(): Promise<void>
}

// Not passed on: they describe one hop, or the body the copy has already decoded.
const HOP_HEADERS = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'host',
  'keep-alive',
  'transfer-encoding',
])

export async function startDeployedCopy(): Promise<DeployedCopy> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'harmonize-deployed-'))
  cpSync(defaultClientDir, dir, { recursive: true })

  let updateChecks = 0
  const app = Fastify()
  // Counted when the answer has gone rather than when the request came: this server runs in the
  // test's own process, and on a busy machine a test that saw the count go up could deploy the
  // next build while the file for that check was still being read.
  app.addHook('onResponse', async (request) => {
    // Browsers mark the script fetches of registration and update checks this way.
    if (request.url.startsWith('/sw.js') && request.headers['service-worker'] === 'script') {
      updateChecks += 1
    }
  })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
  app.all('/api/*', async (request, reply) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_HEADERS.has(name)) continue
      headers.set(name, Array.isArray(value) ? value.join(', ') : value)
    }
    const answer = await fetch(`${BASE_URL}${request.url}`, {
      method: request.method,
      headers,
      body: request.body instanceof Buffer ? new Uint8Array(request.body) : undefined,
      redirect: 'manual',
    })
    reply.code(answer.status)
    for (const [name, value] of answer.headers) {
      if (!HOP_HEADERS.has(name) && name !== 'set-cookie') reply.header(name, value)
    }
    const cookies = answer.headers.getSetCookie()
    if (cookies.length > 0) reply.header('set-cookie', cookies)
    return reply.send(Buffer.from(await answer.arrayBuffer()))
  })
  await app.register(clientPlugin, { clientDir: dir })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('the copy has no TCP port')

  const rewrite = (file: string, change: (text: string) => string) => {
    const target = path.join(dir, file)
    const before = readFileSync(target, 'utf8')
    const after = change(before)
    if (after === before) throw new Error(`${file}: the build's format changed, nothing replaced`)
    writeFileSync(target, after)
    // The precompressed twins would still hold the old build.
    rmSync(`${target}.br`, { force: true })
    rmSync(`${target}.gz`, { force: true })
  }

  return {
    url: `http://localhost:${address.port}`,
    updateChecks: () => updateChecks,
    deploy(build) {
      rewrite('index.html', (html) => html.replace(/<html\b/, `<html data-build="${build}"`))
      rewrite('sw.js', (script) =>
        script.replace(
          /(\{url:"index\.html",revision:")[^"]*"/,
          (_match, start: string) => `${start}${build}"`,
        ),
      )
    },
    async close() {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
