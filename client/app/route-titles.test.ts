import { describe, expect, it } from 'vitest'
import { APP_ROUTES } from '../../domain/routes'
import en from '../locales/en.json'
import es from '../locales/es.json'
import { ROUTE_TITLES, titleKeyOf } from './route-titles'

const text = (catalogue: { titles: Record<string, string> }, path: string) => {
  const key = titleKeyOf(path)
  return key === null ? '' : catalogue.titles[key]
}

describe('header titles (spec core §2 Header)', () => {
  it('name the about, solfeggio, messages and privacy pages too (the spec left them blank)', () => {
    expect(
      ['/about', '/solfeggio-frequencies', '/messages', '/privacy-policy'].map((path) =>
        text(en, path),
      ),
    ).toEqual(['About', 'Solfeggio Frequencies', 'Messages in Water', 'Privacy Policy'])
  })

  it('are never blank on a page of the route table', () => {
    for (const { path } of APP_ROUTES) {
      // `/` only ever leads elsewhere.
      if (path === '/') continue
      expect(text(en, path), path).not.toBe('')
      expect(text(es, path), path).not.toBe('')
    }
  })

  it("show '...' while a panel loads and 'Harmonizing Screen' while harmonizing", () => {
    expect(text(en, '/panel-info/04')).toBe('...')
    expect(text(en, '/harmonizing-screen/04')).toBe('Harmonizing Screen')
  })

  it('say My Subscription on upgrade plan, billing history and add credit card', () => {
    for (const path of ['/upgrade-plan', '/billing-history', '/add-credit-card']) {
      expect(text(en, path), path).toBe('My Subscription')
      expect(text(es, path), path).toBe('Mi suscripción')
    }
  })

  it('exist in both languages for every route', () => {
    for (const { path } of APP_ROUTES) {
      const key = ROUTE_TITLES[path]
      if (key === null) continue
      expect((en.titles as Record<string, string>)[key], path).toBeTruthy()
      expect((es.titles as Record<string, string>)[key], path).toBeTruthy()
    }
  })

  it('name the 404 page on an unknown path, in both languages', () => {
    expect(titleKeyOf('/no-such-page')).toBe('notFound')
    expect((en.titles as Record<string, string>).notFound).toBe('404 Not Found')
    expect((es.titles as Record<string, string>).notFound).toBe('404 No encontrado')
  })
})
