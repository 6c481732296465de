import { describe, expect, it } from 'vitest'
import {
  matchAppRoute,
  NOT_FOUND_PAGE,
  PRERENDERED_PAGES,
  pageOfValue,
  prerenderedPageFor,
} from './routes'

describe('matchAppRoute', () => {
  it.each([
    ['/', '/'],
    ['/home', '/home'],
    ['/login', '/login'],
    ['/panel-info/07', '/panel-info/:id'],
    ['/harmonizing-screen/3', '/harmonizing-screen/:id'],
    ['/my-account', '/my-account/*'],
    ['/my-account/single-payment', '/my-account/*'],
    ['/signup', '/signup'],
    ['/signup/ABC123', '/signup/:code'],
  ])('finds the page for %s', (pathname, pattern) => {
    expect(matchAppRoute(pathname)?.path).toBe(pattern)
  })

  it('tells protected pages from public ones', () => {
    expect(matchAppRoute('/home')?.access).toBe('protected')
    expect(matchAppRoute('/login')?.access).toBe('public')
    expect(matchAppRoute('/logout')?.access).toBe('open')
  })

  it('accepts a trailing slash', () => {
    expect(matchAppRoute('/home/')?.path).toBe('/home')
    expect(matchAppRoute('/panel-info/07/')?.path).toBe('/panel-info/:id')
  })

  it('ignores the query string and the hash', () => {
    expect(matchAppRoute('/home?lang=es')?.path).toBe('/home')
    expect(matchAppRoute('/signup/ABC123?ref=mail#top')?.path).toBe('/signup/:code')
  })

  it.each([
    '/nope',
    '/panel-info',
    '/panel-info/1/2',
    '/homepage',
    '/home/extra',
    '/api/countries',
  ])('has no page for %s', (pathname) => {
    expect(matchAppRoute(pathname)).toBeUndefined()
  })
})

describe('prerenderedPageFor', () => {
  it('names the page the build renders for a path, and each page’s URL is that path', () => {
    expect(prerenderedPageFor('/login', '')).toBe('login')
    expect(prerenderedPageFor('/my-account', '')).toBe('my-account')
    for (const [name, url] of PRERENDERED_PAGES) {
      if (name !== NOT_FOUND_PAGE) expect(prerenderedPageFor(url, ''), url).toBe(name)
    }
  })

  it('names a panel’s own page after the panel, and leaves any other value to the browser', () => {
    expect(prerenderedPageFor('/panel-info/07', '')).toBe('panel-info-07')
    expect(prerenderedPageFor('/panel-info/07/', '?from=home')).toBe('panel-info-07')
    expect(pageOfValue('/panel-info/:id', '07')).toBe('panel-info-07')
    expect(prerenderedPageFor('/panel-info/..%2Fhome', '')).toBeUndefined()
    expect(prerenderedPageFor('/panel-info/SEVEN', '')).toBeUndefined()
    // The build lists these itself (scripts/prerender-pages.ts), one per panel.
    expect([...PRERENDERED_PAGES.keys()].filter((name) => name.startsWith('panel-info'))).toEqual(
      [],
    )
  })

  it('leaves to the browser a visitor’s page that reads its address or its query', () => {
    expect(prerenderedPageFor('/signup/SPRING-2026', '')).toBeUndefined()
    expect(prerenderedPageFor('/reset-password', '?email=a%40b.co&code=123456')).toBeUndefined()
    expect(prerenderedPageFor('/', '')).toBeUndefined()
  })

  it('sends a member’s shell whatever the query, but not for paths below its own', () => {
    expect(prerenderedPageFor('/home', '?panel=3')).toBe('home')
    expect(prerenderedPageFor('/my-account/billing-history', '')).toBeUndefined()
  })

  it('reads a path as the client’s router does: case matters, encoding and trailing slashes do not', () => {
    expect(prerenderedPageFor('/Login', '')).toBe(NOT_FOUND_PAGE)
    expect(prerenderedPageFor('/log%69n', '')).toBe('login')
    expect(prerenderedPageFor('/home//', '')).toBe('home')
    expect(prerenderedPageFor('/my-account//', '')).toBe('my-account')
    expect(prerenderedPageFor('/%E0%A4%A', '')).toBe(NOT_FOUND_PAGE)
    expect(matchAppRoute('/panel-info/a%2Fb')?.path).toBe('/panel-info/:id')
  })

  it('sends the 404 page for a path outside the route table', () => {
    expect(prerenderedPageFor('/no-such-page', '')).toBe(NOT_FOUND_PAGE)
    expect(PRERENDERED_PAGES.get(NOT_FOUND_PAGE)).toBe('/not-found')
    expect(matchAppRoute('/not-found')).toBeUndefined()
  })
})
