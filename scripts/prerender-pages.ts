// The last step of the client build: every page of domain/routes.ts's PRERENDERED_PAGES, and a
// page per panel, as HTML, in each language, into dist/client/pages/LANGUAGE/NAME.html. It runs the server-side build of
// client/app/prerender.tsx (dist/prerender) with React's own static rendering; the server sends
// these files for page requests (server/plugins/client.ts) and the browser hydrates them.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { PANELS } from '../db/seed/panels-content'
import { LANGUAGES, type Language } from '../domain/i18n'
import {
  PAGE_QUERIES_ID,
  type PageContent,
  type PageQuery,
  PRERENDERED_PAGES,
  pageOfValue,
} from '../domain/routes'
import { presentPanelDetail, presentPanelSummary } from '../server/features/panels/public'
import { precompressDir } from './precompress'

const root = path.resolve(import.meta.dirname, '..')
const clientDir = path.join(root, 'dist/client')
export const PAGES_DIR = 'pages'

type RenderPage = (
  url: string,
  language: Language,
  content?: PageContent,
) => Promise<{ html: string; queries: PageQuery[] }>

/**
 * Every page the build renders, by name, with its URL and what it shows of the reference data:
 * the route table's pages, and a page per panel (domain/routes.ts, PAGE_PER_VALUE).
 */
export function pagesToRender(
  language: Language,
): { name: string; url: string; content?: PageContent }[] {
  return [
    ...[...PRERENDERED_PAGES].map(([name, url]) =>
      name === 'home'
        ? {
            name,
            url,
            content: { panels: PANELS.map((panel) => presentPanelSummary(panel, language)) },
          }
        : { name, url },
    ),
    ...PANELS.map((panel) => ({
      name: pageOfValue('/panel-info/:id', panel.id),
      url: `/panel-info/${panel.id}`,
      content: { panel: presentPanelDetail(panel, language) },
    })),
  ]
}

/**
 * index.html with the page inside its root, marked with the page's name, and its language; the
 * queries it was rendered with follow the root as JSON, for the browser's first render.
 */
export function fillTemplate(
  template: string,
  name: string,
  language: Language,
  body: string,
  queries: PageQuery[] = [],
) {
  const html = /<html lang="[a-z-]+">/
  const emptyRoot = '<div id="root"></div>'
  if (!html.test(template) || !template.includes(emptyRoot)) {
    throw new Error('index.html no longer has <html lang="…"> and an empty <div id="root">.')
  }
  // Inside a script element `</script` would end it early: no `<` is left as it is in the JSON.
  const data =
    queries.length > 0
      ? `<script type="application/json" id="${PAGE_QUERIES_ID}">${JSON.stringify(queries).replaceAll('<', '\\u003c')}</script>`
      : ''
  // Replacer functions: the page's text is inserted as it is, `$&` and its kin included.
  return template
    .replace(html, () => `<html lang="${language}">`)
    .replace(emptyRoot, () => `<div id="root" data-page="${name}">${body}</div>${data}`)
}

/**
 * React's DOM renderer, which client/app/main.tsx imports apart from the rest of the app so that
 * the two are evaluated in two tasks, not one long one (ADR 0026): a chunk named after its
 * package (scripts/chunk-groups.ts).
 */
export const RENDERER_CHUNK = 'react-dom'

interface ManifestChunk {
  file: string
  name?: string
  isEntry?: boolean
  dynamicImports?: string[]
  imports?: string[]
}

/** The renderer's key in Vite's manifest: what the entry imports lazily, named so. */
export function rendererKey(manifest: Record<string, ManifestChunk>): string {
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry)
  const key = entry?.dynamicImports?.find((name) => manifest[name]?.name === RENDERER_CHUNK)
  if (!key) throw new Error(`The entry no longer imports the ${RENDERER_CHUNK} chunk apart.`)
  return key
}

/** The files of the renderer's chunk and of what it imports that the entry does not. */
export function rendererFiles(manifest: Record<string, ManifestChunk>): string[] {
  const closure = (key: string, into = new Set<string>()) => {
    if (into.has(key)) return into
    into.add(key)
    for (const child of manifest[key]?.imports ?? []) closure(child, into)
    return into
  }
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry)
  const entry = entryKey ? closure(entryKey) : new Set<string>()
  return [...closure(rendererKey(manifest))]
    .filter((key) => !entry.has(key))
    .map((key) => manifest[key]?.file ?? key)
}

/**
 * index.html made ready for pages whose HTML is there before any code: the stylesheet inside
 * the page, and the app's code fetched at low priority, the renderer beside the entry.
 * - A linked stylesheet is one more round trip before anything paints; inside the page it costs
 *   about 7.5 KB more of each page, compressed, and nothing waits for it.
 * - The app's code is not needed for the page to paint, only to use it, so it is fetched at low
 *   priority. At the default high priority Lighthouse's simulation of a phone counted its 105 KB
 *   as blocking the first paint, and put that paint at 1.6 s instead of 0.7 s (ADR 0026).
 * - The renderer (`preload`) is asked for with the entry rather than once the entry has run.
 */
export function forPrerenderedPages(
  template: string,
  readAsset: (file: string) => string,
  preload: string[] = [],
) {
  const stylesheet = /<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)">/
  const entry = /<script type="module" [^>]*><\/script>/
  const linked = stylesheet.exec(template)?.[1]
  if (!linked || !entry.test(template) || stylesheet.test(template.replace(stylesheet, ''))) {
    throw new Error('index.html no longer links one stylesheet and loads one module script.')
  }
  // `</style` inside the CSS would end the element early; Tailwind's output never has it.
  const css = readAsset(linked)
  if (/<\/style/i.test(css)) throw new Error(`${linked} holds "</style": it cannot go inline.`)
  const preloads = preload.map(
    (file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`,
  )
  return template
    .replace(stylesheet, () => `<style>${css}</style>`)
    .replace(entry, (script) =>
      [
        script.replace('<script type="module" ', '<script type="module" fetchpriority="low" '),
        ...preloads,
      ].join(''),
    )
}

export async function prerenderPages(): Promise<number> {
  const entry = path.join(root, 'dist/prerender/prerender.js')
  const { renderPage } = (await import(pathToFileURL(entry).href)) as { renderPage: RenderPage }
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8'))
  const template = forPrerenderedPages(
    readFileSync(path.join(clientDir, 'index.html'), 'utf8'),
    (file) => readFileSync(path.join(clientDir, file), 'utf8'),
    rendererFiles(manifest),
  )
  const out = path.join(clientDir, PAGES_DIR)
  rmSync(out, { recursive: true, force: true })
  let count = 0
  for (const language of LANGUAGES) {
    mkdirSync(path.join(out, language), { recursive: true })
    for (const { name, url, content } of pagesToRender(language)) {
      const { html, queries } = await renderPage(url, language, content)
      writeFileSync(
        path.join(out, language, `${name}.html`),
        fillTemplate(template, name, language, html, queries),
      )
      count += 1
    }
  }
  precompressDir(out)
  return count
}

if (import.meta.main) {
  const count = await prerenderPages()
  process.stdout.write(`${count} pages prerendered\n`)
}
