import { CODE_VALID_MINUTES } from '../../../domain/auth'
import type { Language } from '../../../domain/i18n'
import type { InfoGuide } from '../../../domain/info'
import type { GuideText } from '../../pdf-guide'

// The 'Sign Up Guide' and 'Trouble Shooting' documents of the How-To page (spec scans §2
// How-To), written by us in both languages (PRODUCT.md "Writing content"): warm, plain, short
// sentences, and no health claims (tests/content/medical-claims.test.ts reads them too).

// The labels the screens show, quoted as the person will see them, in one place per language
// so the guides can be kept in step with the screens' translations.
const UI = {
  en: {
    signUpHere: '‘Sign Up Here’',
    register: '‘Register Account’',
    human: '‘I am human’',
    confirm: '‘Confirm’',
    resend: '‘Send New Confirmation Code’',
    signed: '‘Registration Complete’',
    goToSignIn: '‘Go to Sign In’',
    rememberMe: '‘Remember me’',
    forgot: '‘Forgot your password?’',
    myAccount: '‘My Account’',
    redeem: '‘Redeem an access code’',
    moreInfo: '‘More Info’',
    startHarmonizing: '‘Start harmonizing’',
    play: '‘Play’',
    complete: '‘Complete’',
    sound: '‘Sound’',
    calmMotion: '‘Calm motion’',
    support: '‘Support’',
    sendEmail: '‘Send Email’',
    offline: '‘Sorry, it seems that you are offline’',
    paying: '‘payment in progress...’',
    updateCard: '‘Update card’',
    sandbox: '‘Sandbox — no real charges’',
  },
  es: {
    signUpHere: '‘Regístrate aquí’',
    register: '‘Registrar cuenta’',
    human: '‘Soy humano’',
    confirm: '‘Confirmar’',
    resend: '‘Enviar nuevo código de confirmación’',
    signed: '‘Registro completado’',
    goToSignIn: '‘Ir a iniciar sesión’',
    rememberMe: '‘Recordarme’',
    forgot: '‘¿Olvidaste tu contraseña?’',
    myAccount: '‘Mi cuenta’',
    redeem: '‘Canjear un código de acceso’',
    moreInfo: '‘Más información’',
    startHarmonizing: '‘Empezar a armonizar’',
    play: '‘Reproducir’',
    complete: '‘Completado’',
    sound: '‘Sonido’',
    calmMotion: '‘Movimiento sereno’',
    support: '‘Soporte’',
    sendEmail: '‘Enviar correo’',
    offline: '‘Lo sentimos, parece que no tienes conexión’',
    paying: '‘pago en curso...’',
    updateCard: '‘Cambiar de tarjeta’',
    sandbox: '‘Entorno de pruebas: sin cargos reales’',
  },
} as const satisfies Record<Language, Record<string, string>>

const TEST_CARD = '4242\u00a04242\u00a04242\u00a04242'

function signUpEnglish(): GuideText {
  const ui = UI.en
  return {
    title: 'Sign Up Guide',
    subtitle: 'Create your account and enjoy your first session',
    fileName: 'harmonize-sign-up-guide.pdf',
    intro:
      'Welcome to Harmonize. This guide takes you from a new account to your first harmonized ' +
      'glass of water. It takes about five minutes, and you need only your e-mail address and ' +
      'a card or an access code.',
    notice: {
      heading: 'A ritual to relax with',
      text:
        'Harmonize is a calm ritual of sound, light and kind words. It is not a medical service ' +
        'and makes no health claims. For any question about your health, please talk to a ' +
        'doctor or another qualified professional.',
    },
    sections: [
      {
        heading: 'Create your account',
        blocks: [
          {
            kind: 'steps',
            items: [
              `On the sign-in page, choose ${ui.signUpHere}. If someone sent you an invitation ` +
                'link, open it instead: its code comes with you.',
              'Enter your full name and your e-mail address.',
              'Choose a password of 8 to 128 characters with lower-case and upper-case letters, ' +
                'numbers and symbols, and type it a second time to confirm it.',
              `Tick ${ui.human} and wait a moment while your device completes the check. It runs ` +
                'on your own device, and no other company sees it.',
              `Press ${ui.register}.`,
            ],
          },
        ],
      },
      {
        heading: 'Confirm your e-mail',
        blocks: [
          {
            kind: 'steps',
            items: [
              'We send a 6-digit code to your e-mail address. It is valid for ' +
                `${CODE_VALID_MINUTES} minutes.`,
              `Enter your e-mail and the code, then press ${ui.confirm}.`,
              'No code yet? Look in your spam or promotions folder, then ask for a fresh one with ' +
                `${ui.resend}. Always use the newest code.`,
              `When you see ${ui.signed}, choose ${ui.goToSignIn} and sign in with your e-mail ` +
                `and password. ${ui.rememberMe} keeps you signed in on this device for 30 days.`,
            ],
          },
        ],
      },
      {
        heading: 'Open the panels',
        blocks: [
          {
            kind: 'paragraph',
            text:
              `The panels open once your account has access. In ${ui.myAccount}, choose the way ` +
              'that suits you:',
          },
          {
            kind: 'pairs',
            items: [
              ['One payment', 'a single payment for lasting access.'],
              ['Four payments', 'four monthly payments; once all four are made, access stays.'],
              ['Subscription', 'a monthly plan that you can pause, cancel or reactivate.'],
              ['Access code', `a code from us or from an invitation, entered in ${ui.redeem}.`],
            ],
          },
        ],
      },
      {
        heading: 'Your first session',
        blocks: [
          {
            kind: 'steps',
            items: [
              `Go to Home and choose a panel. ${ui.moreInfo} tells you what the panel is about.`,
              'Place a glass of water, coffee or juice near the screen.',
              `Press ${ui.startHarmonizing}, then ${ui.play}. For 3 minutes you see gentle ` +
                'visuals and hear music, the panel’s Solfeggio tone and a soft low layer, while ' +
                'affirmations pass on the screen.',
              `When ${ui.complete} appears, your water is ready to drink. Enjoy it slowly.`,
            ],
          },
        ],
      },
      {
        heading: 'Install the app',
        blocks: [
          {
            kind: 'paragraph',
            text:
              'Harmonize works in your browser, and you can also install it like an app: accept ' +
              'the install banner when it appears, or use your browser’s Install or Add to Home ' +
              'Screen option. On an iPhone or iPad, open the app in Safari, press the Share ' +
              'button, then Add to Home Screen. After your first visit, sessions work even ' +
              'without a network.',
          },
        ],
      },
    ],
    page: (page, pages) => `Page ${page} of ${pages}`,
  }
}

function signUpSpanish(): GuideText {
  const ui = UI.es
  return {
    title: 'Guía de registro',
    subtitle: 'Crea tu cuenta y disfruta de tu primera sesión',
    fileName: 'harmonize-guia-de-registro.pdf',
    intro:
      'Te damos la bienvenida a Harmonize. Esta guía te lleva desde una cuenta nueva hasta tu ' +
      'primer vaso de agua armonizada. Son unos cinco minutos, y solo necesitas tu dirección ' +
      'de correo y una tarjeta o un código de acceso.',
    notice: {
      heading: 'Un ritual para relajarte',
      text:
        'Harmonize es un ritual tranquilo de sonido, luz y palabras amables. No es un servicio ' +
        'médico y no promete nada sobre la salud. Para cualquier pregunta sobre tu salud, habla ' +
        'con un médico u otro profesional cualificado.',
    },
    sections: [
      {
        heading: 'Crea tu cuenta',
        blocks: [
          {
            kind: 'steps',
            items: [
              `En la página de inicio de sesión, elige ${ui.signUpHere}. Si alguien te envió un ` +
                'enlace de invitación, ábrelo: su código viene contigo.',
              'Escribe tu nombre completo y tu dirección de correo.',
              'Elige una contraseña de 8 a 128 caracteres con letras minúsculas y mayúsculas, ' +
                'números y símbolos, y escríbela otra vez para confirmarla.',
              `Marca ${ui.human} y espera un momento mientras tu dispositivo hace la ` +
                'comprobación. Se hace en tu propio dispositivo y ninguna otra empresa la ve.',
              `Pulsa ${ui.register}.`,
            ],
          },
        ],
      },
      {
        heading: 'Confirma tu correo',
        blocks: [
          {
            kind: 'steps',
            items: [
              'Te enviamos un código de 6 dígitos a tu correo. Vale durante ' +
                `${CODE_VALID_MINUTES} minutos.`,
              `Escribe tu correo y el código, y pulsa ${ui.confirm}.`,
              '¿Aún no tienes el código? Mira en la carpeta de spam o de promociones y después ' +
                `pide uno nuevo con ${ui.resend}. Usa siempre el código más reciente.`,
              `Cuando veas ${ui.signed}, elige ${ui.goToSignIn} e inicia sesión con tu correo y ` +
                `tu contraseña. ${ui.rememberMe} mantiene tu sesión abierta en este dispositivo ` +
                'durante 30 días.',
            ],
          },
        ],
      },
      {
        heading: 'Abre los paneles',
        blocks: [
          {
            kind: 'paragraph',
            text:
              `Los paneles se abren cuando tu cuenta tiene acceso. En ${ui.myAccount}, elige la ` +
              'forma que mejor te venga:',
          },
          {
            kind: 'pairs',
            items: [
              ['Pago único', 'un solo pago para un acceso duradero.'],
              ['Cuatro pagos', 'cuatro pagos mensuales; hechos los cuatro, el acceso se queda.'],
              ['Suscripción', 'un plan mensual que puedes pausar, cancelar o reactivar.'],
              [
                'Código de acceso',
                `un código nuestro o de una invitación, que se escribe en ${ui.redeem}.`,
              ],
            ],
          },
        ],
      },
      {
        heading: 'Tu primera sesión',
        blocks: [
          {
            kind: 'steps',
            items: [
              `Ve a Inicio y elige un panel. ${ui.moreInfo} te cuenta cuál es el tema del panel.`,
              'Coloca un vaso de agua, café o zumo cerca de la pantalla.',
              `Pulsa ${ui.startHarmonizing} y después ${ui.play}. Durante 3 minutos verás ` +
                'imágenes suaves y oirás música, el tono Solfeggio del panel y una capa grave y ' +
                'suave, mientras pasan afirmaciones por la pantalla.',
              `Cuando aparezca ${ui.complete}, tu agua está lista para beber. Disfrútala despacio.`,
            ],
          },
        ],
      },
      {
        heading: 'Instala la app',
        blocks: [
          {
            kind: 'paragraph',
            text:
              'Harmonize funciona en tu navegador, y también puedes instalarla como una app: ' +
              'acepta el aviso de instalación cuando aparezca, o usa la opción Instalar o Añadir ' +
              'a pantalla de inicio de tu navegador. En un iPhone o iPad, abre la app en Safari, ' +
              'pulsa el botón Compartir y después Añadir a pantalla de inicio. Después de tu ' +
              'primera visita, las sesiones funcionan incluso sin conexión.',
          },
        ],
      },
    ],
    page: (page, pages) => `Página ${page} de ${pages}`,
  }
}

function troubleshootingEnglish(): GuideText {
  const ui = UI.en
  return {
    title: 'Trouble Shooting',
    subtitle: 'Quick answers when something does not work as expected',
    fileName: 'harmonize-trouble-shooting.pdf',
    intro:
      'Most problems have a quick answer. Find what you see below and try the steps in order. ' +
      `If nothing helps, write to us from ${ui.support} with ${ui.sendEmail}: we answer within ` +
      '24 hours.',
    notice: {
      heading: 'First, the two quick checks',
      text:
        'Make sure you are online, then reload the page. If the app is installed, close it ' +
        'completely and open it again: this also loads a new version of the app if one is ' +
        'waiting.',
    },
    sections: [
      {
        heading: 'My confirmation code did not arrive',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'A code can take a minute or two. Look in your spam, junk or promotions folder.',
              'Check that the e-mail address was typed correctly.',
              `Ask for a new code with ${ui.resend}. Each code is valid for ` +
                `${CODE_VALID_MINUTES} minutes, and only the newest one works.`,
            ],
          },
        ],
      },
      {
        heading: 'I cannot sign in',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Check your e-mail and password. Capital letters count in a password.',
              `${ui.forgot} on the sign-in page sends you a code to choose a new password.`,
              'A new account must be confirmed with its code before it can sign in.',
              'After many attempts the app asks you to wait: try again a few minutes later.',
            ],
          },
        ],
      },
      {
        heading: 'The human check does not finish',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'On an older phone the check can take a few seconds: keep the page open.',
              'If it says the check expired, tick the box again.',
              'Some privacy extensions block it. Allow Harmonize, or try another browser.',
            ],
          },
        ],
      },
      {
        heading: 'The panels are greyed out',
        blocks: [
          {
            kind: 'bullets',
            items: [
              `The panels open with a plan or an access code: see ${ui.myAccount}.`,
              `While a payment is being made, the header shows ${ui.paying}. Wait a moment.`,
              `If a payment failed, a banner offers ${ui.updateCard}: add another card there.`,
            ],
          },
        ],
      },
      {
        heading: 'I cannot hear anything',
        blocks: [
          {
            kind: 'bullets',
            items: [
              `Press ${ui.play}: browsers start sound only after a tap or a click.`,
              'Check the volume of your device, and the silent switch on an iPhone.',
              `Check the ${ui.sound} sliders on the harmonizing screen.`,
              'If headphones or a speaker are connected, check that they are on.',
            ],
          },
        ],
      },
      {
        heading: 'The visuals stutter',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Close other apps and browser tabs, then start the session again.',
              `Turn on ${ui.calmMotion} on the harmonizing screen for slower, lighter visuals.`,
              'If the screen dims during a session, give your device a longer screen timeout.',
            ],
          },
        ],
      },
      {
        heading: 'I am offline',
        blocks: [
          {
            kind: 'bullets',
            items: [
              `The app says ${ui.offline} and keeps working from what it has kept.`,
              'After your first visit, sessions work without a network. Media files you saved ' +
                'on this device keep working too.',
              'Payments, e-mails and your account details need a network again.',
            ],
          },
        ],
      },
      {
        heading: 'A payment did not go through',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Check the card number, the expiry date and the security code.',
              `Add another card in ${ui.myAccount}, or ask your bank about the payment.`,
              `If the app shows ${ui.sandbox}, only test cards work there, such as ${TEST_CARD}.`,
            ],
          },
        ],
      },
      {
        heading: 'Still stuck?',
        blocks: [
          {
            kind: 'paragraph',
            text:
              `Open ${ui.support} and choose ${ui.sendEmail}. Tell us your device, your browser ` +
              'and what you see on the screen. We answer within 24 hours.',
          },
        ],
      },
    ],
    page: (page, pages) => `Page ${page} of ${pages}`,
  }
}

function troubleshootingSpanish(): GuideText {
  const ui = UI.es
  return {
    title: 'Solución de problemas',
    subtitle: 'Respuestas rápidas cuando algo no funciona como esperas',
    fileName: 'harmonize-solucion-de-problemas.pdf',
    intro:
      'Casi todos los problemas tienen una respuesta rápida. Busca abajo lo que ves y prueba ' +
      `los pasos en orden. Si nada ayuda, escríbenos desde ${ui.support} con ${ui.sendEmail}: ` +
      'respondemos en 24 horas.',
    notice: {
      heading: 'Primero, las dos comprobaciones rápidas',
      text:
        'Asegúrate de que tienes conexión y vuelve a cargar la página. Si la app está ' +
        'instalada, ciérrala del todo y ábrela de nuevo: así también se carga una versión nueva ' +
        'de la app si hay una esperando.',
    },
    sections: [
      {
        heading: 'No me llega el código de confirmación',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Un código puede tardar un minuto o dos. Mira en la carpeta de spam, correo no ' +
                'deseado o promociones.',
              'Comprueba que la dirección de correo está bien escrita.',
              `Pide un código nuevo con ${ui.resend}. Cada código vale durante ` +
                `${CODE_VALID_MINUTES} minutos, y solo funciona el más reciente.`,
            ],
          },
        ],
      },
      {
        heading: 'No puedo iniciar sesión',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Revisa tu correo y tu contraseña. En las contraseñas cuentan las mayúsculas.',
              `${ui.forgot} en la página de inicio de sesión te envía un código para elegir una ` +
                'contraseña nueva.',
              'Una cuenta nueva tiene que confirmarse con su código antes de iniciar sesión.',
              'Tras muchos intentos, la app te pide que esperes: vuelve a probar unos minutos ' +
                'después.',
            ],
          },
        ],
      },
      {
        heading: 'La verificación humana no termina',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'En un teléfono antiguo la verificación puede tardar unos segundos: deja la ' +
                'página abierta.',
              'Si dice que la verificación caducó, marca la casilla de nuevo.',
              'Algunas extensiones de privacidad la bloquean. Permite Harmonize o prueba con ' +
                'otro navegador.',
            ],
          },
        ],
      },
      {
        heading: 'Los paneles aparecen en gris',
        blocks: [
          {
            kind: 'bullets',
            items: [
              `Los paneles se abren con un plan o un código de acceso: mira ${ui.myAccount}.`,
              `Mientras se hace un pago, la cabecera muestra ${ui.paying}. Espera un momento.`,
              `Si un pago falló, un aviso te ofrece ${ui.updateCard}: añade allí otra tarjeta.`,
            ],
          },
        ],
      },
      {
        heading: 'No oigo nada',
        blocks: [
          {
            kind: 'bullets',
            items: [
              `Pulsa ${ui.play}: los navegadores solo inician el sonido después de un toque o ` +
                'un clic.',
              'Revisa el volumen de tu dispositivo, y el interruptor de silencio en un iPhone.',
              `Revisa los controles de ${ui.sound} en la pantalla de armonización.`,
              'Si tienes auriculares o un altavoz conectados, comprueba que están encendidos.',
            ],
          },
        ],
      },
      {
        heading: 'Las imágenes van a saltos',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Cierra otras apps y pestañas del navegador, y vuelve a empezar la sesión.',
              `Activa ${ui.calmMotion} en la pantalla de armonización para unas imágenes más ` +
                'lentas y ligeras.',
              'Si la pantalla se apaga durante una sesión, alarga el tiempo de bloqueo de tu ' +
                'dispositivo.',
            ],
          },
        ],
      },
      {
        heading: 'No tengo conexión',
        blocks: [
          {
            kind: 'bullets',
            items: [
              `La app dice ${ui.offline} y sigue funcionando con lo que ha guardado.`,
              'Después de tu primera visita, las sesiones funcionan sin conexión. Los archivos ' +
                'multimedia que guardaste en este dispositivo también.',
              'Los pagos, los correos y los datos de tu cuenta necesitan conexión.',
            ],
          },
        ],
      },
      {
        heading: 'Un pago no se ha completado',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Revisa el número de la tarjeta, la fecha de caducidad y el código de seguridad.',
              `Añade otra tarjeta en ${ui.myAccount}, o pregunta a tu banco por el pago.`,
              `Si la app muestra ${ui.sandbox}, allí solo funcionan tarjetas de prueba, como ` +
                `${TEST_CARD}.`,
            ],
          },
        ],
      },
      {
        heading: '¿Sigues con el problema?',
        blocks: [
          {
            kind: 'paragraph',
            text:
              `Abre ${ui.support} y elige ${ui.sendEmail}. Cuéntanos tu dispositivo, tu ` +
              'navegador y lo que ves en la pantalla. Respondemos en 24 horas.',
          },
        ],
      },
    ],
    page: (page, pages) => `Página ${page} de ${pages}`,
  }
}

const TEXTS: Record<InfoGuide, Record<Language, GuideText>> = {
  'sign-up': { en: signUpEnglish(), es: signUpSpanish() },
  troubleshooting: { en: troubleshootingEnglish(), es: troubleshootingSpanish() },
}

/** The text of a guide in a language, as the PDF prints it. */
export function infoGuideText(guide: InfoGuide, language: Language): GuideText {
  return TEXTS[guide][language]
}
