import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { precompress } from './scripts/precompress'

const root = path.resolve(import.meta.dirname, 'client')
const outDir = path.resolve(import.meta.dirname, 'dist/client')

/**
 * lucide-react's files of the icons every first render carries: the layout, the forms, the
 * sign-in card and the no-access notice. The install and update banners' icons (download,
 * refresh-cw) load later, but a banner shown should not fetch every icon with them.
 */
const FIRST_RENDER_ICONS = new Set([
  'arrow-left',
  'circle-check',
  'circle-x',
  'download',
  'eye',
  'eye-off',
  'info',
  'languages',
  'loader-circle',
  'lock',
  'menu',
  'refresh-cw',
  'triangle-exclamation-point',
  'x',
])

/**
 * What every first render needs: forms and queries, and the shared texts. Not the schemas or
 * zod: they load with the first request or validation (client/lib/api-client.ts SchemaSource,
 * client/lib/lazy-resolver.ts).
 */
const APP_CORE =
  /node_modules[\\/](react-hook-form|@tanstack)[\\/]|[\\/]client[\\/](lib[\\/](messages|form-mutation|session|api-client|offline-cache)|components[\\/]ui[\\/](text-field|button|password-field|form-alert))|[\\/]domain[\\/](messages|i18n)\./

/**
 * Modules the first render of every page loads that the bundler otherwise cut into small chunks
 * of their own (the router, the route table): each was another request. The download icon is
 * not in every first render, but on its own it was a 0.2 KB request for /home.
 */
const FIRST_RENDER_SHARED =
  /node_modules[\\/]react-router[\\/]|[\\/]client[\\/]lib[\\/](query-keys|header-slot)\.|[\\/]domain[\\/]routes\.|lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](arrow-left|download|lock)\.mjs$/

export default defineConfig(({ isSsrBuild }) => ({
  root,
  publicDir: path.join(root, 'public'),
  build: {
    outDir,
    emptyOutDir: true,
    // The bundle budget script reads the manifest to find what the first render of /login needs.
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            // What every first render needs (forms, queries, the shared texts and schemas) in one
            // chunk. Left to itself the bundler cut it into a chunk per set of lazy pages sharing
            // it, and each new page added small chunks to /login's first render: 4 KB more with the
            // billing pages, the same code, compressed apart (scripts/bench/bundle-size.ts).
            codeSplitting: {
              groups: [
                {
                  // The pages' icons, one chunk instead of a request each: /home waited on ten of
                  // them. Those of every first render stay where they are, or every page would
                  // load this chunk first (scripts/bench/bundle-size.ts fails then). Such a miss
                  // would also make the chunk and app-core import each other, so keep the list.
                  name: 'icons',
                  priority: 1,
                  // Each icon is a pure call of lucide's factory; the factory and React stay
                  // where they were instead of moving in here with them.
                  includeDependenciesRecursively: false,
                  test: (id) => {
                    const icon =
                      /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]([a-z0-9-]+)\.mjs$/.exec(id)?.[1]
                    return icon !== undefined && !FIRST_RENDER_ICONS.has(icon)
                  },
                },
                {
                  name: 'app-core',
                  test: (id) => APP_CORE.test(id) || FIRST_RENDER_SHARED.test(id),
                },
                // One chunk per first page instead of one per shared module: each small chunk was
                // another request, in a later wave (docs/decisions/0017). These groups leave their
                // dependencies where they are, so nothing in app-core or the entry may import them.
                {
                  // The sign-in page with what it shares with the other account pages.
                  name: 'auth',
                  includeDependenciesRecursively: false,
                  test: /[\\/]client[\\/](features[\\/]auth[\\/](api|use-human-check|components[\\/]auth-(card|form))|components[\\/]human-check)\./,
                },
                {
                  // /home and /panel-info with the panel texts, the offline preparation and the
                  // session history they share with the harmonizing screen.
                  name: 'panels',
                  includeDependenciesRecursively: false,
                  test: /[\\/]client[\\/](features[\\/]panels[\\/]|lib[\\/](panel-queries|keep-for-offline|harmonize-media|media-pick|recent-sessions)\.)|[\\/]domain[\\/](panels|harmonize)\./,
                },
                {
                  // The plan and its schemas: /home asks for it (a failed payment's banner), and so
                  // does every billing page, which should not bring the panels with it.
                  name: 'plan',
                  includeDependenciesRecursively: false,
                  test: /[\\/]client[\\/]lib[\\/]plan-query\.|[\\/]domain[\\/]billing(-plans)?\./,
                },
                {
                  // Loaded once the first page is shown (client/lib/after-first-page.ts).
                  name: 'pwa',
                  includeDependenciesRecursively: false,
                  test: /virtual:pwa-register|[\\/]client[\\/]lib[\\/]pwa-(register|platform)\.|workbox-window/,
                },
              ],
            },
          },
        },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/healthz': 'http://127.0.0.1:3000',
      '/readyz': 'http://127.0.0.1:3000',
      '/dev': 'http://127.0.0.1:3000',
    },
  },
  // The prerendering build (client/app/prerender.tsx, for Node) needs React and nothing of what
  // the browser's build adds: styles, the service worker, compressed copies, chunk groups.
  plugins: isSsrBuild
    ? [react()]
    : [
        react(),
        tailwindcss(),
        VitePWA({
          registerType: 'prompt',
          injectRegister: false,
          // The precache glob below already lists the icons and the manifest; naming them here
          // too listed each twice in the service worker.
          includeManifestIcons: false,
          manifest: {
            name: 'Harmonize',
            short_name: 'Harmonize',
            description: 'A calm 3-minute harmonizing ritual for your glass of water.',
            lang: 'en',
            start_url: '/',
            scope: '/',
            display: 'standalone',
            orientation: 'any',
            background_color: '#f4f8fc',
            theme_color: '#1d4f91',
            icons: [
              { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
              { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
              {
                src: '/icons/maskable-512.png',
                sizes: '512x512',
                type: 'image/png',
                purpose: 'maskable',
              },
            ],
          },
          workbox: {
            globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
            // The prerendered pages are for the server to send (scripts/prerender-pages.ts); the
            // worker answers navigations with index.html, which the app renders in any language.
            globIgnores: ['pages/**'],
            navigateFallback: '/index.html',
            // Server endpoints must never be answered with the cached app page.
            navigateFallbackDenylist: [/^\/api\//, /^\/healthz/, /^\/readyz/, /^\/dev\//],
            cleanupOutdatedCaches: true,
          },
        }),
        precompress(outDir),
      ],
}))
