import type { Language } from './i18n'

/**
 * Texts both sides show for the same rule: shared schemas carry these keys as their error
 * message, the server answers with the text in the user's language, and forms show the same
 * text before anything is sent. Quoted spec texts are kept word for word.
 */
export const MESSAGES = {
  'validation.fullName': {
    en: 'Please, enter your full name',
    es: 'Por favor, introduce tu nombre completo',
  },
  'validation.email': {
    en: 'Please, enter a valid email',
    es: 'Por favor, introduce un correo electrónico válido',
  },
  'validation.emailRequired': {
    en: 'Please enter your email address',
    es: 'Por favor, introduce tu dirección de correo electrónico',
  },
  'validation.passwordsDoNotMatch': {
    en: 'Passwords do not match',
    es: 'Las contraseñas no coinciden',
  },
  'validation.verificationPasswordMismatch': {
    en: 'The verification password does not match.',
    es: 'La contraseña de verificación no coincide.',
  },
  'validation.passwordPolicy': {
    en: 'Please use minimal 8 characters (lower and upper letters, numbers and symbols)',
    es: 'Usa como mínimo 8 caracteres (letras minúsculas y mayúsculas, números y símbolos)',
  },
  'validation.passwordRequired': {
    en: 'Please enter your password',
    es: 'Por favor, introduce tu contraseña',
  },
  'validation.incorrectEntry': { en: 'Incorrect entry.', es: 'Entrada incorrecta.' },
  // {limit} is filled in from the key a schema carries: `validation.tooLong:120` (`tooLong`).
  'validation.tooLong': {
    en: 'This is too long: at most {limit} characters.',
    es: 'Es demasiado largo: como máximo {limit} caracteres.',
  },
  'validation.required': {
    en: 'This field is required.',
    es: 'Este campo es obligatorio.',
  },
  'validation.invalid': {
    en: 'This value is not valid.',
    es: 'Este valor no es válido.',
  },
  'validation.controlCharacters': {
    en: 'Please remove the invisible control characters from this field.',
    es: 'Quita los caracteres de control invisibles de este campo.',
  },
  'validation.id': {
    en: 'This identifier is not valid.',
    es: 'Este identificador no es válido.',
  },
  'validation.code': {
    en: 'Enter the 6-digit code from the e-mail',
    es: 'Introduce el código de 6 dígitos del correo',
  },
  'validation.humanCheck': {
    en: 'Please complete the human check before signing in.',
    es: 'Completa la verificación humana antes de iniciar sesión.',
  },
  'auth.incorrectCredentials': {
    en: 'Incorrect username or password.',
    es: 'Usuario o contraseña incorrectos.',
  },
  'auth.emailNotVerifiedCodeSent': {
    en: 'Please confirm your e-mail address first. We have sent you a new code.',
    es: 'Primero confirma tu correo electrónico. Te hemos enviado un código nuevo.',
  },
  'auth.emailNotVerified': {
    en: 'Please confirm your e-mail address first, with the code we have already sent you. If it has not arrived, you can ask for a new one in a few minutes.',
    es: 'Primero confirma tu correo electrónico con el código que ya te enviamos. Si no te ha llegado, puedes pedir uno nuevo dentro de unos minutos.',
  },
  'auth.codeInvalid': {
    en: 'This code is not correct. Check the e-mail and try again.',
    es: 'Este código no es correcto. Revisa el correo y vuelve a intentarlo.',
  },
  'auth.codeExpired': {
    en: 'This code is no longer valid. Please ask for a new one.',
    es: 'Este código ya no es válido. Pide uno nuevo.',
  },
  'auth.codeTooManyAttempts': {
    en: 'Too many wrong tries for this code. Please ask for a new one.',
    es: 'Demasiados intentos fallidos con este código. Pide uno nuevo.',
  },
  'auth.currentPasswordIncorrect': {
    en: 'The current password is not correct.',
    es: 'La contraseña actual no es correcta.',
  },
  'auth.emailUnavailable': {
    en: 'This e-mail address cannot be used. Please choose another one.',
    es: 'No se puede usar esta dirección de correo. Elige otra.',
  },
  'auth.sameEmail': {
    en: 'This is already the e-mail address of your account.',
    es: 'Esta ya es la dirección de correo de tu cuenta.',
  },
  'auth.sessionNotFresh': {
    en: 'For your safety, please sign in again before changing your e-mail address.',
    es: 'Por tu seguridad, vuelve a iniciar sesión antes de cambiar tu dirección de correo.',
  },
  'auth.signInRequired': {
    en: 'Please sign in to continue.',
    es: 'Inicia sesión para continuar.',
  },
  'image.unsupportedType': {
    en: 'Please choose an image file (JPEG, PNG, WebP, GIF or AVIF).',
    es: 'Elige un archivo de imagen (JPEG, PNG, WebP, GIF o AVIF).',
  },
  'image.tooLarge': {
    en: 'This picture is too large. Please choose one smaller than 5 MB.',
    es: 'Esta foto es demasiado grande. Elige una de menos de 5 MB.',
  },
  'image.tooManyPixels': {
    en: 'This picture is too big to process. Please choose one of at most 40 megapixels and 10,000 pixels per side.',
    es: 'Esta foto es demasiado grande para procesarla. Elige una de 40 megapíxeles como máximo y 10.000 píxeles por lado.',
  },
  'image.unreadable': {
    en: 'This picture could not be read. It may be damaged; please choose another one.',
    es: 'No se pudo leer esta foto. Puede estar dañada; elige otra.',
  },
  'access.noPayment': {
    en: 'Sorry, no payment found yet.',
    es: 'Lo sentimos, todavía no encontramos ningún pago.',
  },
  'access.codeUnknown': {
    en: 'This access code does not exist. Please check it and try again.',
    es: 'Este código de acceso no existe. Revísalo y vuelve a intentarlo.',
  },
  'access.codeUsed': {
    en: 'This access code has already been used.',
    es: 'Este código de acceso ya se ha usado.',
  },
  'access.codeRevoked': {
    en: 'This access code is no longer valid.',
    es: 'Este código de acceso ya no es válido.',
  },
  'access.codeRequired': {
    en: 'Please enter your access code',
    es: 'Por favor, introduce tu código de acceso',
  },
  'billing.cardNumberInvalid': {
    en: 'Your card number is invalid.',
    es: 'El número de tu tarjeta no es válido.',
  },
  'billing.cardExpiryInvalid': {
    en: "Your card's expiration date is invalid.",
    es: 'La fecha de caducidad de tu tarjeta no es válida.',
  },
  'billing.cardExpired': {
    en: "Your card's expiration date is in the past.",
    es: 'La fecha de caducidad de tu tarjeta ya ha pasado.',
  },
  'billing.cvcInvalid': {
    en: "Your card's security code is incomplete.",
    es: 'El código de seguridad de tu tarjeta está incompleto.',
  },
  'billing.choosePrice': {
    en: '*Select a Price Plan first',
    es: '*Selecciona primero un plan de precios',
  },
  'billing.addressRequired': {
    en: 'Please enter your address',
    es: 'Por favor, introduce tu dirección',
  },
  'billing.postalCodeRequired': {
    en: 'Please enter your postal code',
    es: 'Por favor, introduce tu código postal',
  },
  'billing.countryRequired': {
    en: 'Please choose your country',
    es: 'Por favor, elige tu país',
  },
  'panels.notFound': {
    en: 'This panel does not exist.',
    es: 'Este panel no existe.',
  },
  'harmonize.sessionNotFound': {
    en: 'This harmonizing session does not exist.',
    es: 'Esta sesión de armonización no existe.',
  },
  'media.unsupportedType': {
    en: 'This file type is not supported. Use an MP4 or WebM video, or an MP3, M4A, Ogg or WAV audio file.',
    es: 'Este tipo de archivo no es compatible. Usa un vídeo MP4 o WebM, o un audio MP3, M4A, Ogg o WAV.',
  },
  'media.tooLarge': {
    en: 'This file is too large: a media file can be up to 2 GB.',
    es: 'Este archivo es demasiado grande: un archivo multimedia puede ocupar hasta 2 GB.',
  },
  'media.backingMustBeAudio': {
    en: 'A backing track must be an audio file.',
    es: 'La pista de fondo debe ser un archivo de audio.',
  },
  'media.badName': {
    en: 'This file name cannot be used. Use letters, digits, dots, dashes or underscores.',
    es: 'Este nombre de archivo no se puede usar. Usa letras, números, puntos, guiones o guiones bajos.',
  },
  'media.notFound': {
    en: 'This media file does not exist.',
    es: 'Este archivo multimedia no existe.',
  },
  'media.linkInvalid': {
    en: 'This media link is not valid or has expired.',
    es: 'Este enlace multimedia no es válido o ha caducado.',
  },
  'media.rangeNotSatisfiable': {
    en: 'The requested range is not available in this file.',
    es: 'El rango solicitado no está disponible en este archivo.',
  },
  'support.subjectRequired': {
    en: 'Please write a subject',
    es: 'Por favor, escribe un asunto',
  },
  'support.bodyRequired': {
    en: 'Please write your message',
    es: 'Por favor, escribe tu mensaje',
  },
  'support.subjectTooLong': {
    en: 'The subject can be up to 150 characters long.',
    es: 'El asunto puede tener como máximo 150 caracteres.',
  },
  'support.bodyTooLong': {
    en: 'The message can be up to 5000 characters long.',
    es: 'El mensaje puede tener como máximo 5000 caracteres.',
  },
  'clients.firstNameRequired': { en: 'First Name is required', es: 'El nombre es obligatorio' },
  'clients.lastNameRequired': { en: 'Last Name is required', es: 'El apellido es obligatorio' },
  'clients.emailRequired': {
    en: 'Email is required',
    es: 'El correo electrónico es obligatorio',
  },
  'clients.phoneRequired': {
    en: 'Phone Number is required',
    es: 'El número de teléfono es obligatorio',
  },
  'clients.phoneInvalid': {
    en: 'Please enter a valid phone number, with its country code (for example +1 or +34).',
    es: 'Introduce un número de teléfono válido, con su prefijo de país (por ejemplo +34 o +1).',
  },
  'clients.birthDate': {
    en: 'Please enter a real birth date, not in the future.',
    es: 'Introduce una fecha de nacimiento real, que no sea futura.',
  },
  'clients.affirmationRequired': {
    en: 'Affirmation is required',
    es: 'La afirmación es obligatoria',
  },
  'clients.photoRequired': {
    en: 'Please select Aura Image',
    es: 'Selecciona la imagen para el aura',
  },
  'clients.consentRequired': {
    en: 'Please confirm that your client agreed to their photo and details being kept.',
    es: 'Confirma que tu cliente aceptó que se guarden su foto y sus datos.',
  },
  'clients.notFound': {
    en: 'This client record was not found.',
    es: 'No se encontró esta ficha de cliente.',
  },
  'clients.photoNotFound': {
    en: 'This photo was not found. Please choose or capture it again.',
    es: 'No se encontró esta foto. Elígela o hazla de nuevo.',
  },
} as const satisfies Record<string, Record<Language, string>>

export type MessageKey = keyof typeof MESSAGES

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(MESSAGES, value)
}

/** The text of a shared message in a language. */
export function messageText(key: MessageKey, language: Language): string {
  return MESSAGES[key][language]
}

/** A schema's error for a text longer than `limit` characters; its message names the limit. */
export const tooLong = (limit: number) => ({ error: `validation.tooLong:${limit}` })

/**
 * The text of a message a schema carries, in `language`: one of our keys, or a key and the number
 * its text names (`validation.tooLong:120`). Undefined for anything else (a text already written
 * in the user's language by the server).
 */
export function resolveMessage(message: string, language: Language): string | undefined {
  const [key = '', limit] = message.split(':')
  if (!isMessageKey(key)) return undefined
  const text = messageText(key, language)
  if (limit === undefined) return text
  return text.replace('{limit}', new Intl.NumberFormat(language).format(Number(limit)))
}

/**
 * The message of a check that has none of ours, for zod's `error` option: zod's own words
 * ("Invalid input") are English and meant for developers, so they must never reach a person.
 */
export function genericIssueMessage(issue: {
  code: string
  origin?: string
  maximum?: unknown
  input?: unknown
}): string {
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return tooLong(Number(issue.maximum)).error
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'validation.required'
  return 'validation.invalid'
}

/** zod's parse option that gives every check without a message of ours one of ours. */
export const ourZodMessages = { error: genericIssueMessage }
