import type { Language } from './i18n'

/**
 * Texts for the rules of the console's own forms (domain/operators.ts, domain/members.ts), as
 * domain/messages.ts holds them for the members' forms: apart, so that the pages members load
 * (whose shared chunk carries domain/messages.ts) do not carry the console's words.
 */
export const CONSOLE_MESSAGES = {
  'operators.codeFormat': {
    en: 'Enter the 6-digit code from your authenticator, or a recovery code.',
    es: 'Introduce el código de 6 cifras de tu autenticador, o un código de recuperación.',
  },
  'members.reasonRequired': {
    en: 'Say why, in a few words: the audit log keeps it.',
    es: 'Di por qué, en pocas palabras: el registro de auditoría lo guarda.',
  },
  'members.reasonOneLine': {
    en: 'Write the reason on one line, without tabs.',
    es: 'Escribe el motivo en una sola línea, sin tabulaciones.',
  },
  'members.reasonTooLong': {
    en: 'Keep the reason under 500 characters.',
    es: 'El motivo debe tener menos de 500 caracteres.',
  },
  'members.endsOnFormat': {
    en: 'Enter the last day as a date, for example 2027-01-31, or leave it empty.',
    es: 'Indica el último día como una fecha, por ejemplo 2027-01-31, o déjalo vacío.',
  },
  'members.refundAmount': {
    en: 'Enter an amount from $0.01 up to what is left to give back, such as 15 or 7.50.',
    es: 'Indica un importe desde 0,01 $ hasta lo que queda por devolver, como 15 o 7,50.',
  },
  'members.queryTooLong': {
    en: 'Search with fewer than 100 characters.',
    es: 'Busca con menos de 100 caracteres.',
  },
} as const satisfies Record<string, Record<Language, string>>

export type ConsoleMessageKey = keyof typeof CONSOLE_MESSAGES

export function isConsoleMessageKey(value: string): value is ConsoleMessageKey {
  return Object.hasOwn(CONSOLE_MESSAGES, value)
}

/** The text of a console message in a language. */
export function consoleMessageText(key: ConsoleMessageKey, language: Language): string {
  return CONSOLE_MESSAGES[key][language]
}
