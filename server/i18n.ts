import type { FastifyRequest } from 'fastify'
import { CONSOLE_MESSAGES } from '../domain/console-messages'
import { type Language, pickLanguage } from '../domain/i18n'
import { MESSAGES as SHARED_MESSAGES } from '../domain/messages'

/** Texts only the server writes into responses. Both languages are required by the type. */
const SERVER_MESSAGES = {
  // Leaving with one's data (server/features/leaving).
  'leaving.wrongWord': {
    en: 'To delete your account, type DELETE in the box.',
    es: 'Para eliminar tu cuenta, escribe ELIMINAR en la casilla.',
  },
  'leaving.paymentInProgress': {
    en: 'A payment of yours is still with the bank. Please try again in a few minutes, once it is answered.',
    es: 'Uno de tus pagos todavía está con el banco. Vuelve a intentarlo en unos minutos, cuando haya respondido.',
  },
  'leaving.deletionUnderWay': {
    en: 'Your account is already being deleted. You will receive a confirmation e-mail when it is done.',
    es: 'Tu cuenta ya se está eliminando. Recibirás un correo de confirmación cuando termine.',
  },
  'leaving.exportNotFound': {
    en: 'This download is not available. It may have expired; please prepare a new one on My Account.',
    es: 'Esta descarga no está disponible. Puede que haya caducado; prepara una nueva en Mi cuenta.',
  },
  // The console's uploads in parts (server/features/admin/media-uploads.ts).
  'media.uploadNotFound': {
    en: 'This upload is no longer open. Please start it again.',
    es: 'Esta subida ya no está abierta. Vuelve a empezarla, por favor.',
  },
  'media.partInvalid': {
    en: 'A part of this upload did not arrive whole. Please start it again.',
    es: 'Una parte de esta subida no llegó entera. Vuelve a empezarla, por favor.',
  },
  'media.partsMissing': {
    en: 'Some parts of this upload did not arrive. Please start it again.',
    es: 'Algunas partes de esta subida no llegaron. Vuelve a empezarla, por favor.',
  },
  'billing.notOnePayment': {
    en: 'This price is not a one-time payment.',
    es: 'Este precio no es un pago único.',
  },
  'billing.alreadyPaid': {
    en: 'This plan is already paid, or its payment is still in progress.',
    es: 'Este plan ya está pagado, o su pago todavía está en curso.',
  },
  'billing.nicknameFormat': {
    en: 'A price nickname starts with a letter or digit and uses only letters, digits, spaces, dashes and underscores.',
    es: 'El nombre de un precio empieza por una letra o un número y solo usa letras, números, espacios, guiones y guiones bajos.',
  },
  'billing.priceNotFound': {
    en: 'This price does not exist.',
    es: 'Este precio no existe.',
  },
  'billing.cardDeclined': {
    en: 'Your card was declined.',
    es: 'Tu tarjeta ha sido rechazada.',
  },
  'billing.insufficientFunds': {
    en: 'Your card has insufficient funds.',
    es: 'Tu tarjeta no tiene fondos suficientes.',
  },
  'billing.expiredCard': {
    en: 'Your card has expired.',
    es: 'Tu tarjeta ha caducado.',
  },
  'billing.incorrectCvc': {
    en: "Your card's security code is incorrect.",
    es: 'El código de seguridad de tu tarjeta es incorrecto.',
  },
  'billing.testCardsOnly': {
    en: 'Your card was declined. The sandbox takes test card numbers only, such as 4242 4242 4242 4242.',
    es: 'Tu tarjeta ha sido rechazada. El entorno de pruebas solo acepta números de tarjeta de prueba, como 4242 4242 4242 4242.',
  },
  'billing.authenticationRequired': {
    en: 'Your bank asks you to confirm this payment (3-D Secure). Pay it here to confirm it with your bank, or use another card.',
    es: 'Tu banco pide que confirmes este pago (3-D Secure). Págalo aquí para confirmarlo con tu banco, o usa otra tarjeta.',
  },
  'billing.authenticationFailed': {
    en: 'Your bank could not confirm this card, so it was not saved. Try again or use another card.',
    es: 'Tu banco no pudo confirmar esta tarjeta, así que no se ha guardado. Inténtalo de nuevo o usa otra tarjeta.',
  },
  'billing.paymentAuthenticationFailed': {
    en: 'Your bank could not confirm this payment, so nothing was charged. Try again or use another card.',
    es: 'Tu banco no pudo confirmar este pago, así que no se ha cobrado nada. Inténtalo de nuevo o usa otra tarjeta.',
  },
  'billing.paymentNotFound': {
    en: 'This payment does not exist.',
    es: 'Este pago no existe.',
  },
  'billing.planChargeAwaitingCheck': {
    en: 'A payment of your plan is waiting for you to confirm it with your bank. Confirm it on My Account first.',
    es: 'Un pago de tu plan espera a que lo confirmes con tu banco. Confírmalo antes en Mi cuenta.',
  },
  'billing.checkOver': {
    en: 'This check is over: the payment was answered in another window or replaced by another purchase. Look at your payments below.',
    es: 'Esta comprobación ya terminó: el pago se respondió en otra ventana o lo sustituyó otra compra. Mira tus pagos más abajo.',
  },
  'billing.cardNotFound': {
    en: 'This card is not saved on your account.',
    es: 'Esta tarjeta no está guardada en tu cuenta.',
  },
  'billing.noDefaultCard': {
    en: 'Add a card first: plans are charged to your default card.',
    es: 'Añade primero una tarjeta: los planes se cobran a tu tarjeta predeterminada.',
  },
  'billing.planRunning': {
    en: 'You already have a plan in progress.',
    es: 'Ya tienes un plan en curso.',
  },
  'billing.notAPlan': {
    en: 'This price is not a monthly plan.',
    es: 'Este precio no es un plan mensual.',
  },
  'billing.actionUnavailable': {
    en: 'This action is not available for your plan right now. Reload the page to see its current state.',
    es: 'Esta acción no está disponible para tu plan ahora mismo. Recarga la página para ver su estado actual.',
  },
  'billing.noRunningPlan': {
    en: 'This member has no running plan to cancel.',
    es: 'Este miembro no tiene ningún plan en curso que cancelar.',
  },
  'billing.resendNotPaid': {
    en: 'Only a paid invoice is mailed.',
    es: 'Solo se envía por correo una factura pagada.',
  },
  'billing.refundNotPaid': {
    en: 'Only a paid invoice can be refunded.',
    es: 'Solo se puede reembolsar una factura pagada.',
  },
  'billing.refundNothingLeft': {
    en: 'This invoice has been refunded in full already.',
    es: 'Esta factura ya se ha reembolsado por completo.',
  },
  'billing.refundDisputed': {
    en: 'This payment is disputed with the bank: it cannot be refunded while the dispute lasts.',
    es: 'Este pago está en disputa con el banco: no se puede reembolsar mientras dure la disputa.',
  },
  'billing.refundTooLarge': {
    en: 'The refund is more than is left to give back on this invoice. Reload the page to see what is left.',
    es: 'El reembolso supera lo que queda por devolver de esta factura. Recarga la página para ver lo que queda.',
  },
  'billing.alreadyEnding': {
    en: 'This plan already ends at the end of its period.',
    es: 'Este plan ya termina al final de su periodo.',
  },
  'billing.invoiceNotFound': {
    en: 'This invoice does not exist.',
    es: 'Esta factura no existe.',
  },
  'billing.onlyCardOfPlan': {
    en: 'This is the only card of your running plan. Add another card before removing it.',
    es: 'Es la única tarjeta de tu plan en curso. Añade otra tarjeta antes de eliminarla.',
  },
  'operators.accountNotFound': {
    en: 'No account has this e-mail.',
    es: 'Ninguna cuenta tiene este correo.',
  },
  'operators.accountNotConfirmed': {
    en: 'This account has not confirmed its e-mail yet: an operator must have a confirmed account.',
    es: 'Esta cuenta aún no ha confirmado su correo: quien opera el servicio debe tener una cuenta confirmada.',
  },
  'operators.notOperator': {
    en: 'This is for the people who run Harmonize.',
    es: 'Esto es para quienes gestionan Harmonize.',
  },
  'operators.factorRequired': {
    en: 'Enter a code from your authenticator first.',
    es: 'Introduce primero un código de tu autenticador.',
  },
  'operators.badCursor': {
    en: 'This page of the list no longer exists. Start again from the first page.',
    es: 'Esta página de la lista ya no existe. Empieza de nuevo por la primera página.',
  },
  'operators.factorEnrolled': {
    en: 'Your authenticator is already set up. Enter a code from it.',
    es: 'Tu autenticador ya está configurado. Introduce un código suyo.',
  },
  'operators.noSetUp': {
    en: 'Start the set-up again: no new authenticator is waiting for a code.',
    es: 'Empieza de nuevo la configuración: ningún autenticador nuevo espera un código.',
  },
  'operators.factorUnreadable': {
    en: 'Your authenticator was set up before this server changed its secret key, and can no longer be read. Ask whoever runs the server to reset it: npm run cli -- operators remove, then add.',
    es: 'Tu autenticador se configuró antes de que este servidor cambiara su clave secreta, y ya no se puede leer. Pide a quien gestiona el servidor que lo reinicie: npm run cli -- operators remove y luego add.',
  },
  'operators.noFactor': {
    en: 'Set up your authenticator first.',
    es: 'Configura primero tu autenticador.',
  },
  'auth.accountBlocked': {
    en: 'This account has been blocked. If you think this is a mistake, write to our support team.',
    es: 'Esta cuenta ha sido bloqueada. Si crees que es un error, escribe a nuestro equipo de soporte.',
  },
  'members.notBlocked': {
    en: 'This account is not blocked.',
    es: 'Esta cuenta no está bloqueada.',
  },
  'members.alreadyBlocked': {
    en: 'This account is already blocked.',
    es: 'Esta cuenta ya está bloqueada.',
  },
  'jobs.notFound': {
    en: 'This job is no longer waiting to be retried: it ran again already, or it gave up more than a week ago.',
    es: 'Esta tarea ya no espera a reintentarse: ya se volvió a ejecutar, o falló hace más de una semana.',
  },
  'members.notFound': {
    en: 'No member has this id.',
    es: 'Ningún miembro tiene este identificador.',
  },
  'members.complimentaryActive': {
    en: 'This member already has complimentary access. End it first to give it again.',
    es: 'Este miembro ya tiene acceso de cortesía. Finalízalo primero para concederlo de nuevo.',
  },
  'members.complimentaryNone': {
    en: 'This member has no complimentary access to end.',
    es: 'Este miembro no tiene acceso de cortesía que finalizar.',
  },
  'members.endsOnPast': {
    en: 'The last day must be today or a day to come.',
    es: 'El último día debe ser hoy o un día que aún no ha llegado.',
  },
  'members.notYourself': {
    en: 'Your own account is not yours to change here: ask another operator.',
    es: 'Tu propia cuenta no la puedes cambiar aquí: pídeselo a otra persona que opere el servicio.',
  },
  'operators.wrongCode': {
    en: 'This code is not right, or it was already used. Enter the newest code from your authenticator, or an unused recovery code.',
    es: 'Este código no es correcto, o ya se usó. Introduce el código más reciente de tu autenticador, o un código de recuperación sin usar.',
  },
  'billing.customerNotFound': {
    en: 'Nobody with this e-mail has billing yet.',
    es: 'Nadie con este correo tiene facturación todavía.',
  },
  'billing.notAnUpgrade': {
    en: 'An upgrade moves to FOUR PAYMENTS or ONE PAYMENT.',
    es: 'Una mejora pasa a CUATRO PAGOS o a PAGO ÚNICO.',
  },
  'billing.invoiceBeingPaid': {
    en: 'This invoice is being paid. Wait for the bank’s answer before trying again.',
    es: 'Esta factura se está pagando. Espera la respuesta del banco antes de volver a intentarlo.',
  },
  'billing.useUpgrade': {
    en: 'You have a monthly plan in progress. Use Upgrade plan to move to ONE PAYMENT.',
    es: 'Tienes un plan mensual en curso. Usa Mejorar el plan para pasar a PAGO ÚNICO.',
  },
  'billing.memberBusy': {
    en: 'Another payment action is in progress. Please wait a moment and try again.',
    es: 'Hay otra acción de pago en curso. Espera un momento y vuelve a intentarlo.',
  },
  'billing.stateUnknown': {
    en: 'Please choose a state or province of the chosen country.',
    es: 'Por favor, elige un estado o provincia del país elegido.',
  },
  'billing.webhookSignature': {
    en: 'This event is not signed by the payment provider, or its signature is too old.',
    es: 'Este evento no está firmado por el proveedor de pagos, o su firma es demasiado antigua.',
  },
  'billing.webhookEvent': {
    en: 'This signed body is not an event of the payment provider.',
    es: 'Este cuerpo firmado no es un evento del proveedor de pagos.',
  },
  'billing.sandboxOnly': {
    en: 'This card form belongs to the sandbox, which is not in use here.',
    es: 'Este formulario de tarjeta pertenece al entorno de pruebas, que aquí no se usa.',
  },
  'errors.internal': {
    en: 'Sorry, something went wrong on our side. Please try again.',
    es: 'Lo sentimos, algo salió mal por nuestra parte. Inténtalo de nuevo.',
  },
  'errors.notFound': {
    en: 'There is nothing at this address.',
    es: 'No hay nada en esta dirección.',
  },
  'errors.validation': {
    en: 'Some of the information sent is not valid.',
    es: 'Parte de la información enviada no es válida.',
  },
  'errors.badRequest': {
    en: 'The request could not be understood.',
    es: 'No se pudo entender la solicitud.',
  },
  'errors.tooLarge': {
    en: 'What was sent is too large.',
    es: 'Lo que se envió es demasiado grande.',
  },
  'errors.unsupportedMediaType': {
    en: 'This type of content is not accepted here.',
    es: 'Este tipo de contenido no se acepta aquí.',
  },
  // {wait} is how long until the limit lets the next one through (`waitText`): limits' texts
  // are the server's alone, since only it knows the wait.
  'auth.tooManySignIns': {
    en: 'Too many failed sign-in attempts. Try again in {wait}, or reset your password to sign in now.',
    es: 'Demasiados intentos fallidos de inicio de sesión. Vuelve a intentarlo dentro de {wait}, o restablece tu contraseña para entrar ahora.',
  },
  'support.tooManyMails': {
    en: 'You have sent 5 messages in the last hour, the most we accept. You can send another in {wait}; we answer every message within 24 hours.',
    es: 'Has enviado 5 mensajes en la última hora, el máximo que aceptamos. Podrás enviar otro dentro de {wait}; respondemos a todos los mensajes en menos de 24 horas.',
  },
  'errors.tooManyRequests': {
    en: 'Too many attempts. Try again in {wait}.',
    es: 'Demasiados intentos. Vuelve a intentarlo dentro de {wait}.',
  },
  'errors.crossSite': {
    en: 'This request came from another website and was refused.',
    es: 'Esta solicitud venía de otro sitio web y se ha rechazado.',
  },
  'errors.urlTooLong': {
    en: 'This address is too long.',
    es: 'Esta dirección es demasiado larga.',
  },
  'errors.storeUnavailable': {
    en: 'Harmonize cannot do this right now. Please try again in a few seconds.',
    es: 'Harmonize no puede hacer esto ahora mismo. Vuelve a intentarlo en unos segundos.',
  },
  'errors.busy': {
    en: 'We are very busy right now. Please try again in a few seconds.',
    es: 'Ahora mismo estamos muy ocupados. Vuelve a intentarlo en unos segundos.',
  },
  'errors.headersTooLarge': {
    en: 'The request’s headers are too large.',
    es: 'Las cabeceras de la solicitud son demasiado grandes.',
  },
  'errors.requestTimeout': {
    en: 'The request took too long to arrive. Please try again.',
    es: 'La solicitud tardó demasiado en llegar. Vuelve a intentarlo.',
  },
  'validation.wrongType': {
    en: 'This value has the wrong type.',
    es: 'Este valor no tiene el tipo correcto.',
  },
  'validation.tooShort': {
    en: 'This is too short (at least {limit}).',
    es: 'Es demasiado corto (como mínimo {limit}).',
  },
  'validation.tooLarge': {
    en: 'This number is too large (at most {limit}).',
    es: 'Este número es demasiado grande (como máximo {limit}).',
  },
  'validation.tooSmall': {
    en: 'This number is too small (at least {limit}).',
    es: 'Este número es demasiado pequeño (como mínimo {limit}).',
  },
  'validation.notAllowed': {
    en: 'This value is not one of those allowed.',
    es: 'Este valor no es uno de los permitidos.',
  },
  'errors.methodNotAllowed': {
    en: 'This action is not allowed here.',
    es: 'Esta acción no está permitida aquí.',
  },
} as const satisfies Record<string, Record<Language, string>>

const MESSAGES = { ...SERVER_MESSAGES, ...SHARED_MESSAGES, ...CONSOLE_MESSAGES }

export type MessageKey = keyof typeof MESSAGES

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(MESSAGES, value)
}

export function translate(key: MessageKey, language: Language): string {
  return MESSAGES[key][language]
}

/** The language to answer in: the client's Accept-Language, English when it asks for neither. */
export function requestLanguage(request: FastifyRequest): Language {
  return pickLanguage(request.headers['accept-language'])
}

/**
 * How long to wait, as a person says it in `language`, rounded up to whole units: "45 seconds",
 * "58 minutes", "1 hour and 5 minutes", "1 minuto". Intl writes the units and their plurals.
 */
export function waitText(seconds: number, language: Language): string {
  const unit = (value: number, name: 'second' | 'minute' | 'hour') =>
    new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'long' }).format(
      value,
    )
  const whole = Math.max(1, Math.ceil(seconds))
  if (whole < 60) return unit(whole, 'second')
  const minutes = Math.ceil(whole / 60)
  if (minutes < 60) return unit(minutes, 'minute')
  const parts = [unit(Math.floor(minutes / 60), 'hour')]
  if (minutes % 60) parts.push(unit(minutes % 60, 'minute'))
  return new Intl.ListFormat(language, { type: 'conjunction', style: 'long' }).format(parts)
}

/**
 * A message in `language`, with `{wait}` told from `retryAfterSeconds` when the refusal says
 * when to try again.
 */
export function translateRefusal(
  key: MessageKey,
  language: Language,
  retryAfterSeconds?: number,
): string {
  const text = translate(key, language)
  return retryAfterSeconds ? text.replace('{wait}', waitText(retryAfterSeconds, language)) : text
}
