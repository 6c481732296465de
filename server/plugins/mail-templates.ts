import type { Language } from '../../domain/i18n'
import { escapeHtml } from '../html'

/** A message ready for the mailer: the same words as plain text and as HTML. */
export interface RenderedEmail {
  subject: string
  text: string
  html: string
}

export type CodePurpose = 'sign-up' | 'reset-password' | 'change-email'

/** How long a code from codeEmail() stays valid; the auth settings must agree with it. */
export const CODE_VALID_MINUTES = 10

const PRODUCT = 'Harmonize'

// One list of blocks renders both bodies, so the text and HTML versions cannot drift apart.
type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; code: string }
  // What a person wrote, line breaks kept.
  | { kind: 'quote'; text: string }

interface Letter {
  language: Language
  subject: string
  name?: string | null
  blocks: Block[]
}

const paragraph = (text: string): Block => ({ kind: 'paragraph', text })

const COMMON = {
  en: {
    greeting: (name?: string | null) => (name?.trim() ? `Hello ${name.trim()},` : 'Hello,'),
    signOff: ['Warm wishes,', `The ${PRODUCT} team`],
    forgotPassword: 'Forgot your password?',
  },
  es: {
    greeting: (name?: string | null) => (name?.trim() ? `Hola, ${name.trim()}:` : 'Hola:'),
    signOff: ['Un saludo afectuoso,', `El equipo de ${PRODUCT}`],
    forgotPassword: '¿Olvidaste tu contraseña?',
  },
} as const satisfies Record<Language, unknown>

const CODE_TEXTS: Record<Language, Record<CodePurpose, { subject: string; intro: string }>> = {
  en: {
    'sign-up': {
      subject: `Your code to create your ${PRODUCT} account`,
      intro: `Here is your code to finish creating your ${PRODUCT} account.`,
    },
    'reset-password': {
      subject: `Your code to reset your ${PRODUCT} password`,
      intro: `Here is your code to choose a new password for your ${PRODUCT} account.`,
    },
    'change-email': {
      subject: `Your code to confirm your new e-mail address`,
      intro: `Here is your code to use this e-mail address for your ${PRODUCT} account.`,
    },
  },
  es: {
    'sign-up': {
      subject: `Tu código para crear tu cuenta de ${PRODUCT}`,
      intro: `Este es tu código para terminar de crear tu cuenta de ${PRODUCT}.`,
    },
    'reset-password': {
      subject: `Tu código para restablecer tu contraseña de ${PRODUCT}`,
      intro: `Este es tu código para elegir una contraseña nueva para tu cuenta de ${PRODUCT}.`,
    },
    'change-email': {
      subject: 'Tu código para confirmar tu nueva dirección de correo',
      intro: `Este es tu código para usar esta dirección de correo en tu cuenta de ${PRODUCT}.`,
    },
  },
}

/**
 * The one-time code for signing up, resetting the password or confirming a new address: what it
 * is for, the code itself, how long it lasts, and that an unexpected one can be ignored.
 */
export function codeEmail(input: {
  language: Language
  purpose: CodePurpose
  code: string
  name?: string | null
}): RenderedEmail {
  const { language, purpose, code, name } = input
  const texts = CODE_TEXTS[language][purpose]
  const rest =
    language === 'es'
      ? [
          `El código es válido durante ${CODE_VALID_MINUTES} minutos y solo funciona una vez.`,
          'Si no pediste este código, puedes ignorar este mensaje.',
        ]
      : [
          `The code is valid for ${CODE_VALID_MINUTES} minutes and works only once.`,
          'If you did not ask for this code, you can ignore this message.',
        ]
  return render({
    language,
    subject: texts.subject,
    name,
    blocks: [paragraph(texts.intro), { kind: 'code', code }, ...rest.map(paragraph)],
  })
}

/**
 * Sent instead of a sign-up code when the address already has an account, so the sign-up form
 * never reveals which addresses are registered.
 */
export function accountExistsEmail(input: {
  language: Language
  name?: string | null
}): RenderedEmail {
  const { language, name } = input
  const forgot = COMMON[language].forgotPassword
  const lines =
    language === 'es'
      ? {
          subject: `Ya tienes una cuenta de ${PRODUCT}`,
          paragraphs: [
            `Alguien, quizá tú, acaba de intentar crear una cuenta de ${PRODUCT} con esta dirección de correo. Ya tienes una cuenta con ella.`,
            `Si fuiste tú, puedes iniciar sesión como siempre. Si no recuerdas tu contraseña, elige "${forgot}" en la página de inicio de sesión.`,
            'Si no fuiste tú, puedes ignorar este mensaje. Tu cuenta no ha cambiado.',
          ],
        }
      : {
          subject: `You already have a ${PRODUCT} account`,
          paragraphs: [
            `Someone, maybe you, just tried to create a ${PRODUCT} account with this e-mail address. You already have an account with it.`,
            `If it was you, you can sign in as usual. If you do not remember your password, choose "${forgot}" on the sign-in page.`,
            'If it was not you, you can ignore this message. Your account has not changed.',
          ],
        }
  return render({ language, subject: lines.subject, name, blocks: lines.paragraphs.map(paragraph) })
}

/**
 * Tells the owner that their password changed and other devices were signed out, and what to do
 * if they did not change it. Pass `supportEmail` (the SUPPORT_EMAIL setting) so the message can
 * name the address to write to: someone locked out cannot reach the in-app support page.
 */
export function passwordChangedEmail(input: {
  language: Language
  name?: string | null
  supportEmail?: string
}): RenderedEmail {
  const { language, name, supportEmail } = input
  const forgot = COMMON[language].forgotPassword
  const lines =
    language === 'es'
      ? {
          subject: `Tu contraseña de ${PRODUCT} ha cambiado`,
          paragraphs: [
            `La contraseña de tu cuenta de ${PRODUCT} acaba de cambiar. Por tu seguridad, hemos cerrado la sesión en tus otros dispositivos.`,
            'Si fuiste tú, no tienes que hacer nada más.',
            `Si no fuiste tú, restablece tu contraseña ahora mismo con "${forgot}" en la página de inicio de sesión. Después, escríbenos ${supportEmail ? `a ${supportEmail}` : 'a nuestro equipo de soporte'} para que podamos ayudarte.`,
          ],
        }
      : {
          subject: `Your ${PRODUCT} password was changed`,
          paragraphs: [
            `The password of your ${PRODUCT} account was just changed. To keep your account safe, we signed you out on your other devices.`,
            'If it was you, there is nothing more to do.',
            `If it was not you, reset your password right away with "${forgot}" on the sign-in page. Then write to ${supportEmail ? `us at ${supportEmail}` : 'our support team'} so we can help.`,
          ],
        }
  return render({ language, subject: lines.subject, name, blocks: lines.paragraphs.map(paragraph) })
}

/** The invoice of a payment, sent with its PDF to the billing e-mail and the copy address. */
export function invoiceEmail(input: {
  language: Language
  name?: string | null
  number: string
  amount: string
}): RenderedEmail {
  const { language, name, number, amount } = input
  const lines =
    language === 'es'
      ? {
          subject: `Tu factura ${number} de ${PRODUCT}`,
          paragraphs: [
            `Gracias por tu pago de ${amount}. Adjuntamos tu factura ${number} en PDF.`,
            'También la encontrarás en Mi cuenta, en el historial de facturación.',
          ],
        }
      : {
          subject: `Your ${PRODUCT} invoice ${number}`,
          paragraphs: [
            `Thank you for your payment of ${amount}. Your invoice ${number} is attached as a PDF.`,
            'You can also find it in My Account, under the billing history.',
          ],
        }
  return render({ language, subject: lines.subject, name, blocks: lines.paragraphs.map(paragraph) })
}

/**
 * What a member wrote through /send-mail, for the support team (spec scans §3 Support mail): the
 * member's subject as it is, and their text after their name, e-mail address, language and
 * account id, so whoever answers knows who it is and in which language to reply. Staff read it
 * in English.
 */
export function supportRequestEmail(input: {
  subject: string
  body: string
  member: { id: string; name: string; email: string; language: Language }
}): RenderedEmail {
  const { subject, body, member } = input
  const facts = [
    `Name: ${member.name.trim() || '(no name)'}`,
    `E-mail: ${member.email}`,
    `Language: ${member.language}`,
    `Account: ${member.id}`,
  ]
  const text = `${facts.join('\n')}\n\n${body}\n`
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title>`,
    '</head>',
    `<body style="font-family: ${FONT}; font-size: 15px; line-height: 1.5; color: #2b2540;">`,
    `<p style="${P_STYLE}">${facts.map(escapeHtml).join('<br>')}</p>`,
    `<div style="white-space: pre-wrap; overflow-wrap: anywhere;">${escapeHtml(body)}</div>`,
    '</body>',
    '</html>',
  ].join('\n')
  return { subject, text, html }
}

/**
 * The member's own copy of what they sent to support, in their language: that it arrived, when
 * to expect the answer, and their words. Replies to it reach the support team.
 */
export function supportCopyEmail(input: {
  language: Language
  name?: string | null
  subject: string
  body: string
  replyHours: number
}): RenderedEmail {
  const { language, name, subject, body, replyHours } = input
  const lines =
    language === 'es'
      ? {
          subject: `Hemos recibido tu mensaje: ${subject}`,
          before: [
            `Gracias por escribirnos. Tu mensaje ya está con el equipo de soporte de ${PRODUCT}, que te responderá en menos de ${replyHours} horas por correo a esta dirección.`,
            'Esta es una copia de lo que nos enviaste:',
          ],
          quote: `Asunto: ${subject}\n\n${body}`,
          after: 'Si quieres añadir algo, responde a este correo.',
        }
      : {
          subject: `We received your message: ${subject}`,
          before: [
            `Thank you for writing to us. Your message is with the ${PRODUCT} support team, who will answer within ${replyHours} hours by e-mail to this address.`,
            'Here is a copy of what you sent:',
          ],
          quote: `Subject: ${subject}\n\n${body}`,
          after: 'To add anything, reply to this e-mail.',
        }
  return render({
    language,
    subject: lines.subject,
    name,
    blocks: [
      ...lines.before.map(paragraph),
      { kind: 'quote', text: lines.quote },
      paragraph(lines.after),
    ],
  })
}

function render(letter: Letter): RenderedEmail {
  const { greeting, signOff } = COMMON[letter.language]
  const opening = greeting(letter.name)
  const text = [
    opening,
    ...letter.blocks.map((block) =>
      block.kind === 'code' ? block.code : block.kind === 'quote' ? quoted(block.text) : block.text,
    ),
    signOff.join('\n'),
  ].join('\n\n')
  return { subject: letter.subject, text: `${text}\n`, html: renderHtml(letter, opening, signOff) }
}

// Mail clients drop <style> blocks and many strip <html>, so every style is inline and the
// language is repeated on the wrapper. No tables: the layout is a single readable column.
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
const P_STYLE = 'margin: 0 0 16px 0;'
const CODE_STYLE = [
  'margin: 8px 0 24px 0',
  'padding: 16px 24px',
  'display: inline-block',
  "font-family: Menlo, Consolas, 'Courier New', monospace",
  'font-size: 32px',
  'font-weight: bold',
  'letter-spacing: 6px',
  'color: #2b2540',
  'background-color: #f1edfb',
  'border: 1px solid #d9d0f2',
  'border-radius: 8px',
].join('; ')

// pre-wrap keeps the writer's line breaks without <br>s built from their text.
const QUOTE_STYLE = [
  'margin: 0 0 16px 0',
  'padding: 12px 16px',
  'white-space: pre-wrap',
  'overflow-wrap: anywhere',
  'background-color: #f6f4fb',
  'border-left: 4px solid #d9d0f2',
].join('; ')

/**
 * Plain-text quoting by indentation rather than "> ": the words stay exactly those of the HTML
 * version, and a reply quoting the message does not stack markers on markers.
 */
function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `    ${line}` : ''))
    .join('\n')
}

function renderHtml(letter: Letter, opening: string, signOff: readonly string[]): string {
  const lang = escapeHtml(letter.language)
  const blocks = letter.blocks.map((block) =>
    block.kind === 'code'
      ? `<p style="margin: 0;"><span style="${CODE_STYLE}">${escapeHtml(block.code)}</span></p>`
      : block.kind === 'quote'
        ? `<div style="${QUOTE_STYLE}">${escapeHtml(block.text)}</div>`
        : `<p style="${P_STYLE}">${escapeHtml(block.text)}</p>`,
  )
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(letter.subject)}</title>`,
    '</head>',
    '<body style="margin: 0; padding: 0; background-color: #f6f4fb;">',
    `<div lang="${lang}" style="max-width: 560px; margin: 0 auto; padding: 32px 24px; background-color: #ffffff; font-family: ${FONT}; font-size: 16px; line-height: 1.5; color: #2b2540;">`,
    `<p style="margin: 0 0 24px 0; font-size: 20px; font-weight: bold; color: #4b3a8c;">${PRODUCT}</p>`,
    `<p style="${P_STYLE}">${escapeHtml(opening)}</p>`,
    ...blocks,
    `<p style="margin: 24px 0 0 0;">${signOff.map(escapeHtml).join('<br>')}</p>`,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n')
}
