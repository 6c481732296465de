import { describe, expect, it } from 'vitest'
import { PANELS } from '../db/seed/panels-content'
import { prerenderedPageFor } from '../domain/routes'
import {
  fillTemplate,
  forPrerenderedPages,
  pagesToRender,
  rendererFiles,
  rendererKey,
} from './prerender-pages'

const built = `<!doctype html>
<html lang="en">
  <head>
    <title>Harmonize</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/style-def.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`

const css = '.calm{color:#1d4f91}'

describe('pages prerendered at build time', () => {
  it('carry their styles inside and ask for the code at low priority, the renderer beside it', () => {
    const read: string[] = []
    const template = forPrerenderedPages(
      built,
      (file) => {
        read.push(file)
        return css
      },
      ['assets/react-dom-xyz.js'],
    )
    expect(read).toEqual(['assets/style-def.css'])
    expect(template).toContain(`<style>${css}</style>`)
    expect(template).not.toContain('stylesheet')
    expect(template).toContain(
      '<script type="module" fetchpriority="low" crossorigin src="/assets/index-abc.js"></script>' +
        '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/react-dom-xyz.js">',
    )
  })

  it('find the renderer the entry imports apart, without what the entry has already', () => {
    const manifest = {
      'index.html': {
        file: 'assets/index-abc.js',
        isEntry: true,
        imports: ['_shared.js'],
        dynamicImports: ['_react-dom-1.js', 'page.tsx'],
      },
      '_shared.js': { file: 'assets/shared-1.js' },
      '_react-dom-1.js': {
        file: 'assets/react-dom-1.js',
        name: 'react-dom',
        imports: ['index.html', '_shared.js', '_scheduler.js'],
      },
      '_scheduler.js': { file: 'assets/scheduler-1.js' },
      'page.tsx': { file: 'assets/page-1.js', name: 'page' },
    }
    expect(rendererKey(manifest)).toBe('_react-dom-1.js')
    expect(rendererFiles(manifest)).toEqual(['assets/react-dom-1.js', 'assets/scheduler-1.js'])
    const { '_react-dom-1.js': _renderer, ...without } = manifest
    expect(() => rendererKey(without)).toThrow(/react-dom/)
  })

  it('put the page in the root with its name and language, text as it is', () => {
    const page = fillTemplate(built, 'login', 'es', '<p>$& 100 $</p>')
    expect(page).toContain('<html lang="es">')
    expect(page).toContain('<div id="root" data-page="login"><p>$& 100 $</p></div>')
  })

  it('follow the root with the queries they were rendered with, where no text can end the script', () => {
    const queries = [{ queryKey: ['panels', 'es'], data: [{ name: '</script><b>Calma</b>' }] }]
    const page = fillTemplate(built, 'home', 'es', '<main>…</main>', queries)
    expect(page).toContain(
      '<div id="root" data-page="home"><main>…</main></div><script type="application/json" id="page-queries">',
    )
    const json = /<script type="application\/json" id="page-queries">(.*?)<\/script>/.exec(
      page,
    )?.[1]
    expect(json).not.toContain('<')
    expect(JSON.parse(json ?? '')).toEqual(queries)
    expect(fillTemplate(built, 'login', 'en', '<form></form>')).not.toContain('page-queries')
  })

  it('render a page per panel with its texts, and /home with the panels’ cards', () => {
    const pages = pagesToRender('es')
    const byName = new Map(pages.map((page) => [page.name, page]))
    for (const panel of PANELS) {
      const page = byName.get(`panel-info-${panel.id}`)
      expect(page?.url).toBe(`/panel-info/${panel.id}`)
      expect(prerenderedPageFor(page?.url ?? '', '')).toBe(page?.name)
      expect(page?.content?.panel).toMatchObject({ id: panel.id, info: panel.info.es })
    }
    expect(byName.get('home')?.content?.panels?.map((panel) => panel.name)).toEqual(
      PANELS.map((panel) => panel.name.es),
    )
    expect(byName.get('login')?.content).toBeUndefined()
  })

  it('refuse a template the build no longer makes', () => {
    const withoutCss = built.replace(/<link rel="stylesheet"[^>]*>/, '')
    expect(() => forPrerenderedPages(withoutCss, () => css)).toThrow(/one stylesheet/)
    const twoSheets = built.replace(
      '</head>',
      '<link rel="stylesheet" href="/assets/b.css"></head>',
    )
    expect(() => forPrerenderedPages(twoSheets, () => css)).toThrow(/one stylesheet/)
    expect(() => forPrerenderedPages(built, () => 'a{}</style><script>')).toThrow(
      /cannot go inline/,
    )
    expect(() => fillTemplate(built.replace('<div id="root"></div>', ''), 'x', 'en', '')).toThrow()
  })
})
