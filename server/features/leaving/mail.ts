import { formatDay } from '../../../domain/format'
import type { Language } from '../../../domain/i18n'
import { PRODUCT, paragraph, type RenderedEmail, renderLetter } from '../../mail/layout'

// The two messages of leaving: the member's data is ready to download, and their account was
// deleted. Each in the member's language, as they were when they asked.

/** The download of the member's data is ready on My Account, until `expiresAt`. */
export function exportReadyEmail(input: {
  language: Language
  name?: string | null
  link: string
  expiresAt: Date
}): RenderedEmail {
  const { language, name, link } = input
  const until = formatDay(input.expiresAt, language)
  const lines =
    language === 'es'
      ? {
          subject: `Tus datos de ${PRODUCT} están listos para descargar`,
          intro: `Hemos preparado el archivo con tus datos que pediste: tu cuenta, tus sesiones, tus clientes con sus escaneos y fotos, y tus facturas en PDF.`,
          link: 'Descargar mis datos en Mi cuenta',
          after: `Puedes descargarlo desde Mi cuenta hasta el ${until}; después lo borramos. Solo tú puedes descargarlo, con tu sesión iniciada.`,
          notYou: 'Si no pediste tus datos, cambia tu contraseña y escríbenos.',
        }
      : {
          subject: `Your ${PRODUCT} data is ready to download`,
          intro: `The file with your data that you asked for is ready: your account, your sessions, your clients with their scans and photos, and your invoices as PDFs.`,
          link: 'Download my data on My Account',
          after: `You can download it from My Account until ${until}; after that we delete it. Only you can download it, signed in to your account.`,
          notYou: 'If you did not ask for your data, change your password and write to us.',
        }
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: [
      paragraph(lines.intro),
      { kind: 'link', text: lines.link, href: link },
      paragraph(lines.after),
      paragraph(lines.notYou),
    ],
  })
}

/**
 * The account is gone: what was deleted, that no plan will charge again, that invoices are
 * kept as the law requires (and how long), and that the address may sign up again.
 */
export function accountDeletedEmail(input: {
  language: Language
  name?: string | null
  keptInvoices: number
  keptYears: number
  /** SUPPORT_EMAIL: a deleted member can no longer reach the in-app support page. */
  supportEmail: string
}): RenderedEmail {
  const { language, name, keptInvoices, keptYears, supportEmail } = input
  const lines =
    language === 'es'
      ? {
          subject: `Tu cuenta de ${PRODUCT} se ha eliminado`,
          paragraphs: [
            `Hemos eliminado tu cuenta de ${PRODUCT}, como pediste: tus datos, tus sesiones, tus clientes con sus escaneos y fotos, tu foto de perfil y tus tarjetas guardadas. Se han cerrado todas tus sesiones.`,
            `Tu plan se ha cancelado y no se te cobrará nada más. Lo que ya pagaste no se reembolsa automáticamente; si crees que corresponde un reembolso, escríbenos a ${supportEmail}.`,
            keptInvoices > 0
              ? `La ley nos obliga a conservar tus facturas (${keptInvoices}) durante ${keptYears} años desde el final del año en que se emitieron. Las guardamos sin relación con ninguna cuenta y después las borramos.`
              : 'No tenías facturas, así que no conservamos nada tuyo.',
            `Si quieres volver, puedes crear una cuenta nueva con esta misma dirección de correo cuando quieras.`,
          ],
        }
      : {
          subject: `Your ${PRODUCT} account has been deleted`,
          paragraphs: [
            `We have deleted your ${PRODUCT} account, as you asked: your details, your sessions, your clients with their scans and photos, your profile picture and your saved cards. Every device you were signed in on has been signed out.`,
            `Your plan has been cancelled and nothing more will be charged. What you already paid is not refunded automatically; if you think a refund is due, write to us at ${supportEmail}.`,
            keptInvoices > 0
              ? `The law requires us to keep your invoices (${keptInvoices}) for ${keptYears} years from the end of the year they were issued in. We keep them without any link to an account, and delete them after that.`
              : 'You had no invoices, so we keep nothing of yours.',
            'If you want to come back, you can create a new account with this same e-mail address at any time.',
          ],
        }
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: lines.paragraphs.map(paragraph),
  })
}
