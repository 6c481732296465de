// The guard for PRODUCT.md principle 3: no text of ours may claim that the app, water or a scan
// cures, treats, heals, diagnoses or prevents anything. medical-claims.test.ts runs it over every
// text users can read; this module holds the words, the reader of the texts and the few
// disclaimer sentences that must say these words in order to deny them.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parseSync } from 'rolldown/utils'
import { AFFIRMATIONS, PANELS } from '../../db/seed/panels-content'
import { LANGUAGES } from '../../domain/i18n'
import { INFO_GUIDES } from '../../domain/info'
import { MESSAGES } from '../../domain/messages'
import { GUIDES, type GuideText, guideText } from '../../server/features/clients/guides'
import { infoGuideText } from '../../server/features/info/guide-texts'

export const ROOT = path.resolve(import.meta.dirname, '../..')

/** One text as users read it, and where it comes from (a file, with a key inside it). */
export interface Text {
  where: string
  text: string
}

/** A claim word found in one sentence of a text. */
export interface Claim {
  where: string
  word: string
  sentence: string
}

// No letter or digit on either side: JavaScript's \b knows only ASCII letters, so it would
// split 'sanación' at the 'ó'. Each stem lists its endings, so 'treatment' is caught while
// 'theatre', 'health', 'curso', 'cúrcuma', 'procurar' and 'contrato' are not.
const NOT_IN_WORD = '[\\p{L}\\p{N}]'
const claimWord = (name: string, body: string) => ({
  name,
  pattern: new RegExp(`(?<!${NOT_IN_WORD})(?:${body})(?!${NOT_IN_WORD})`, 'giu'),
})
// "prevent(s) … disease": up to three words between, so 'prevents any illness' is caught and
// 'limits prevent abuse' is not.
const preventing = (verb: string, harm: string) =>
  `(?:${verb})(?:\\s+[\\p{L}-]+){0,3}?\\s+(?:${harm})`

export const CLAIM_WORDS = [
  claimWord('cure', 'cur(?:e|es|ed|ing|ative|atives|able)'),
  claimWord('treat', 'treat(?:s|ed|ing|ment|ments|able)?'),
  claimWord('heal', 'heal(?:s|ed|ing|er|ers)?'),
  claimWord('diagnose', 'diagnos(?:e|es|ed|ing|is|tic|tics|able)'),
  claimWord(
    'prevent disease',
    preventing(
      'prevent(?:s|ed|ing|ion|ive)?',
      'diseases?|illness(?:es)?|sickness(?:es)?|ailments?|disorders?|conditions?|infections?|cancers?',
    ),
  ),
  claimWord('remedy', 'remed(?:y|ies)'),
  claimWord('therapeutic', 'therapeutic(?:s|ally)?'),
  claimWord('medicinal', 'medicinal(?:ly)?'),
  claimWord('detox', 'detox(?:es|ed|ing|ify|ifies|ified|ification)?'),
  claimWord(
    'curar',
    'cur(?:ar|a|as|an|o|é|ó|e|en|amos|ado|ada|ados|adas|ando|ación|aciones|ativo|ativa|ativos|ativas|arse|arte|arlo|arla)',
  ),
  claimWord(
    'tratar',
    'trat(?:ar|a|as|an|o|é|ó|e|en|es|amos|ado|ada|ados|adas|ando|amiento|amientos|arse|arte|arlo|arla)',
  ),
  claimWord(
    'sanar',
    'san(?:ar|a|as|an|o|é|ó|e|en|amos|ado|ada|ados|adas|ando|ación|aciones|ador|adora|adores|adoras|arse|arte)',
  ),
  claimWord('diagnosticar', 'diagn[oó]stic(?:o|os|a|as|ar|an|ado|ada|ados|adas|ando)'),
  claimWord(
    'prevenir enfermedades',
    preventing(
      'prev(?:enir|iene|ienen|enga|engan|ención|entivo|entiva|entivos|entivas|enido|enida)',
      'enfermedad(?:es)?|dolencias?|afecci(?:ón|ones)|infecci(?:ón|ones)|trastornos?|males|cáncer(?:es)?',
    ),
  ),
  claimWord('remedio', 'remedios?'),
  claimWord('terapéutico', 'terap[eé]utic(?:o|a|os|as)'),
  claimWord('desintoxicar', 'desintoxic\\p{L}*'),
  claimWord('medicinal (es)', 'medicinales'),
]

/**
 * The only sentences allowed to hold a claim word: disclaimers that deny what the words say.
 * Each is matched exactly, at the one place it is written, so neither a new claim nor a copy
 * elsewhere slips through. Keep it short; every entry must contain a negation and be in use.
 */
export const ALLOWED_DISCLAIMERS: readonly Text[] = [
  {
    where: 'client/features/info/locales/en.json#info.disclaimer.ritual',
    text: 'It does not diagnose, treat, cure or prevent any illness or condition.',
  },
  {
    where: 'client/features/info/locales/es.json#info.disclaimer.ritual',
    text: 'No diagnostica, no trata, no cura ni previene ninguna enfermedad o afección.',
  },
  {
    where: 'server/features/clients/guides.ts#aura.en.notice',
    text: 'Nothing in Harmonize diagnoses, treats, cures or prevents any illness or condition.',
  },
  {
    where: 'server/features/clients/guides.ts#chakra.en.notice',
    text: 'Nothing in Harmonize diagnoses, treats, cures or prevents any illness or condition.',
  },
  {
    where: 'server/features/clients/guides.ts#aura.es.notice',
    text: 'Nada en Harmonize diagnostica, trata, cura ni previene ninguna enfermedad o afección.',
  },
  {
    where: 'server/features/clients/guides.ts#chakra.es.notice',
    text: 'Nada en Harmonize diagnostica, trata, cura ni previene ninguna enfermedad o afección.',
  },
]

export const NEGATION =
  /(?<![\p{L}])(?:not|no|never|nothing|nor|ni|nunca|nada|ningún|ninguna|ninguno)(?![\p{L}])/iu

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Sentences, so an allowed disclaimer covers itself and not the text around it. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/)
    .map(normalise)
    .filter(Boolean)
}

/** Every claim word in `texts`, sentence by sentence, except the allowed disclaimers. */
export function findClaims(
  texts: readonly Text[],
  allowed: readonly Text[] = ALLOWED_DISCLAIMERS,
): Claim[] {
  const claims: Claim[] = []
  for (const { where, text } of texts) {
    for (const sentence of sentences(text)) {
      // A word can fit two stems ('cure' is English and Spanish): it is reported once.
      const words = new Set(
        CLAIM_WORDS.flatMap(({ pattern }) =>
          [...sentence.matchAll(pattern)].map((match) => match[0]),
        ),
      )
      if (words.size === 0) continue
      if (allowed.some((entry) => entry.where === where && entry.text === sentence)) continue
      for (const word of words) claims.push({ where, word, sentence })
    }
  }
  return claims
}

// ---- The texts users read ------------------------------------------------------------------

function flatten(tree: unknown, prefix: string): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]]
  if (typeof tree !== 'object' || tree === null) return []
  return Object.entries(tree).flatMap(([key, value]) =>
    flatten(value, prefix ? `${prefix}.${key}` : key),
  )
}

function catalogue(file: string): Text[] {
  const json: unknown = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'))
  return flatten(json, '').map(([key, text]) => ({ where: `${file}#${key}`, text }))
}

/** The app's catalogues and every feature's own (client/features/NAME/locales). */
export function localeTexts(): Text[] {
  const files = readdirSync(path.join(ROOT, 'client/locales'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => `client/locales/${name}`)
  for (const feature of readdirSync(path.join(ROOT, 'client/features'))) {
    const folder = `client/features/${feature}/locales`
    let names: string[] = []
    try {
      names = readdirSync(path.join(ROOT, folder))
    } catch {
      continue
    }
    files.push(...names.filter((name) => name.endsWith('.json')).map((name) => `${folder}/${name}`))
  }
  return files.flatMap(catalogue)
}

/**
 * Every string written in a source file: literals and template literals (with each hole shown
 * as `{}`). Reading the source rather than calling the templates means a template added
 * tomorrow is checked without anyone listing it here.
 */
export function sourceStrings(file: string): Text[] {
  const code = readFileSync(path.join(ROOT, file), 'utf8')
  const { program, errors } = parseSync(file, code)
  if (errors.length > 0) throw new Error(`${file} does not parse: ${errors[0]?.message}`)
  const lineStarts = [0]
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', at + 1)) {
    lineStarts.push(at + 1)
  }
  const lineOf = (offset: number) => {
    let line = 0
    while (line + 1 < lineStarts.length && (lineStarts[line + 1] ?? 0) <= offset) line += 1
    return line + 1
  }
  const found: Text[] = []
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (!node || typeof node !== 'object') return
    const current = node as Record<string, unknown> & { type?: unknown; start?: number }
    switch (current.type) {
      // Module names are not texts anyone reads.
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
        return
      case 'ExportNamedDeclaration':
        if (current.source) return
        break
      case 'ImportExpression':
        return
      case 'Literal':
        if (typeof current.value === 'string') {
          found.push({ where: `${file}:${lineOf(current.start ?? 0)}`, text: current.value })
        }
        return
      case 'TemplateLiteral': {
        const quasis = current.quasis as { value: { cooked: string | null; raw: string } }[]
        const text = quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join('{}')
        found.push({ where: `${file}:${lineOf(current.start ?? 0)}`, text })
        visit(current.expressions)
        return
      }
    }
    for (const [key, value] of Object.entries(current)) {
      if (key !== 'parent') visit(value)
    }
  }
  visit(program)
  return found
}

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`
    if (entry.isDirectory()) return sourceFiles(relative)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : []
  })
}

/**
 * The mail templates and every other server module that writes mail: a file named *mail*, or
 * any file under server/mail/ (the frame every message shares).
 */
export function mailTexts(): Text[] {
  return sourceFiles('server')
    .filter((file) => /mail/i.test(path.basename(file)) || file.startsWith('server/mail/'))
    .flatMap(sourceStrings)
}

/** The seeded panels and affirmations (db/seed), in both languages. */
export function seedTexts(): Text[] {
  const where = (what: string) => `db/seed/panels-content.ts#${what}`
  return [
    ...PANELS.flatMap((panel) =>
      LANGUAGES.flatMap((language) => [
        { where: where(`${panel.id}.name.${language}`), text: panel.name[language] },
        { where: where(`${panel.id}.description.${language}`), text: panel.description[language] },
        { where: where(`${panel.id}.info.${language}`), text: panel.info[language] },
        ...panel.ingredients[language].map((text, index) => ({
          where: where(`${panel.id}.ingredients.${language}.${index}`),
          text,
        })),
      ]),
    ),
    ...AFFIRMATIONS.flatMap((affirmation) =>
      LANGUAGES.map((language) => ({
        where: where(`${affirmation.id}.${language}`),
        text: affirmation.text[language],
      })),
    ),
  ]
}

function guideTexts(file: string, name: string, guide: GuideText): Text[] {
  const where = (what: string) => `${file}#${name}.${what}`
  return [
    { where: where('title'), text: guide.title },
    { where: where('subtitle'), text: guide.subtitle },
    { where: where('intro'), text: guide.intro },
    { where: where('notice'), text: `${guide.notice.heading}\n${guide.notice.text}` },
    ...guide.sections.flatMap((section, index) => [
      { where: where(`section${index}`), text: section.heading },
      ...section.blocks.flatMap((block) => {
        const items =
          block.kind === 'paragraph'
            ? [block.text]
            : block.kind === 'pairs'
              ? block.items.map((pair) => pair.join(': '))
              : block.items
        return items.map((text) => ({ where: where(`section${index}`), text }))
      }),
    ]),
  ]
}

/** The PDF guides: the How-To page's and the scan screens'. */
export function pdfGuideTexts(): Text[] {
  return LANGUAGES.flatMap((language) => [
    ...INFO_GUIDES.flatMap((guide) =>
      guideTexts(
        'server/features/info/guide-texts.ts',
        `${guide}.${language}`,
        infoGuideText(guide, language),
      ),
    ),
    ...GUIDES.flatMap((guide) =>
      guideTexts(
        'server/features/clients/guides.ts',
        `${guide}.${language}`,
        guideText(guide, language),
      ),
    ),
  ])
}

/** The messages both sides and the server show (domain/messages.ts, server/i18n.ts). */
export function messageTexts(): Text[] {
  return [
    ...Object.entries(MESSAGES).flatMap(([key, texts]) =>
      LANGUAGES.map((language) => ({
        where: `domain/messages.ts#${key}.${language}`,
        text: texts[language],
      })),
    ),
    ...sourceStrings('server/i18n.ts'),
  ]
}
