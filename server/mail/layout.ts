import type { Language } from '../../domain/i18n'
import { escapeHtml } from '../html'

// What every message we send shares: the product's name, the greeting and sign-off, one
// e-mail-safe HTML column, and a text version built from the same blocks. The words of each
// message live with the feature that sends it (server/features/*/…mail….ts); this file imports
// no feature, so plugins and features alike may use it.

/** A message ready for the mailer: the same words as plain text and as HTML. */
export interface RenderedEmail {
  subject: string
  text: string
  html: string
}

export const PRODUCT = 'Harmonize'

// One list of blocks renders both bodies, so the text and HTML versions cannot drift apart.
export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; code: string }
  // What a person wrote, line breaks kept.
  | { kind: 'quote'; text: string }
  // A link on a line of its own: the address follows the words in the text version.
  | { kind: 'link'; text: string; href: string }

export interface Letter {
  language: Language
  subject: string
  name?: string | null
  blocks: Block[]
}

export const paragraph = (text: string): Block => ({ kind: 'paragraph', text })

const COMMON = {
  en: {
    greeting: (name?: string | null) => (name?.trim() ? `Hello ${name.trim()},` : 'Hello,'),
    signOff: ['Warm wishes,', `The ${PRODUCT} team`],
  },
  es: {
    greeting: (name?: string | null) => (name?.trim() ? `Hola, ${name.trim()}:` : 'Hola:'),
    signOff: ['Un saludo afectuoso,', `El equipo de ${PRODUCT}`],
  },
} as const satisfies Record<Language, unknown>

/** The letter in the shared frame, as text and as HTML, in the letter's language. */
export function renderLetter(letter: Letter): RenderedEmail {
  const { greeting, signOff } = COMMON[letter.language]
  const opening = greeting(letter.name)
  const text = [
    opening,
    ...letter.blocks.map((block) =>
      block.kind === 'code'
        ? block.code
        : block.kind === 'quote'
          ? quoted(block.text)
          : block.kind === 'link'
            ? `${block.text}\n${block.href}`
            : block.text,
    ),
    signOff.join('\n'),
  ].join('\n\n')
  return { subject: letter.subject, text: `${text}\n`, html: renderHtml(letter, opening, signOff) }
}

// Mail clients drop <style> blocks and many strip <html>, so every style is inline and the
// language is repeated on the wrapper. No tables: the layout is a single readable column.
export const MAIL_FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
export const PARAGRAPH_STYLE = 'margin: 0 0 16px 0;'
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
        : block.kind === 'link'
          ? `<p style="${PARAGRAPH_STYLE}"><a href="${escapeHtml(block.href)}" style="color: #4b3a8c; font-weight: bold;">${escapeHtml(block.text)}</a></p>`
          : `<p style="${PARAGRAPH_STYLE}">${escapeHtml(block.text)}</p>`,
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
    `<div lang="${lang}" style="max-width: 560px; margin: 0 auto; padding: 32px 24px; background-color: #ffffff; font-family: ${MAIL_FONT}; font-size: 16px; line-height: 1.5; color: #2b2540;">`,
    `<p style="margin: 0 0 24px 0; font-size: 20px; font-weight: bold; color: #4b3a8c;">${PRODUCT}</p>`,
    `<p style="${PARAGRAPH_STYLE}">${escapeHtml(opening)}</p>`,
    ...blocks,
    `<p style="margin: 24px 0 0 0;">${signOff.map(escapeHtml).join('<br>')}</p>`,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n')
}
