import { describe, expect, it } from 'vitest'
import { SUPPORT_MAILS_PER_HOUR, SUPPORT_REPLY_HOURS } from '../domain/support'
import { translateRefusal, waitText } from './i18n'

describe('how long to wait, in words', () => {
  it('rounds up to whole seconds, minutes or hours, with plurals in both languages', () => {
    expect(waitText(0.2, 'en')).toBe('1 second')
    expect(waitText(45, 'en')).toBe('45 seconds')
    expect(waitText(45, 'es')).toBe('45 segundos')
    expect(waitText(61, 'en')).toBe('2 minutes')
    expect(waitText(60, 'es')).toBe('1 minuto')
    expect(waitText(58 * 60 - 30, 'en')).toBe('58 minutes')
    expect(waitText(58 * 60 - 30, 'es')).toBe('58 minutos')
    expect(waitText(3600, 'en')).toBe('1 hour')
    expect(waitText(3600 + 5 * 60, 'en')).toBe('1 hour and 5 minutes')
    expect(waitText(2 * 3600 + 60, 'es')).toBe('2 horas y 1 minuto')
  })

  it('goes into every limit message that has a place for it, and into no other', () => {
    expect(translateRefusal('errors.tooManyRequests', 'en', 58 * 60)).toBe(
      'Too many attempts. Try again in 58 minutes.',
    )
    expect(translateRefusal('errors.tooManyRequests', 'es', 58 * 60)).toBe(
      'Demasiados intentos. Vuelve a intentarlo dentro de 58 minutos.',
    )
    for (const language of ['en', 'es'] as const) {
      const tooMany = translateRefusal('support.tooManyMails', language, 30)
      expect(tooMany).toContain(String(SUPPORT_MAILS_PER_HOUR))
      expect(tooMany).toContain(String(SUPPORT_REPLY_HOURS))
    }
    expect(translateRefusal('support.tooManyMails', 'es', 30)).toContain('dentro de 30 segundos')
    expect(translateRefusal('auth.tooManySignIns', 'en', 900)).toContain('Try again in 15 minutes')
    expect(translateRefusal('errors.storeUnavailable', 'en', 5)).toBe(
      'Harmonize cannot do this right now. Please try again in a few seconds.',
    )
  })
})
