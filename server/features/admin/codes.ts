import { z } from 'zod/mini'
import type { Database } from '../../../db/client'
import type { createCodesRequestSchema } from '../../../domain/access-codes'
import type { CodesQuery, codesPageSchema } from '../../../domain/operators'
import { createCodes, listCodesPage, revokeCode } from '../access/public'
import { type Actor, writeAudit } from './audit'
import { cursorOf, readCursor } from './cursor'

/** Codes a page of the console's list shows. */
export const CODE_PAGE_SIZE = 50

const cursorSchema = z.tuple([
  z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)),
  z.string().check(z.regex(/^[\w-]{1,64}$/)),
])

/** A page of codes, newest first, matching the search when there is one. */
export async function consoleCodes(
  db: Database,
  query: CodesQuery,
): Promise<z.infer<typeof codesPageSchema>> {
  const after = query.after ? readCursor(query.after, cursorSchema) : undefined
  const rows = await listCodesPage(db, {
    ...(query.q ? { q: query.q } : {}),
    ...(after ? { after: { at: after[0], code: after[1] } } : {}),
    limit: CODE_PAGE_SIZE,
  })
  const page = rows.slice(0, CODE_PAGE_SIZE)
  const last = page.at(-1)
  return {
    codes: page.map(({ cursorAt: _, ...code }) => code),
    next: rows.length > CODE_PAGE_SIZE && last ? cursorOf([last.cursorAt, last.code]) : null,
  }
}

// Access codes from the console: the access service the operator command's operations run
// (operator/operations.ts), with the same request schema, so the console and `npm run cli --
// codes …` never disagree; each change with the audit log's entry.

/** New codes, to copy and give out. */
export async function consoleCreateCodes(
  db: Database,
  actor: Actor,
  input: z.infer<typeof createCodesRequestSchema>,
): Promise<string[]> {
  const codes = await createCodes(db, input.count ?? 1, input.note)
  await writeAudit(db, actor, {
    action: 'codes.create',
    after: { count: codes.length, note: input.note ?? null },
  })
  return codes
}

/** Revokes a code: whoever redeemed it loses the access it gave. */
export async function consoleRevokeCode(
  db: Database,
  actor: Actor,
  code: string,
): Promise<boolean> {
  const revoked = await revokeCode(db, code)
  if (revoked) {
    await writeAudit(db, actor, {
      action: 'codes.revoke',
      before: { code, revoked: false },
      after: { code, revoked: true },
    })
  }
  return revoked
}
