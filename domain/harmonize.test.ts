import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { HARMONIZE_DURATION_MS } from './constants'
import { parseRx, RX_MAX_PANELS, RX_MINUTES, rxPath } from './harmonize'

const panelId = fc.integer({ min: 1, max: 16 }).map((n) => String(n).padStart(2, '0'))

describe('a tray session in the harmonizing screen’s address', () => {
  it('comes back as it was sent: the tray’s time and its other panels in order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(panelId, { minLength: 1, maxLength: RX_MAX_PANELS }),
        fc.constantFrom(...RX_MINUTES),
        (panelIds, minutes) => {
          const path = rxPath({ panelIds, minutes })
          const url = new URL(path, 'https://harmonize.test')
          expect(url.pathname).toBe(`/harmonizing-screen/${panelIds[0]}`)
          expect(parseRx(panelIds[0] ?? '', url.search)).toEqual({
            durationMs: minutes * 60_000,
            layered: panelIds.slice(1),
          })
        },
      ),
    )
  })

  it('a Balance Rx of one panel has no layered panels in its address', () => {
    expect(rxPath({ panelIds: ['07'], minutes: 10 })).toBe('/harmonizing-screen/07?minutes=10')
  })

  it('falls back to the ritual’s 3:00 for a missing or unknown time', () => {
    for (const search of ['', '?minutes=7', '?minutes=-3', '?minutes=abc', '?minutes=1e9']) {
      expect(parseRx('01', search).durationMs).toBe(HARMONIZE_DURATION_MS)
    }
  })

  it('leaves out malformed, repeated and leading panel ids, and more than a full scan list', () => {
    expect(parseRx('01', '?with=02,02,01,x,3,,004,05').layered).toEqual(['02', '05'])
    const many = Array.from({ length: 40 }, (_, i) => String(i + 10)).join(',')
    expect(parseRx('01', `?with=${many}`).layered).toHaveLength(RX_MAX_PANELS - 1)
  })
})
