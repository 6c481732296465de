import { describe, expect, it } from 'vitest'
import { invoiceEmail } from './invoice-mail'

// The invoice letter's words: attached PDF in the sandbox, Stripe's PDF linked in Stripe mode.

describe('the invoice letter', () => {
  it('says the PDF is attached when the app renders it', () => {
    const letter = invoiceEmail({ language: 'en', number: 'HZ-000007', amount: 'US$149.00' })
    expect(letter.text).toContain('Your invoice HZ-000007 is attached as a PDF.')
    expect(letter.html).not.toContain('<a ')
  })

  it('links Stripe’s PDF in the member’s language, the address escaped in the HTML', () => {
    const pdfUrl = 'https://pay.stripe.com/invoice/acct_1/in_2/pdf?s=ap&x=1'
    const letter = invoiceEmail({
      language: 'es',
      name: 'Ana',
      number: 'HZ-000008',
      amount: '49,00 US$',
      pdfUrl,
    })
    expect(letter.subject).toBe('Tu factura HZ-000008 de Harmonize')
    expect(letter.text).toContain('Tu factura HZ-000008 está lista.')
    expect(letter.text).not.toContain('Adjuntamos')
    expect(letter.text).toContain(`Descargar la factura HZ-000008 (PDF)\n${pdfUrl}`)
    expect(letter.html).toContain(
      '<a href="https://pay.stripe.com/invoice/acct_1/in_2/pdf?s=ap&amp;x=1"',
    )
  })
})
