import { describe, expect, it } from 'vitest'
import { supportCopyEmail, supportRequestEmail } from './support-mail'

const member = { id: 'u-1', name: 'Ana Núñez', email: 'ana@example.test', language: 'es' as const }

describe('the support team’s message', () => {
  it('keeps the subject and puts who wrote it before the text', () => {
    const email = supportRequestEmail({ subject: 'Help', body: 'Line 1\n\nLine 2', member })

    expect(email.subject).toBe('Help')
    expect(email.text).toBe(
      'Name: Ana Núñez\nE-mail: ana@example.test\nLanguage: es\nAccount: u-1\n\nLine 1\n\nLine 2\n',
    )
    expect(email.html).toContain('white-space: pre-wrap')
    expect(email.html).toContain('Line 1\n\nLine 2')
  })

  it('escapes everything the member wrote in the HTML', () => {
    const email = supportRequestEmail({
      subject: '<script>x()</script>',
      body: '<img src=x onerror=alert(1)>',
      member: { ...member, name: '<b>Ana</b>' },
    })

    expect(email.html).not.toMatch(/<(script|img|b)\b/)
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(email.html).toContain('Name: &lt;b&gt;Ana&lt;/b&gt;')
  })

  it('says so when the account has no name', () => {
    expect(
      supportRequestEmail({ subject: 'a', body: 'b', member: { ...member, name: ' ' } }).text,
    ).toMatch(/^Name: \(no name\)\n/)
  })
})

describe('the member’s copy', () => {
  it('quotes the message with its line breaks and escapes it in the HTML', () => {
    const email = supportCopyEmail({
      language: 'en',
      name: 'Eve',
      subject: 'Cards & <plans>',
      body: 'One\n\nTwo',
      replyHours: 24,
    })

    expect(email.subject).toBe('We received your message: Cards & <plans>')
    expect(email.text).toContain('    Subject: Cards & <plans>\n\n    One\n\n    Two')
    expect(email.html).toContain('Subject: Cards &amp; &lt;plans&gt;\n\nOne\n\nTwo')
    expect(email.html).not.toContain('<plans>')
  })
})
