// The last step of the client build: every page of domain/routes.ts's PRERENDERED_PAGES as HTML,
// in each language, into dist/client/pages/LANGUAGE/NAME.html. It runs the server-side build of
// client/app/prerender.tsx (dist/prerender) with React's own static rendering; the server sends
// these files for page requests (server/plugins/client.ts) and the browser hydrates them.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { LANGUAGES, type Language } from '../domain/i18n'
import { PRERENDERED_PAGES } from '../domain/routes'
import { precompressDir } from './precompress'

const root = path.resolve(import.meta.dirname, '..')
const clientDir = path.join(root, 'dist/client')
export const PAGES_DIR = 'pages'

type RenderPage = (url: string, language: Language) => Promise<string>

/** index.html with the page inside its root, marked with the page's name, and its language. */
export function fillTemplate(template: string, name: string, language: Language, body: string) {
  const html = /<html lang="[a-z-]+">/
  const emptyRoot = '<div id="root"></div>'
  if (!html.test(template) || !template.includes(emptyRoot)) {
    throw new Error('index.html no longer has <html lang="…"> and an empty <div id="root">.')
  }
  // Replacer functions: the page's text is inserted as it is, `$&` and its kin included.
  return template
    .replace(html, () => `<html lang="${language}">`)
    .replace(emptyRoot, () => `<div id="root" data-page="${name}">${body}</div>`)
}

/**
 * index.html made ready for pages whose HTML is there before any code: the stylesheet inside
 * the page and the app's code asked for after it.
 * - A linked stylesheet is one more round trip before anything paints; inside the page it costs
 *   about 7.5 KB more of each page, compressed, and nothing waits for it.
 * - The app's code is not needed for the page to paint, only to use it, so it is fetched at low
 *   priority. At the default high priority Lighthouse's simulation of a phone counted its 105 KB
 *   as blocking the first paint, and put that paint at 1.6 s instead of 0.7 s (ADR 0024).
 */
export function forPrerenderedPages(template: string, readAsset: (file: string) => string) {
  const stylesheet = /<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)">/
  const entry = /<script type="module" /
  const linked = stylesheet.exec(template)?.[1]
  if (!linked || !entry.test(template) || stylesheet.test(template.replace(stylesheet, ''))) {
    throw new Error('index.html no longer links one stylesheet and loads one module script.')
  }
  // `</style` inside the CSS would end the element early; Tailwind's output never has it.
  const css = readAsset(linked)
  if (/<\/style/i.test(css)) throw new Error(`${linked} holds "</style": it cannot go inline.`)
  return template
    .replace(stylesheet, () => `<style>${css}</style>`)
    .replace(entry, () => '<script type="module" fetchpriority="low" ')
}

export async function prerenderPages(): Promise<number> {
  const entry = path.join(root, 'dist/prerender/prerender.js')
  const { renderPage } = (await import(pathToFileURL(entry).href)) as { renderPage: RenderPage }
  const template = forPrerenderedPages(
    readFileSync(path.join(clientDir, 'index.html'), 'utf8'),
    (file) => readFileSync(path.join(clientDir, file), 'utf8'),
  )
  const out = path.join(clientDir, PAGES_DIR)
  rmSync(out, { recursive: true, force: true })
  let count = 0
  for (const language of LANGUAGES) {
    mkdirSync(path.join(out, language), { recursive: true })
    for (const [name, url] of PRERENDERED_PAGES) {
      const body = await renderPage(url, language)
      writeFileSync(
        path.join(out, language, `${name}.html`),
        fillTemplate(template, name, language, body),
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
