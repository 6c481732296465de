import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  formatDateTime,
  formatDay,
  formatFileSize,
  formatMoney,
  formatMonth,
  formatNumber,
  formatShortDay,
  formatTime,
} from './format'

// Intl puts a no-break space (U+00A0) between a Spanish amount and its symbol.
const plain = (text: string) => text.replace(/\s/g, ' ')

describe('amounts as each language writes US dollars', () => {
  it('writes US$ before the amount in English and after it in Spanish', () => {
    expect(formatMoney(1500, 'en')).toBe('US$15.00')
    expect(plain(formatMoney(1500, 'es'))).toBe('15,00 US$')
    expect(formatMoney(1_250_000, 'en')).toBe('US$12,500.00')
    expect(plain(formatMoney(1_250_000, 'es'))).toBe('12.500,00 US$')
    expect(formatMoney(5, 'en')).toBe('US$0.05')
  })

  it('shows a credit with its sign', () => {
    expect(formatMoney(-1234, 'en')).toBe('-US$12.34')
    expect(plain(formatMoney(-1234, 'es'))).toBe('-12,34 US$')
  })

  it('shows the 100-cent fallback when a price has no amount', () => {
    expect(formatMoney(null, 'en')).toBe('US$1.00')
    expect(plain(formatMoney(undefined, 'es'))).toBe('1,00 US$')
  })

  it('keeps every cent of any amount, in both languages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
        const english = formatMoney(cents, 'en').replace(/[US$,]/g, '')
        const spanish = plain(formatMoney(cents, 'es'))
          .replace(/ US\$/, '')
          .replaceAll('.', '')
          .replace(',', '.')
        expect(Math.round(Number(english) * 100)).toBe(cents)
        expect(Math.round(Number(spanish) * 100)).toBe(cents)
      }),
    )
  })
})

describe('days and moments', () => {
  it('writes a billing day in words, the same UTC day in every time zone', () => {
    expect(formatDay('2026-12-23T23:30:00.000Z', 'en')).toBe('December 23, 2026')
    expect(formatDay('2026-12-23T00:10:00.000Z', 'es')).toBe('23 de diciembre de 2026')
    expect(formatDay(new Date('2027-03-01T00:00:00Z'), 'es')).toBe('1 de marzo de 2027')
  })

  it('writes a shorter day for tables', () => {
    expect(formatShortDay('2026-12-23T12:00:00.000Z', 'en')).toBe('Dec 23, 2026')
    expect(formatShortDay('2026-12-23T12:00:00.000Z', 'es')).toBe('23 dic 2026')
  })

  it("writes a card's expiry month in words", () => {
    expect(formatMonth(2026, 11, 'en')).toBe('November 2026')
    expect(formatMonth(2026, 11, 'es')).toBe('noviembre de 2026')
    expect(formatMonth(2027, 1, 'en')).toBe('January 2027')
  })

  it('writes a moment with its time in the zone asked for', () => {
    expect(plain(formatDateTime('2026-11-26T13:44:00.000Z', 'en', 'UTC'))).toBe(
      'Nov 26, 2026, 1:44 PM',
    )
    expect(formatDateTime('2026-11-26T13:44:00.000Z', 'es', 'UTC')).toBe('26 nov 2026, 13:44')
    expect(formatDateTime('2026-11-26T13:44:00.000Z', 'es', 'America/Mexico_City')).toBe(
      '26 nov 2026, 7:44',
    )
  })

  it('writes numbers with each language’s separators', () => {
    expect(formatNumber(12345.5, 'en')).toBe('12,345.5')
    expect(formatNumber(12345.5, 'es')).toBe('12.345,5')
    expect(formatNumber(0.25, 'es', { style: 'percent' })).toMatch(/^25\s%$/)
  })
})

describe('times and sizes', () => {
  it('writes a time of day alone', () => {
    const at = new Date(2026, 10, 26, 13, 44)
    expect(plain(formatTime(at, 'en'))).toBe('1:44 PM')
    expect(formatTime(at, 'es')).toBe('13:44')
  })

  it('writes file sizes in decimal units with the language’s separators', () => {
    expect(formatFileSize(820_000, 'en')).toBe('820 kB')
    expect(formatFileSize(12_400_000, 'en')).toBe('12.4 MB')
    expect(formatFileSize(1_500_000_000, 'es')).toBe('1,5 GB')
    expect(formatFileSize(136, 'en')).toBe('136 byte')
  })
})
