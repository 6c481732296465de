import { describe, expect, it } from 'vitest'
import { fillTemplate, forPrerenderedPages, rendererFiles, rendererKey } from './prerender-pages'

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
