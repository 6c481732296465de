import { existsSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { packageRoot } from '../../db/package-root'
import { pageLanguage } from '../../domain/i18n'
import { matchAppRoute, prerenderedPageFor } from '../../domain/routes'
import { sendError } from '../errors'
import { requestLanguage, translate } from '../i18n'

export const defaultClientDir = path.join(packageRoot, 'dist/client')

const API_PREFIXES = ['/api/', '/api', '/healthz', '/readyz', '/dev/']

/**
 * Serves the built PWA: hashed assets cached for a year, everything else revalidated, and for
 * every page its prerendered HTML in the visitor's language (scripts/prerender-pages.ts), else
 * index.html, which the app renders in the browser. Paths outside the route table answer HTTP
 * 404, so crawlers and monitors see the truth while the browser still shows the app's 404 page.
 */
export const clientPlugin = fp<{ clientDir?: string }>(
  async (app, { clientDir = defaultClientDir }) => {
    const hasClient = existsSync(path.join(clientDir, 'index.html'))
    if (hasClient) {
      await app.register(fastifyStatic, {
        root: clientDir,
        // Looked up on disk per request rather than listed once at start, so a server keeps
        // serving the newest build (`npm run build` while it runs) instead of 404s for its
        // new hashed files. A miss falls through to the not-found handler below.
        wildcard: true,
        // Nothing hidden leaves the build folder, and a folder path (`/`, `/assets/`) is a page
        // for the not-found handler rather than a 403 from the file server.
        dotfiles: 'ignore',
        allowedPath: (pathname) =>
          !pathname.endsWith('/') && !pathname.split('/').some((part) => part.startsWith('.')),
        index: false,
        // The build writes .br and .gz beside each text file (scripts/precompress.ts).
        preCompressed: true,
        setHeaders(reply, filePath) {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`)
          reply.header(
            'cache-control',
            immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          )
        },
      })
    } else {
      app.log.warn({ clientDir }, 'client not built: only the API is served')
    }

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/'
      const pagePath =
        hasClient &&
        !API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix)) &&
        !path.posix.extname(pathname)
      // A form of the server's HTML sent the browser's way before the page's code ran (a
      // single-field form submits on Enter; client/features/auth/components/auth-form.tsx):
      // nothing is read from it, and the page opens again by GET. One leading slash, so the
      // address can never name another host.
      if (pagePath && request.method === 'POST' && matchAppRoute(pathname)) {
        return reply.redirect(`/${pathname.replace(/^\/+/, '')}`, 303)
      }
      const isPage = pagePath && (request.method === 'GET' || request.method === 'HEAD')
      if (!isPage) {
        return sendError(
          request,
          reply,
          404,
          translate('errors.notFound', requestLanguage(request)),
        )
      }
      reply.header('cache-control', 'no-cache')
      reply.header('vary', 'Cookie, Accept-Language')
      return reply
        .code(matchAppRoute(pathname) ? 200 : 404)
        .sendFile(pageFile(clientDir, pathname, request))
    })
  },
  { name: 'client' },
)

/** The prerendered page for this request, in its language, else index.html. */
function pageFile(clientDir: string, pathname: string, request: FastifyRequest): string {
  // The query as the browser's location.search has it: nothing for a bare '?'.
  const search = request.url.slice(pathname.length)
  const name = prerenderedPageFor(pathname, search.length > 1 ? search : '')
  if (!name) return 'index.html'
  const language = pageLanguage(request.headers.cookie, request.headers['accept-language'])
  const file = `pages/${language}/${name}.html`
  // A build from before prerendering, or one still being written, has index.html only.
  return existsSync(path.join(clientDir, file)) ? file : 'index.html'
}
