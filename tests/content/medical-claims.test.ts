import { describe, expect, it } from 'vitest'
import {
  ALLOWED_DISCLAIMERS,
  findClaims,
  localeTexts,
  mailTexts,
  messageTexts,
  NEGATION,
  pdfGuideTexts,
  seedTexts,
  sentences,
  type Text,
} from './medical-claims'

// PRODUCT.md principle 3: "No text claims that the app, water or a scan treats, cures, prevents
// or diagnoses anything." Every text a user can read, in both languages, is searched for the
// words of such a claim; only the disclaimers listed in ALLOWED_DISCLAIMERS may use them.

const SOURCES = {
  'the app and feature catalogues (client/locales, client/features/*/locales)': localeTexts,
  'the mail templates (server/**/*mail*.ts, server/mail/)': mailTexts,
  'the seeded panels and affirmations (db/seed)': seedTexts,
  'the PDF guides (How-To and scans)': pdfGuideTexts,
  'the messages (domain/messages.ts, server/i18n.ts)': messageTexts,
}

const everything = () => Object.values(SOURCES).flatMap((read) => read())

/** What findClaims says about one sentence written at `where`. */
const wordsIn = (text: string, where = 'planted') =>
  findClaims([{ where, text }]).map((claim) => claim.word.toLowerCase())

describe('no medical claims', () => {
  it.each(Object.entries(SOURCES))('in %s', (_name, read) => {
    const texts = read()
    expect(texts.length).toBeGreaterThan(5)
    expect(findClaims(texts)).toEqual([])
  })

  it('reads the texts of every source, in both languages', () => {
    const places = localeTexts().map((text) => text.where)
    for (const file of [
      'client/locales/en.json',
      'client/locales/es.json',
      'client/features/info/locales/en.json',
      'client/features/info/locales/es.json',
      'client/features/clients/locales/es.json',
    ]) {
      expect(
        places.some((where) => where.startsWith(`${file}#`)),
        file,
      ).toBe(true)
    }
    const mail = mailTexts()
    for (const file of [
      'server/mail/layout.ts',
      'server/features/auth/mail.ts',
      'server/features/billing/invoice-mail.ts',
      'server/features/support/support-mail.ts',
    ]) {
      expect(
        mail.some((text) => text.where.startsWith(`${file}:`)),
        file,
      ).toBe(true)
    }
    expect(mail.some((text) => text.text === 'Un saludo afectuoso,')).toBe(true)
    expect(mail.some((text) => text.text.includes('Si no fuiste tú'))).toBe(true)
    expect(seedTexts().filter((text) => text.where.includes('.name.')).length).toBe(32)
    expect(pdfGuideTexts().some((text) => text.text === 'Solución de problemas')).toBe(true)
  })

  it('fails on a claim planted in any source, the allowed disclaimers notwithstanding', () => {
    const planted: Text[] = [
      { where: 'client/locales/en.json#planted', text: 'Harmonized water heals the body.' },
      { where: 'client/locales/es.json#planted', text: 'El agua armonizada cura el insomnio.' },
      { where: 'server/features/auth/mail.ts:1', text: 'Our ritual treats {} every day.' },
      { where: 'db/seed/panels-content.ts#planted', text: 'Helps prevent heart disease.' },
    ]
    const claims = findClaims([...everything(), ...planted])
    expect(claims.map((claim) => claim.where)).toEqual(planted.map((text) => text.where))
  })

  it('catches every form of the words, and only whole words', () => {
    const caught = {
      'This cures you.': ['cures'],
      'A curative drink.': ['curative'],
      'It treats stress.': ['treats'],
      'A treatment for sleep.': ['treatment'],
      'Water that Heals.': ['heals'],
      'A healing ritual.': ['healing'],
      'It diagnoses you.': ['diagnoses'],
      'A diagnosis in minutes.': ['diagnosis'],
      'It prevents disease.': ['prevents disease'],
      'Preventing chronic inflammatory conditions.': ['preventing chronic inflammatory conditions'],
      'A natural remedy.': ['remedy'],
      'Detox your body.': ['detox'],
      'Curar con agua.': ['curar'],
      'La cura del agua.': ['cura'],
      'Me he curado.': ['curado'],
      'El agua trata el estrés.': ['trata'],
      'Un tratamiento natural.': ['tratamiento'],
      'Una SANACIÓN profunda.': ['sanación'],
      'El agua sana.': ['sana'],
      'Un diagnóstico rápido.': ['diagnóstico'],
      'Previene enfermedades del corazón.': ['previene enfermedades'],
      'Prevenir las enfermedades.': ['prevenir las enfermedades'],
      'Un remedio antiguo.': ['remedio'],
      'Propiedades terapéuticas.': ['terapéuticas'],
    }
    for (const [text, words] of Object.entries(caught)) expect(wordsIn(text), text).toEqual(words)

    for (const text of [
      'A night at the theatre.',
      'Your health and wellbeing.',
      'A healthy habit.',
      'Our current plan.',
      'A secure connection.',
      'Be curious.',
      'Un curso de cúrcuma.',
      'Procurar la calma.',
      'Un contrato y un retrato.',
      'Sandía y santos.',
      'Limits prevent abuse and keep the service running.',
      'A treaty between friends.',
      'Nuestra seguridad.',
    ]) {
      expect(wordsIn(text), text).toEqual([])
    }
  })

  it('allows a disclaimer only word for word, and only where it is written', () => {
    const [entry] = ALLOWED_DISCLAIMERS
    if (!entry) throw new Error('no allowed disclaimer')
    expect(findClaims([entry])).toEqual([])
    // The same sentence anywhere else is a claim like any other.
    expect(findClaims([{ ...entry, where: 'client/locales/en.json#copied' }])).not.toEqual([])
    // A disclaimer that loses its "not" is no longer one.
    const withoutNot = entry.text.replace('does not diagnose', 'does diagnose')
    expect(withoutNot).not.toBe(entry.text)
    expect(findClaims([{ ...entry, text: withoutNot }])).not.toEqual([])
    // A claim added after the disclaimer, in the same text, is still found.
    expect(findClaims([{ ...entry, text: `${entry.text} Yet it heals.` }])).toHaveLength(1)
  })

  it('allows only negations that are in use', () => {
    const texts = everything()
    for (const entry of ALLOWED_DISCLAIMERS) {
      expect(entry.text, entry.where).toMatch(NEGATION)
      expect(findClaims([entry], []), `${entry.where} holds no claim word`).not.toEqual([])
      const written = texts.some(
        (text) => text.where === entry.where && sentences(text.text).includes(entry.text),
      )
      expect(written, `${entry.where} no longer says: ${entry.text}`).toBe(true)
    }
  })
})
