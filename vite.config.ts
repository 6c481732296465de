import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { chunkModules, chunkPlan } from './scripts/chunk-groups'
import { precompress } from './scripts/precompress'

const root = path.resolve(import.meta.dirname, 'client')
const outDir = path.resolve(import.meta.dirname, 'dist/client')

/** Each chunking pass's plan: Rolldown hands one context to every call of a pass. */
const chunkPlans = new WeakMap<object, Map<string, string | null>>()

export default defineConfig(({ isSsrBuild }) => ({
  root,
  publicDir: path.join(root, 'public'),
  build: {
    outDir,
    emptyOutDir: true,
    // The bundle budget script reads the manifest to find what the first render of /login needs.
    manifest: true,
    sourcemap: false,
    // One stylesheet, as there always was; split per chunk, every lazy page's preload asked for
    // the entry's stylesheet again, which the prerendered pages carry inline and never link.
    cssCodeSplit: false,
    target: 'es2022',
    // The polyfill cost each page's first task a check and /login 0.2 KB. A browser without
    // `modulepreload` (Safari before 17, Firefox before 115) gets Vite's `preload` links for a
    // lazy chunk's imports instead, and ignores the renderer's link in the prerendered pages:
    // the renderer comes a little later there, never wrong.
    modulePreload: { polyfill: false },
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            // A chunk's file name is written in every preload table that names it, and the
            // entry's names every lazy page's chunks: a group named after the features sharing
            // it ('access_account_app_auth_…', 'icons~account_billing') is written under a
            // short one. The manifest keeps its full name (scripts/chunk-groups.ts).
            chunkFileNames: (chunk) =>
              `assets/${/[_~]/.test(chunk.name) ? 'shared' : chunk.name}-[hash].js`,
            // Chunks follow the code, not file names (scripts/chunk-groups.ts): the entry with what
            // it imports, a chunk per lazy module, and what several of them share grouped by the
            // features that use it. Left to itself the bundler cut shared code into a chunk per set
            // of lazy modules using it: 35 files for /login's first render, and each new page added
            // more. Lists of files kept the count down, but a renamed file left its chunk without a
            // word; `npm run size` now holds the first render to its budget, whatever the cause.
            codeSplitting: {
              groups: [
                {
                  debugName: 'chunk-groups',
                  name: (id, context) => {
                    let plan = chunkPlans.get(context)
                    if (!plan) {
                      plan = chunkPlan(id, context, import.meta.dirname)
                      chunkPlans.set(context, plan)
                    }
                    return plan.get(id) ?? null
                  },
                  // The plan places every module itself. Rolldown would otherwise pull a group's
                  // dependencies into it: zod into the sign-in page's chunks, React into the icons.
                  // Two chunks importing each other are still possible in principle: `npm run
                  // size` fails on them.
                  includeDependenciesRecursively: false,
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
        chunkModules(import.meta.dirname),
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
