import { describe, expect, it } from 'vitest'
import { LANGUAGES, type Language } from '../../domain/i18n'
import {
  accountExistsEmail,
  CODE_VALID_MINUTES,
  type CodePurpose,
  codeEmail,
  passwordChangedEmail,
  type RenderedEmail,
  supportCopyEmail,
} from './mail-templates'

const PURPOSES: CodePurpose[] = ['sign-up', 'reset-password', 'change-email']

// Writing rule: no medical claims. A guard list, not a proof; both languages.
const MEDICAL_WORDS =
  /\b(cure[sd]?|curing|heal(s|ed|ing)?|treat(s|ed|ing|ment)?|therap\w*|diagnos\w*|disease\w*|curar?|cura[sn]?|sanar|sana|tratamiento\w*|terapia\w*|enfermedad\w*|diagn[oó]stico\w*)\b/i

/** Every template rendered in every language, with a label for failure messages. */
function allEmails(name: string | null = 'Eve'): { label: string; email: RenderedEmail }[] {
  return LANGUAGES.flatMap((language) => [
    ...PURPOSES.map((purpose) => ({
      label: `code ${purpose} ${language}`,
      email: codeEmail({ language, purpose, code: '482913', name }),
    })),
    { label: `account exists ${language}`, email: accountExistsEmail({ language, name }) },
    {
      label: `password changed ${language}`,
      email: passwordChangedEmail({ language, name, supportEmail: 'support@example.com' }),
    },
    {
      label: `support copy ${language}`,
      email: supportCopyEmail({
        language,
        name,
        subject: 'My invoice',
        body: 'Where do I find it?\n\nThanks',
        replyHours: 24,
      }),
    },
  ])
}

/** The visible words of the HTML, to compare them with the text version. */
function htmlWords(html: string): string {
  const body = html.slice(html.indexOf('<body'))
  return body
    .replace(/<br>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ')
    .trim()
}

const words = (text: string) => text.replace(/\s+/g, ' ').trim()

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

describe('every e-mail', () => {
  it('has a different subject in English and Spanish', () => {
    const pairs: [(language: Language) => RenderedEmail, string][] = [
      ...PURPOSES.map(
        (purpose) =>
          [(language: Language) => codeEmail({ language, purpose, code: '123456' }), purpose] as [
            (language: Language) => RenderedEmail,
            string,
          ],
      ),
      [(language) => accountExistsEmail({ language }), 'account exists'],
      [(language) => passwordChangedEmail({ language }), 'password changed'],
    ]
    for (const [build, label] of pairs) {
      expect(build('en').subject, label).not.toBe(build('es').subject)
      expect(build('en').text, label).not.toBe(build('es').text)
    }
  })

  it.each(allEmails().map(({ label, email }) => [label, email] as const))(
    'names Harmonize, sets lang and says the same in text and HTML (%s)',
    (label, email) => {
      const language = label.split(' ').at(-1)

      expect(email.text).toContain('Harmonize')
      expect(email.html).toContain(`<html lang="${language}">`)
      expect(email.html).toMatch(new RegExp(`<div lang="${language}"`))
      expect(htmlWords(email.html)).toBe(`Harmonize ${words(email.text)}`)
    },
  )

  it.each(allEmails('<b>Eve</b> & "Co"').map(({ label, email }) => [label, email] as const))(
    'escapes the name in the HTML (%s)',
    (_label, email) => {
      expect(email.html).toContain('&lt;b&gt;Eve&lt;/b&gt; &amp; &quot;Co&quot;')
      expect(email.html).not.toContain('<b>Eve</b>')
      expect(email.text).toContain('<b>Eve</b> & "Co"')
    },
  )

  it('escapes the code too', () => {
    const { html } = codeEmail({ language: 'en', purpose: 'sign-up', code: '<i>1</i>' })

    expect(html).toContain('&lt;i&gt;1&lt;/i&gt;')
    expect(html).not.toContain('<i>')
  })

  it('keeps to an e-mail-safe layout: inline styles only, no tables, no scripts', () => {
    for (const { label, email } of allEmails()) {
      expect(email.html, label).not.toMatch(/<(table|style|script|link)\b/i)
      expect(email.html, label).not.toMatch(/\bclass=/)
    }
  })

  it('makes no medical claims', () => {
    for (const { label, email } of allEmails()) {
      expect(`${email.subject}\n${email.text}`, label).not.toMatch(MEDICAL_WORDS)
    }
  })

  it('the guard list does catch the words it is meant to catch', () => {
    for (const word of ['cure', 'Heals', 'treatment', 'curar', 'sanar', 'tratamiento']) {
      expect(word).toMatch(MEDICAL_WORDS)
    }
    for (const word of ['secure', 'health', 'seguro', 'curious']) {
      expect(word).not.toMatch(MEDICAL_WORDS)
    }
  })
})
