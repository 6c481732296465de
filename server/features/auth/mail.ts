import { CODE_VALID_MINUTES } from '../../../domain/auth'
import type { Language } from '../../../domain/i18n'
import { PRODUCT, paragraph, type RenderedEmail, renderLetter } from '../../mail/layout'
import type { CodePurpose } from '../../plugins/auth'

// The messages of signing up and of the password. The auth plugin sends them from better-auth's
// callbacks; a plugin never imports a feature, so server/app.ts hands them to it.

// The sign-in page's link, named as the person sees it there.
const FORGOT_PASSWORD = {
  en: 'Forgot your password?',
  es: '¿Olvidaste tu contraseña?',
} as const satisfies Record<Language, string>

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
  return renderLetter({
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
  const forgot = FORGOT_PASSWORD[language]
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
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: lines.paragraphs.map(paragraph),
  })
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
  const forgot = FORGOT_PASSWORD[language]
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
  return renderLetter({
    language,
    subject: lines.subject,
    name,
    blocks: lines.paragraphs.map(paragraph),
  })
}
