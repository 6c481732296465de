import { describe, expect, it } from 'vitest'
import { CODE_VALID_MINUTES } from '../../../domain/auth'
import { LANGUAGES } from '../../../domain/i18n'
import type { CodePurpose } from '../../plugins/auth'
import { accountExistsEmail, codeEmail, passwordChangedEmail } from './mail'

const PURPOSES: CodePurpose[] = ['sign-up', 'reset-password', 'change-email']

describe('codeEmail', () => {
  it.each(LANGUAGES.flatMap((language) => PURPOSES.map((purpose) => [language, purpose] as const)))(
    'shows the code, its lifetime and the way out (%s, %s)',
    (language, purpose) => {
      const email = codeEmail({ language, purpose, code: '482913', name: 'Eve' })

      expect(email.text).toContain('\n482913\n')
      expect(email.html).toMatch(/<span style="[^"]*font-size: 32px[^"]*">482913<\/span>/)
      expect(email.text).toContain(String(CODE_VALID_MINUTES))
      expect(email.text).toMatch(language === 'en' ? /10 minutes/ : /10 minutos/)
      expect(email.text).toMatch(language === 'en' ? /works only once/ : /solo funciona una vez/)
      expect(email.text).toMatch(language === 'en' ? /ignore this message/ : /ignorar este mensaje/)
      expect(email.subject).not.toContain('482913')
    },
  )

  it('says what each code is for, differently in each language', () => {
    for (const language of LANGUAGES) {
      const subjects = PURPOSES.map(
        (purpose) => codeEmail({ language, purpose, code: '111111' }).subject,
      )
      expect(new Set(subjects).size, language).toBe(PURPOSES.length)
    }
    expect(codeEmail({ language: 'en', purpose: 'reset-password', code: '1' }).text).toMatch(
      /new password/,
    )
    expect(codeEmail({ language: 'es', purpose: 'reset-password', code: '1' }).text).toMatch(
      /contraseña nueva/,
    )
  })

  it('greets without a name when there is none', () => {
    expect(codeEmail({ language: 'en', purpose: 'sign-up', code: '1', name: null }).text).toMatch(
      /^Hello,\n/,
    )
    expect(codeEmail({ language: 'es', purpose: 'sign-up', code: '1', name: '  ' }).text).toMatch(
      /^Hola:\n/,
    )
    expect(codeEmail({ language: 'es', purpose: 'sign-up', code: '1', name: 'Eva' }).text).toMatch(
      /^Hola, Eva:\n/,
    )
  })
})

describe('accountExistsEmail', () => {
  it.each(LANGUAGES)('points to sign-in and the reset link, or ignoring it (%s)', (language) => {
    const { text } = accountExistsEmail({ language, name: 'Eve' })

    expect(text).toContain(
      language === 'en' ? 'Forgot your password?' : '¿Olvidaste tu contraseña?',
    )
    expect(text).toMatch(language === 'en' ? /sign in/ : /iniciar sesión/)
    expect(text).toMatch(language === 'en' ? /ignore this message/ : /ignorar este mensaje/)
  })
})

describe('passwordChangedEmail', () => {
  it.each(LANGUAGES)(
    'says other devices were signed out and what to do if not them (%s)',
    (language) => {
      const { text } = passwordChangedEmail({
        language,
        name: 'Eve',
        supportEmail: 'help@example.com',
      })

      expect(text).toMatch(language === 'en' ? /signed you out/ : /cerrado la sesión/)
      expect(text).toMatch(
        language === 'en'
          ? /reset your password right away/
          : /restablece tu contraseña ahora mismo/,
      )
      expect(text).toContain('help@example.com')
    },
  )

  it('still says to contact support without an address', () => {
    expect(passwordChangedEmail({ language: 'en', name: 'Eve' }).text).toContain('support team')
    expect(passwordChangedEmail({ language: 'es', name: 'Eve' }).text).toContain('soporte')
  })
})
