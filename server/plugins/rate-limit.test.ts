import { describe, expect, it } from 'vitest'
import { clientKey } from './rate-limit'

describe('clientKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0db8:0000:0002::9', '2001:db8:0:2::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (address, key) => {
    expect(clientKey(address)).toBe(key)
  })

  it('puts every address of one /64 under one key, and another /64 under another', () => {
    const one = ['2001:db8:aa:1::1', '2001:db8:aa:1:dead:beef:0:7', '2001:db8:aa:1:ffff::']
    expect(new Set(one.map(clientKey)).size).toBe(1)
    expect(clientKey('2001:db8:aa:2::1')).not.toBe(clientKey(one[0] ?? ''))
  })
})
