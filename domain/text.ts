import { z } from 'zod/mini'

// Control characters have no place in anything a person types: NUL makes PostgreSQL refuse
// the text (an answer that differed between known and new addresses gave accounts away), and the
// others hide text or break lines in logs and mails. Every text field of every request goes
// through one of the two checks below. Tab, line feed and carriage return are allowed only in
// multi-line text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const FORBIDDEN_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const FORBIDDEN_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

/** True when `value` holds no control character (none at all, or none but line breaks and tabs). */
export function isCleanText(value: string, { multiline = false } = {}): boolean {
  return !(multiline ? FORBIDDEN_IN_TEXT : FORBIDDEN_IN_LINE).test(value)
}

/** The shared refinement for single-line fields. */
export const noControlCharacters = z.refine<string>((value) => isCleanText(value), {
  error: 'validation.controlCharacters',
})

/** The shared refinement for multi-line fields (messages, notes). */
export const noControlCharactersExceptLineBreaks = z.refine<string>(
  (value) => isCleanText(value, { multiline: true }),
  { error: 'validation.controlCharacters' },
)

/** A single-line text field. Add length and format checks after it. */
export const textSchema = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).check(noControlCharacters)

/** A multi-line text field. */
export const multilineTextSchema = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).check(noControlCharactersExceptLineBreaks)

/** PostgreSQL's `serial`: ids from 1 to 2^31 − 1. */
export const MAX_SERIAL_ID = 2_147_483_647

/**
 * A database id in a URL: decimal digits only (no sign, no `0x`, no exponent, no leading zero)
 * and within the column's range, so no id can reach the database and fail there.
 */
export const serialIdSchema = z.pipe(
  z.string({ error: 'validation.id' }).check(
    z.regex(/^[1-9]\d{0,9}$/, { error: 'validation.id', abort: true }),
    z.refine((value) => Number(value) <= MAX_SERIAL_ID, { error: 'validation.id' }),
  ),
  z.transform((value: string) => Number(value)),
)
