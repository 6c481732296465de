import type { z } from 'zod/mini'
import { AppError } from '../../errors'

// Where a page of a console list ends, as one opaque word: the last row's ordering values. Pages
// follow them (keyset), never an offset.

export const cursorOf = (parts: readonly string[]): string =>
  Buffer.from(JSON.stringify(parts)).toString('base64url')

/** The parts of a cursor this server made; anything else is a page that is no page (400). */
export function readCursor<T>(cursor: string, schema: z.ZodMiniType<T>): T {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw new AppError(400, 'operators.badCursor')
  }
  const parsed = schema.safeParse(decoded)
  if (!parsed.success) throw new AppError(400, 'operators.badCursor')
  return parsed.data
}
