import { describe, expect, it } from 'vitest'
import { isIosOutsideSafari, versionOf } from './pwa-platform'

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)'
const IPAD_AS_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)'

describe('isIosOutsideSafari', () => {
  it.each([
    ['Chrome on iPhone', `${IPHONE} CriOS/138.0.7204.119 Mobile/15E148 Safari/604.1`, 5, true],
    ['Firefox on iPhone', `${IPHONE} FxiOS/141.0 Mobile/15E148 Safari/605.1.15`, 5, true],
    ['Edge on iPhone', `${IPHONE} EdgiOS/138.0 Version/18.0 Mobile/15E148 Safari/604.1`, 5, true],
    ['an in-app browser', `${IPHONE} Mobile/15E148 [FBAN/FBIOS;FBAV/500.0]`, 5, true],
    ['Safari on iPhone', `${IPHONE} Version/18.5 Mobile/15E148 Safari/604.1`, 5, false],
    ['Safari on iPad', `${IPAD_AS_MAC} Version/18.5 Safari/605.1.15`, 5, false],
    ['Chrome on iPad', `${IPAD_AS_MAC} CriOS/138.0 Version/18.0 Safari/604.1`, 5, true],
    ['Safari on a Mac', `${IPAD_AS_MAC} Version/18.5 Safari/605.1.15`, 0, false],
    [
      'Chrome on a Mac',
      `${IPAD_AS_MAC.replace('605.1.15', '537.36')} Chrome/138.0 Safari/537.36`,
      0,
      false,
    ],
    [
      'Chrome on Android',
      'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0 Mobile Safari/537.36',
      5,
      false,
    ],
  ])('%s → %s', (_name, userAgent, touchPoints, expected) => {
    expect(isIosOutsideSafari(userAgent, touchPoints)).toBe(expected)
  })
})

describe('versionOf', () => {
  it('is stable for a text and differs for another', () => {
    const script = 'precacheAndRoute([{url:"index.html",revision:"0e1f33b9"}])'
    expect(versionOf(script)).toBe(versionOf(script))
    expect(versionOf(script)).not.toBe(versionOf(script.replace('0e1f33b9', '0e1f33ba')))
    expect(versionOf(script)).toMatch(/^[0-9a-z]+$/)
  })
})
