import { describe, expect, it } from 'vitest'
import { LANGUAGES, type Language } from '../../domain/i18n'
import {
  accountExistsEmail,
  codeEmail,
  passwordChangedEmail,
} from '../../server/features/auth/mail'
import { invoiceEmail } from '../../server/features/billing/invoice-mail'
import { accountDeletedEmail, exportReadyEmail } from '../../server/features/leaving/mail'
import { supportCopyEmail } from '../../server/features/support/support-mail'
import type { RenderedEmail } from '../../server/mail/layout'
import type { CodePurpose } from '../../server/plugins/auth'

// Each feature writes its own messages in the frame server/mail/layout.ts gives them all; these
// checks hold for every one of them, whichever feature sends it. (What a member writes to the
// support team goes out plain, outside the frame; server/features/support/support-mail.test.ts
// tests it.)

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
    {
      label: `invoice ${language}`,
      email: invoiceEmail({ language, name, number: 'HM-2026-0001', amount: '€33.00' }),
    },
    {
      label: `data export ready ${language}`,
      email: exportReadyEmail({
        language,
        name,
        link: 'https://harmonize.example/my-account#my-data',
        expiresAt: new Date('2026-12-05T10:00:00Z'),
      }),
    },
    ...[0, 3].map((keptInvoices) => ({
      label: `account deleted, ${keptInvoices} invoices kept, ${language}`,
      email: accountDeletedEmail({
        language,
        name,
        keptInvoices,
        keptYears: 6,
        supportEmail: 'support@example.com',
      }),
    })),
  ])
}

/** The visible words of the HTML, to compare them with the text version. */
function htmlWords(html: string): string {
  const body = html.slice(html.indexOf('<body'))
  return (
    body
      // A link says its address after its words in the text version.
      .replace(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g, '$2 $1')
      .replace(/<br>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&')
      .replace(/\s+/g, ' ')
      .trim()
  )
}

const words = (text: string) => text.replace(/\s+/g, ' ').trim()

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
