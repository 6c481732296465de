import { describe, expect, it } from 'vitest'
import { isBirthDate, normalisePhone } from './client-form'

describe('phone numbers of clients', () => {
  it('are kept in international form, from either form the person typed', () => {
    expect(normalisePhone('+34 600 12 34 56')).toBe('+34600123456')
    expect(normalisePhone('600123456', 'ES')).toBe('+34600123456')
    expect(normalisePhone('(415) 555-2671', 'US')).toBe('+14155552671')
  })

  it('are refused when they cannot be dialled or their country is unknown', () => {
    expect(normalisePhone('600123456')).toBeNull()
    expect(normalisePhone('+34 12')).toBeNull()
    expect(normalisePhone('600123456', 'ZZ')).toBeNull()
    expect(normalisePhone('call me')).toBeNull()
  })
})

describe('birth dates', () => {
  const today = new Date('2026-11-25T12:00:00Z')
  it('are days that exist, from 1900 to today', () => {
    expect(isBirthDate('1985-04-23', today)).toBe(true)
    expect(isBirthDate('2026-11-25', today)).toBe(true)
    expect(isBirthDate('2000-02-29', today)).toBe(true)
  })

  it('are refused in the future, before 1900, or when the day does not exist', () => {
    expect(isBirthDate('2026-11-26', today)).toBe(false)
    expect(isBirthDate('1899-12-31', today)).toBe(false)
    expect(isBirthDate('1990-02-30', today)).toBe(false)
    expect(isBirthDate('23/04/1985', today)).toBe(false)
  })
})
