import { AURA_PICTURES, DISTURBANCE_THRESHOLD, SIGNATURE_MAX } from '../../../domain/clients'
import type { Language } from '../../../domain/i18n'
import { type GuideSection, type GuideText, guidePdfRenderer } from '../../pdf-guide'

// The guides the '?' button opens on the aura and chakra screens (spec scans §2 Aura screen,
// Chakra screen), written by us in both languages (PRODUCT.md "Writing content"). They follow
// principle 3: the readings are generated at random and the guides say so plainly, and nothing
// in them is a health claim. Laid out by server/pdf-guide.ts, like the How-To guides.

export const GUIDES = ['aura', 'chakra'] as const
export type Guide = (typeof GUIDES)[number]

// tests/content reads every guide's texts through this type.
export type { GuideText }

// The labels the screens show (spec scans §2), in one place per language so the guides can be
// kept in step with the screens' translations. The tray names keep their words on one line.
export const UI = {
  en: {
    analyze: '‘Analyze Client Image’',
    records: '‘User Records’',
    start: '‘Start’',
    no: '‘No’',
    yes: '‘Yes’',
    balance: '‘Balance\u00a0Rx’',
    multi: '‘Multi\u00a0Layer\u00a0Rx’',
    run: '‘START’',
    aura: '‘Aura’',
    chakra: '‘Chakra’',
    scan: '‘Scan’',
    scanning: '‘Scanning…’',
    inProgress: '‘EnergyScan in progress’',
    done: '‘Done’',
  },
  es: {
    analyze: '‘Analizar imagen del cliente’',
    records: '‘Registros de clientes’',
    start: '‘Comenzar’',
    no: '‘No’',
    yes: '‘Sí’',
    balance: '‘Balance\u00a0Rx’',
    multi: '‘Multi\u00a0Layer\u00a0Rx’',
    run: '‘EMPEZAR’',
    aura: '‘Aura’',
    chakra: '‘Chakras’',
    scan: '‘Escanear’',
    scanning: '‘Escaneando…’',
    inProgress: '‘Escaneo de energía en curso’',
    done: '‘Listo’',
  },
} as const satisfies Record<Language, Record<string, string>>

const TEXTS: Record<Guide, Record<Language, GuideText>> = {
  aura: { en: auraEnglish(), es: auraSpanish() },
  chakra: { en: chakraEnglish(), es: chakraSpanish() },
}

function notice(language: Language): GuideText['notice'] {
  return language === 'en'
    ? {
        heading: 'About the readings',
        text:
          'The numbers and pictures on these screens are generated at random, as the app says ' +
          'on every scan screen. They do not measure your client, their energy or anything ' +
          'else. Nothing in Harmonize diagnoses, treats, cures or prevents any illness or ' +
          'condition. For any question about health, please talk to a doctor or another ' +
          'qualified professional.',
      }
    : {
        heading: 'Sobre las lecturas',
        text:
          'Los números y las imágenes de estas pantallas se generan al azar, como dice la app ' +
          'en cada pantalla de escaneo. No miden a tu cliente, ni su energía, ni ninguna otra ' +
          'cosa. Nada en Harmonize diagnostica, trata, cura ni previene ninguna enfermedad o ' +
          'afección. Para cualquier pregunta sobre la salud, habla con un médico u otro ' +
          'profesional cualificado.',
      }
}

function beforeYouStart(language: Language): GuideSection {
  const ui = UI[language]
  return language === 'en'
    ? {
        heading: 'Before you start',
        blocks: [
          {
            kind: 'paragraph',
            text:
              'On the client details screen, fill in your client’s details and choose or take ' +
              `their photo with ${ui.analyze}. Confirm that your client agreed to their photo ` +
              `and details being kept, then press ${ui.start}. A client you have seen before ` +
              `opens from ${ui.records}.`,
          },
        ],
      }
    : {
        heading: 'Antes de empezar',
        blocks: [
          {
            kind: 'paragraph',
            text:
              'En la pantalla de datos del cliente, escribe los datos de tu cliente y elige o ' +
              `haz su foto con ${ui.analyze}. Confirma que tu cliente aceptó que se guarden su ` +
              `foto y sus datos, y pulsa ${ui.start}. Un cliente que ya has atendido se abre ` +
              `desde ${ui.records}.`,
          },
        ],
      }
}

function signatureStep(language: Language): string {
  const ui = UI[language]
  return language === 'en'
    ? 'When the screen opens, it asks whether you would like to add a personalised energetic ' +
        `signature. Choose ${ui.no} to go straight on, or ${ui.yes} to write a few words ` +
        '(see “Your energetic signature” below).'
    : 'Al abrirse la pantalla, te pregunta si quieres añadir una firma energética ' +
        `personalizada. Elige ${ui.no} para seguir sin ella, o ${ui.yes} para escribir unas ` +
        'palabras (mira «Tu firma energética» más abajo).'
}

function signatureSection(language: Language): GuideSection {
  return language === 'en'
    ? {
        heading: 'Your energetic signature (optional)',
        blocks: [
          {
            kind: 'paragraph',
            text:
              'The signature is a short text of your own, up to ' +
              `${SIGNATURE_MAX} characters: an intention, a wish or a few kind words for your ` +
              'client. It is kept with the scan so you can read it again later. It changes ' +
              'nothing in the numbers or the pictures, and you can skip it every time.',
          },
        ],
      }
    : {
        heading: 'Tu firma energética (opcional)',
        blocks: [
          {
            kind: 'paragraph',
            text:
              'La firma es un texto breve y tuyo, de hasta ' +
              `${SIGNATURE_MAX} caracteres: una intención, un deseo o unas palabras amables ` +
              'para tu cliente. Se guarda con el escaneo para que puedas volver a leerla. No ' +
              'cambia nada en los números ni en las imágenes, y puedes omitirla siempre.',
          },
        ],
      }
}

function privacySection(language: Language): GuideSection {
  return language === 'en'
    ? {
        heading: 'Your client’s consent and privacy',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Ask your client before you take or upload their photo, and save their details ' +
                'only with their agreement: the client form asks you to confirm it.',
              'Photos, details and scans are kept for you, the practitioner, alone. No other ' +
                'user can see them, and we do not share them with anyone.',
              'Photos are stored without their hidden data, such as the camera used or the ' +
                'place where they were taken.',
              'You can export a client’s record, and delete it at any time. Deleting a record ' +
                'also deletes its photo and its scans.',
            ],
          },
        ],
      }
    : {
        heading: 'El consentimiento y la privacidad de tu cliente',
        blocks: [
          {
            kind: 'bullets',
            items: [
              'Pregunta a tu cliente antes de hacer o subir su foto, y guarda sus datos solo ' +
                'si está de acuerdo: el formulario del cliente te pide que lo confirmes.',
              'Las fotos, los datos y los escaneos se guardan solo para ti, el profesional. ' +
                'Ningún otro usuario puede verlos, y no los compartimos con nadie.',
              'Las fotos se guardan sin sus datos ocultos, como la cámara con la que se ' +
                'hicieron o el lugar donde se tomaron.',
              'Puedes exportar la ficha de un cliente y borrarla cuando quieras. Al borrar una ' +
                'ficha se borran también su foto y sus escaneos.',
            ],
          },
        ],
      }
}

function auraEnglish(): GuideText {
  const ui = UI.en
  return {
    title: 'Aura scan guide',
    subtitle: 'The aura scan and the aura screen, step by step',
    fileName: 'harmonize-aura-scan-guide.pdf',
    intro:
      'The aura scan is a quiet moment you share with your client. Together you choose a few ' +
      'panels, let a short harmonizing session play, and finish with a picture of colour and ' +
      'light on the aura screen. It is a ritual to relax with: there is nothing to get right ' +
      'or wrong, so take your time.',
    notice: notice('en'),
    sections: [
      beforeYouStart('en'),
      {
        heading: 'The aura scan',
        blocks: [
          {
            kind: 'steps',
            items: [
              signatureStep('en'),
              'You see 16 panels, each with a number from 100 to 999. Numbers of ' +
                `${DISTURBANCE_THRESHOLD} and above are highlighted, as a gentle hint of where ` +
                'you might begin. Like every number here, they are generated at random.',
              `Drag a panel to the ${ui.balance} tray to work with one item, or to the ` +
                `${ui.multi} tray to layer several. If dragging is awkward, for example with a ` +
                'keyboard or a screen reader, move the panel with its buttons instead.',
              'Choose a time for the session.',
              `Press ${ui.run}. A harmonizing session plays with the panels in the tray: ` +
                'relax, breathe and enjoy the sound and the visuals together.',
              `When you are ready, press ${ui.aura} to go on to the aura screen.`,
            ],
          },
        ],
      },
      {
        heading: 'The aura screen',
        blocks: [
          {
            kind: 'steps',
            items: [
              `Your client’s photo is shown; while it loads, you see ${ui.scanning}.`,
              `Press ${ui.scan}. For 6 seconds the app shows ${ui.inProgress}: a good moment ` +
                'for a few slow breaths together.',
              `One of ${AURA_PICTURES} aura pictures appears. A client sees every one of the ` +
                `${AURA_PICTURES} pictures before any picture is shown to them again, so each ` +
                'scan brings a new one.',
              'Talk about the picture together, if you like: its colours are an invitation to ' +
                'reflect, not a result.',
              `Press ${ui.done} to return to the home screen. The scan is saved with your ` +
                'client’s record, so you can look back on earlier pictures.',
            ],
          },
        ],
      },
      signatureSection('en'),
      privacySection('en'),
    ],
    page: (page, pages) => `Page ${page} of ${pages}`,
  }
}

function auraSpanish(): GuideText {
  const ui = UI.es
  return {
    title: 'Guía del escaneo de aura',
    subtitle: 'El escaneo de aura y la pantalla del aura, paso a paso',
    fileName: 'harmonize-guia-escaneo-aura.pdf',
    intro:
      'El escaneo de aura es un momento tranquilo que compartes con tu cliente. Eliges con él ' +
      'algunos paneles, dejas sonar una breve sesión de armonización y terminas con una imagen ' +
      'de color y luz en la pantalla del aura. Es un ritual para relajarse: no hay nada que ' +
      'hacer bien o mal, así que tómate tu tiempo.',
    notice: notice('es'),
    sections: [
      beforeYouStart('es'),
      {
        heading: 'El escaneo de aura',
        blocks: [
          {
            kind: 'steps',
            items: [
              signatureStep('es'),
              'Ves 16 paneles, cada uno con un número del 100 al 999. Los números de ' +
                `${DISTURBANCE_THRESHOLD} o más aparecen resaltados, como una pista amable de ` +
                'por dónde podrías empezar. Como todos los números de aquí, se generan al azar.',
              `Arrastra un panel a la bandeja ${ui.balance} para trabajar con un solo ` +
                `elemento, o a la bandeja ${ui.multi} para combinar varios. Si arrastrar te ` +
                'resulta incómodo, por ejemplo con el teclado o un lector de pantalla, mueve ' +
                'el panel con sus botones.',
              'Elige un tiempo para la sesión.',
              `Pulsa ${ui.run}. Suena una sesión de armonización con los paneles de la ` +
                'bandeja: relájate, respira y disfruta con tu cliente del sonido y de las ' +
                'imágenes.',
              `Cuando quieras, pulsa ${ui.aura} para pasar a la pantalla del aura.`,
            ],
          },
        ],
      },
      {
        heading: 'La pantalla del aura',
        blocks: [
          {
            kind: 'steps',
            items: [
              `Se muestra la foto de tu cliente; mientras se carga, ves ${ui.scanning}.`,
              `Pulsa ${ui.scan}. Durante 6 segundos la app muestra ${ui.inProgress}: un buen ` +
                'momento para respirar despacio juntos.',
              `Aparece una de las ${AURA_PICTURES} imágenes de aura. Un cliente ve las ` +
                `${AURA_PICTURES} imágenes antes de que se le repita ninguna, así que cada ` +
                'escaneo trae una nueva.',
              'Si te apetece, habla de la imagen con tu cliente: sus colores son una ' +
                'invitación a reflexionar, no un resultado.',
              `Pulsa ${ui.done} para volver a la pantalla de inicio. El escaneo se guarda en ` +
                'la ficha de tu cliente, para que puedas volver a ver imágenes anteriores.',
            ],
          },
        ],
      },
      signatureSection('es'),
      privacySection('es'),
    ],
    page: (page, pages) => `Página ${page} de ${pages}`,
  }
}

function chakraEnglish(): GuideText {
  const ui = UI.en
  return {
    title: 'Chakra scan guide',
    subtitle: 'The chakra scan and the chakra screen, step by step',
    fileName: 'harmonize-chakra-scan-guide.pdf',
    intro:
      'The chakra scan is a short, calm ritual around the seven chakras of the yoga ' +
      'tradition. You pause for a few breaths with your client, then look at seven numbers ' +
      'together and talk about them, if you like. There is nothing to get right or wrong, so ' +
      'take your time.',
    notice: notice('en'),
    sections: [
      beforeYouStart('en'),
      {
        heading: 'The chakra scan',
        blocks: [
          {
            kind: 'steps',
            items: [signatureStep('en'), `Press ${ui.chakra} to open the chakra screen.`],
          },
        ],
      },
      {
        heading: 'The chakra screen',
        blocks: [
          {
            kind: 'steps',
            items: [
              'The seven chakras are listed from top to bottom, each with its icon: Crown, ' +
                'Brow, Throat, Heart, Solar, Sacral, Root.',
              `Press ${ui.scan}. The scan takes 6 seconds: a good moment for a few slow ` +
                'breaths together.',
              'Each chakra receives a whole number from 100 to 999, generated at random.',
              'The three highest numbers are highlighted. If you like, give those chakras a ' +
                'moment of attention, with a breath or an affirmation: they are a starting ' +
                'point for a conversation, not a finding.',
              `Press ${ui.done} to return to the home screen. The numbers are saved with your ` +
                'client’s record, so you can look back on earlier scans.',
            ],
          },
        ],
      },
      {
        heading: 'The seven chakras',
        blocks: [
          {
            kind: 'paragraph',
            text: 'In the order the screen lists them, with the place the tradition gives each:',
          },
          {
            kind: 'pairs',
            items: [
              ['Crown', 'the top of the head'],
              ['Brow', 'between the eyebrows'],
              ['Throat', 'the throat'],
              ['Heart', 'the centre of the chest'],
              ['Solar', 'the solar plexus, above the navel'],
              ['Sacral', 'the lower belly, below the navel'],
              ['Root', 'the base of the spine'],
            ],
          },
        ],
      },
      signatureSection('en'),
      privacySection('en'),
    ],
    page: (page, pages) => `Page ${page} of ${pages}`,
  }
}

function chakraSpanish(): GuideText {
  const ui = UI.es
  return {
    title: 'Guía del escaneo de chakras',
    subtitle: 'El escaneo de chakras y la pantalla de chakras, paso a paso',
    fileName: 'harmonize-guia-escaneo-chakras.pdf',
    intro:
      'El escaneo de chakras es un ritual breve y tranquilo en torno a los siete chakras de ' +
      'la tradición del yoga. Haces una pausa de unas respiraciones con tu cliente y después ' +
      'miras siete números, que puedes comentar con él si te apetece. No hay nada que hacer ' +
      'bien o mal, así que tómate tu tiempo.',
    notice: notice('es'),
    sections: [
      beforeYouStart('es'),
      {
        heading: 'El escaneo de chakras',
        blocks: [
          {
            kind: 'steps',
            items: [signatureStep('es'), `Pulsa ${ui.chakra} para abrir la pantalla de chakras.`],
          },
        ],
      },
      {
        heading: 'La pantalla de chakras',
        blocks: [
          {
            kind: 'steps',
            items: [
              'Los siete chakras aparecen de arriba abajo, cada uno con su icono: Corona, ' +
                'Entrecejo, Garganta, Corazón, Plexo solar, Sacro, Raíz.',
              `Pulsa ${ui.scan}. El escaneo dura 6 segundos: un buen momento para respirar ` +
                'despacio juntos.',
              'Cada chakra recibe un número entero del 100 al 999, generado al azar.',
              'Los tres números más altos aparecen resaltados. Si quieres, dedica a esos ' +
                'chakras un momento de atención, con una respiración o una afirmación: son un ' +
                'punto de partida para conversar, no un hallazgo.',
              `Pulsa ${ui.done} para volver a la pantalla de inicio. Los números se guardan en ` +
                'la ficha de tu cliente, para que puedas volver a ver escaneos anteriores.',
            ],
          },
        ],
      },
      {
        heading: 'Los siete chakras',
        blocks: [
          {
            kind: 'paragraph',
            text: 'En el orden en que los muestra la pantalla, con el lugar que la tradición da a cada uno:',
          },
          {
            kind: 'pairs',
            items: [
              ['Corona', 'la parte más alta de la cabeza'],
              ['Entrecejo', 'entre las cejas'],
              ['Garganta', 'la garganta'],
              ['Corazón', 'el centro del pecho'],
              ['Plexo solar', 'el plexo solar, encima del ombligo'],
              ['Sacro', 'el bajo vientre, debajo del ombligo'],
              ['Raíz', 'la base de la columna'],
            ],
          },
        ],
      },
      signatureSection('es'),
      privacySection('es'),
    ],
    page: (page, pages) => `Página ${page} de ${pages}`,
  }
}

/** The text of a guide in a language, as the PDF prints it. */
export function guideText(guide: Guide, language: Language): GuideText {
  return TEXTS[guide][language]
}

/** The file name the browser offers for a guide, e.g. `harmonize-aura-scan-guide.pdf`. */
export function guideFileName(guide: Guide, language: Language): string {
  return TEXTS[guide][language].fileName
}

/**
 * A guide as an A4 PDF of one or two pages in `language`, rendered on first use and then served
 * from memory. The same guide and language always give the same bytes.
 */
export const renderGuidePdf = guidePdfRenderer<Guide>(
  (guide, language) => TEXTS[guide][language],
  // The chakra names are short: 'Plexo solar', the longest, takes 56 points.
  { pairNameWidth: 90 },
)
