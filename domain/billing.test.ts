import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  cardBrand,
  createPriceRequestSchema,
  isCardExpired,
  passesLuhn,
  planName,
  priceLabel,
} from './billing'

/** The Luhn check digit for `body`, computed independently of the code under test. */
function withCheckDigit(body: string): string {
  for (let check = 0; check <= 9; check++) {
    const candidate = `${body}${check}`
    const sum = [...candidate]
      .reverse()
      .map(Number)
      .reduce((total, digit, index) => {
        if (index % 2 === 0) return total + digit
        const doubled = digit * 2
        return total + (doubled > 9 ? doubled - 9 : doubled)
      }, 0)
    if (sum % 10 === 0) return candidate
  }
  throw new Error('unreachable')
}

describe('price labels (spec core §2)', () => {
  it('shows nickname underscores as spaces', () => {
    expect(priceLabel('FOUR_PAYMENTS')).toBe('FOUR PAYMENTS')
    expect(priceLabel('ONE_PAYMENT')).toBe('ONE PAYMENT')
    expect(priceLabel('Monthly')).toBe('Monthly')
  })

  it('names the catalog’s three plans in Spanish, and an operator’s own price as written', () => {
    expect(
      ['ONE_PAYMENT', 'FOUR_PAYMENTS', 'SUBSCRIPTION'].map((nickname) =>
        planName(priceLabel(nickname), 'es'),
      ),
    ).toEqual(['PAGO ÚNICO', 'CUATRO PAGOS', 'SUSCRIPCIÓN'])
    expect(planName('FOUR PAYMENTS', 'en')).toBe('FOUR PAYMENTS')
    expect(planName('SPRING OFFER', 'es')).toBe('SPRING OFFER')
    expect(planName('constructor', 'es')).toBe('constructor')
  })

  it('a new price needs a nickname an operator can read, a plan and a chargeable amount', () => {
    const valid = { nickname: 'SPRING_OFFER', plan: 'one_payment', unitAmount: 2500 }
    expect(createPriceRequestSchema.safeParse(valid).success).toBe(true)
    for (const bad of [
      { ...valid, nickname: '' },
      { ...valid, nickname: '_LEADING' },
      { ...valid, nickname: 'TAB\tHERE' },
      { ...valid, plan: 'weekly' },
      { ...valid, unitAmount: 49 },
      { ...valid, unitAmount: 12.5 },
      { ...valid, unitAmount: 10_000_001 },
    ]) {
      expect(createPriceRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
})

describe('card numbers', () => {
  it('accepts the sandbox test cards and real-looking numbers with spaces or dashes', () => {
    for (const number of [
      '4242 4242 4242 4242',
      '4000000000000002',
      '4000-0000-0000-9995',
      '4000000000000341',
      '5555555555554444',
      '378282246310005',
    ]) {
      expect(passesLuhn(number), number).toBe(true)
    }
  })

  it('refuses a number with one digit changed', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{15}$/),
        fc.nat(15),
        fc.integer({ min: 1, max: 9 }),
        (body, position, shift) => {
          const valid = withCheckDigit(body)
          const changed =
            valid.slice(0, position) +
            String((Number(valid[position]) + shift) % 10) +
            valid.slice(position + 1)
          expect(passesLuhn(valid)).toBe(true)
          expect(passesLuhn(changed)).toBe(false)
        },
      ),
    )
  })

  it('refuses what is not a card number at all', () => {
    for (const number of [
      '',
      '4242',
      'abcd efgh ijkl mnop',
      '4242424242424242424242',
      '4242.4242',
    ]) {
      expect(passesLuhn(number), number).toBe(false)
    }
  })

  it('tells the brand from the leading digits', () => {
    expect(cardBrand('4242424242424242')).toBe('visa')
    expect(cardBrand('5555 5555 5555 4444')).toBe('mastercard')
    expect(cardBrand('2223003122003222')).toBe('mastercard')
    expect(cardBrand('378282246310005')).toBe('amex')
    expect(cardBrand('6011111111111117')).toBe('discover')
    expect(cardBrand('9999999999999995')).toBe('unknown')
  })

  it('a card is good through the last day of its expiry month', () => {
    const now = new Date('2026-11-23T12:00:00Z')
    expect(isCardExpired(11, 2026, now)).toBe(false)
    expect(isCardExpired(12, 2026, now)).toBe(false)
    expect(isCardExpired(1, 2027, now)).toBe(false)
    expect(isCardExpired(10, 2026, now)).toBe(true)
    expect(isCardExpired(12, 2025, now)).toBe(true)
  })
})
