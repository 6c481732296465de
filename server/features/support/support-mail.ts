import type { Language } from '../../../domain/i18n'
import { escapeHtml } from '../../html'
import {
  MAIL_FONT,
  PARAGRAPH_STYLE,
  PRODUCT,
  paragraph,
  type RenderedEmail,
  renderLetter,
} from '../../mail/layout'

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
    `<body style="font-family: ${MAIL_FONT}; font-size: 15px; line-height: 1.5; color: #2b2540;">`,
    `<p style="${PARAGRAPH_STYLE}">${facts.map(escapeHtml).join('<br>')}</p>`,
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
  return renderLetter({
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
