import { describe, expect, it } from 'vitest'
import { matchAppRoute } from './routes'

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
