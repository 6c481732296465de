import { describe, expect, it } from 'vitest'
import { formatBirthDate, parseBirthDate } from './birth-date'

describe('birth dates in the form', () => {
  it('show month/day/year in English and day/month/year in Spanish', () => {
    expect(formatBirthDate('1985-04-23', 'en')).toBe('04/23/1985')
    expect(formatBirthDate('1985-04-23', 'es')).toBe('23/04/1985')
  })

  it('are read back in the same order, with short parts and other separators', () => {
    expect(parseBirthDate('04/23/1985', 'en')).toBe('1985-04-23')
    expect(parseBirthDate('4-3-1985', 'en')).toBe('1985-04-03')
    expect(parseBirthDate('23/04/1985', 'es')).toBe('1985-04-23')
    expect(parseBirthDate(' 3.4.1985 ', 'es')).toBe('1985-04-03')
  })

  it('are not read when written another way', () => {
    expect(parseBirthDate('1985-04-23', 'en')).toBeNull()
    expect(parseBirthDate('April 23', 'en')).toBeNull()
    expect(parseBirthDate('', 'es')).toBeNull()
  })
})
