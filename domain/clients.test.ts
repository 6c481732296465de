import { describe, expect, it } from 'vitest'
import { topThree } from './clients'

describe('the three highest chakra readings', () => {
  it('are picked highest first, the earlier chakra first among equals', () => {
    expect(topThree([100, 999, 650, 300, 999, 120, 700])).toEqual([1, 4, 6])
    expect(topThree([500, 500, 500, 500, 500, 500, 500])).toEqual([0, 1, 2])
  })
})
