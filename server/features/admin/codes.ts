import type { z } from 'zod/mini'
import type { Database } from '../../../db/client'
import type { createCodesRequestSchema } from '../../../domain/access-codes'
import { createCodes, revokeCode } from '../access/public'
import { type Actor, writeAudit } from './audit'

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
