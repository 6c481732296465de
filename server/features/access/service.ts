import { randomInt } from 'node:crypto'
import { and, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { accessCodes } from '../../../db/schema/access'
import { users } from '../../../db/schema/auth'
import {
  type AccessFacts,
  displayedPaymentFlow,
  hasAccess,
  type PaymentFlow,
  type Standing,
  standingOf,
} from '../../../domain/access'
import {
  ACCESS_CODE_ALPHABET,
  type CodeStatus,
  normalizeAccessCode,
  type OperatorCode,
} from '../../../domain/access-codes'
import { AppError } from '../../errors'
import { accessFactsKey, cacheFor, invalidate, readThrough } from '../../plugins/cache'
import { paymentFactsFor, planStatusFor } from '../billing/public'
import { currentComplimentary } from './complimentary'

/**
 * The facts the access rule needs, from our own tables: access codes, and billing's plans and
 * one-time payments.
 */
export async function accessFactsFor(db: Database, userId: string): Promise<AccessFacts> {
  return (await readFacts(db, userId)).facts
}

/** The facts, with the complimentary grant in force (its end bounds how long they are kept). */
async function readFacts(db: Database, userId: string) {
  const complimentary = await currentComplimentary(db, userId)
  // Every code the user holds counts: one revoked code must not hide another still valid.
  const [codes] = await db
    .select({
      held: sql<number>`count(*)::int`,
      active: sql<number>`count(*) filter (where ${accessCodes.revokedAt} is null)::int`,
    })
    .from(accessCodes)
    .where(eq(accessCodes.redeemedBy, userId))
  const held = Number(codes?.held ?? 0)
  const facts: AccessFacts = {
    complimentary: complimentary !== null,
    code: held > 0 ? { status: Number(codes?.active) > 0 ? 'ACTIVE' : 'INACTIVE' } : null,
    subscriptionStatus: await planStatusFor(db, userId),
    paymentIntents: await paymentFactsFor(db, userId),
  }
  return { facts, complimentary }
}

/** How long an answer is kept at most; every change that affects it clears it at once. */
const ACCESS_CACHE_SECONDS = 10 * 60

/**
 * Whether the user may run sessions, and which payment story to show. Asked on every paid
 * request, so the answer is cached until a code or a payment changes it.
 */
export function accessOf(
  db: Database,
  userId: string,
): Promise<{ hasAccess: boolean; flow: PaymentFlow; standing: Standing }> {
  return readThrough(
    cacheFor(db),
    accessFactsKey(userId),
    // Complimentary access that ends on a date ends then, not up to ten minutes later.
    ({ until }) =>
      until
        ? Math.min(ACCESS_CACHE_SECONDS, Math.floor((Date.parse(until) - Date.now()) / 1000))
        : ACCESS_CACHE_SECONDS,
    async () => {
      const { facts, complimentary } = await readFacts(db, userId)
      return {
        hasAccess: hasAccess(facts),
        flow: displayedPaymentFlow(facts),
        standing: standingOf(facts),
        until: complimentary?.endsAt ?? null,
      }
    },
  ).then(({ hasAccess, flow, standing }) => ({ hasAccess, flow, standing }))
}

/** Called once a change to a user's codes or payments is committed. */
export function accessChanged(db: Database, userId: string): Promise<void> {
  return invalidate(cacheFor(db), accessFactsKey(userId))
}

/**
 * Gives the code to the user. A code serves one person; a revoked or unknown one is refused with
 * a message saying which. Redeeming the code one already holds is a no-op.
 */
export async function redeemCode(db: Database, userId: string, rawCode: string): Promise<void> {
  const code = normalizeAccessCode(rawCode)
  // The conditional update is the race guard: of two people redeeming at once, one wins.
  const [claimed] = await db
    .update(accessCodes)
    .set({ redeemedBy: userId, redeemedAt: new Date() })
    .where(
      and(
        eq(accessCodes.code, code),
        isNull(accessCodes.redeemedBy),
        isNull(accessCodes.revokedAt),
      ),
    )
    .returning({ code: accessCodes.code })
  if (claimed) {
    await accessChanged(db, userId)
    return
  }
  const [existing] = await db.select().from(accessCodes).where(eq(accessCodes.code, code))
  if (!existing) throw new AppError(400, 'access.codeUnknown')
  if (existing.revokedAt) throw new AppError(400, 'access.codeRevoked')
  if (existing.redeemedBy === userId) return
  throw new AppError(400, 'access.codeUsed')
}

/** What an invitation code is worth now, for the sign-up page to say before anyone registers. */
export async function checkCode(db: Database, rawCode: string): Promise<CodeStatus> {
  const [row] = await db
    .select({ redeemedBy: accessCodes.redeemedBy, revokedAt: accessCodes.revokedAt })
    .from(accessCodes)
    .where(eq(accessCodes.code, normalizeAccessCode(rawCode)))
  if (!row) return 'unknown'
  if (row.revokedAt) return 'revoked'
  return row.redeemedBy ? 'used' : 'available'
}

/**
 * After a sign-up is confirmed: the invitation code given at /signup/{code} counts when it is
 * a valid access code. Anything else about it is silently ignored (it may be a referral).
 */
export async function redeemSignupCode(db: Database, email: string): Promise<void> {
  const [user] = await db
    .select({ id: users.id, signupCode: users.signupCode })
    .from(users)
    .where(eq(users.email, email))
  if (!user?.signupCode) return
  try {
    await redeemCode(db, user.id, user.signupCode)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
  }
}

function newCode(): string {
  const part = () =>
    Array.from(
      { length: 4 },
      () => ACCESS_CODE_ALPHABET[randomInt(ACCESS_CODE_ALPHABET.length)],
    ).join('')
  return `HZ-${part()}-${part()}`
}

/** Creates `count` new codes (operator command). */
export async function createCodes(db: Database, count: number, note?: string): Promise<string[]> {
  const codes = new Set<string>()
  while (codes.size < count) codes.add(newCode())
  const rows = await db
    .insert(accessCodes)
    .values([...codes].map((code) => ({ code, note: note ?? null })))
    .onConflictDoNothing()
    .returning({ code: accessCodes.code })
  // 31^8 codes make a collision vanishingly rare; if one happens, top up.
  if (rows.length < count) {
    return [...rows.map((row) => row.code), ...(await createCodes(db, count - rows.length, note))]
  }
  return rows.map((row) => row.code)
}

const codeRow = ({
  code,
  email,
}: {
  code: typeof accessCodes.$inferSelect
  email: string | null
}) => ({
  code: code.code,
  note: code.note,
  createdAt: code.createdAt.toISOString(),
  status: code.revokedAt
    ? ('revoked' as const)
    : code.redeemedBy
      ? ('redeemed' as const)
      : ('available' as const),
  redeemedBy: email ?? null,
})

/** Every code with its state, newest first (operator command). */
export async function listCodes(db: Database): Promise<OperatorCode[]> {
  const rows = await db
    .select({ code: accessCodes, email: users.email })
    .from(accessCodes)
    .leftJoin(users, eq(users.id, accessCodes.redeemedBy))
    .orderBy(desc(accessCodes.createdAt), desc(accessCodes.code))
  return rows.map(codeRow)
}

/** `%`, `_` and `\` stand for themselves in a search, not for ILIKE's wildcards. */
const literal = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`)

/**
 * Up to `limit` codes, newest first, after the code `after` names (created at, code: keyset on
 * their index, so the thousandth page costs what the first does), optionally only those whose
 * code starts with `q` or whose note or redeemer's e-mail contains it. One more row is read than
 * asked, so the caller knows whether a page follows.
 */
export async function listCodesPage(
  db: Database,
  { q, after, limit }: { q?: string; after?: { at: string; code: string }; limit: number },
): Promise<(OperatorCode & { cursorAt: string })[]> {
  const conditions = []
  if (q) {
    conditions.push(
      or(
        ilike(accessCodes.code, `${literal(q)}%`),
        ilike(accessCodes.note, `%${literal(q)}%`),
        ilike(users.email, `%${literal(q)}%`),
      ),
    )
  }
  if (after) {
    conditions.push(
      sql`(${accessCodes.createdAt}, ${accessCodes.code}) < (${after.at}::timestamptz, ${after.code})`,
    )
  }
  const rows = await db
    .select({
      code: accessCodes,
      email: users.email,
      cursorAt: sql<string>`to_char(${accessCodes.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(accessCodes)
    .leftJoin(users, eq(users.id, accessCodes.redeemedBy))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(accessCodes.createdAt), desc(accessCodes.code))
    .limit(limit + 1)
  return rows.map((row) => ({ ...codeRow(row), cursorAt: row.cursorAt }))
}

/** Revokes a code; a user who redeemed it loses the access it gave. */
export async function revokeCode(db: Database, rawCode: string): Promise<boolean> {
  const rows = await db
    .update(accessCodes)
    .set({ revokedAt: new Date() })
    .where(and(eq(accessCodes.code, normalizeAccessCode(rawCode)), isNull(accessCodes.revokedAt)))
    .returning({ code: accessCodes.code, redeemedBy: accessCodes.redeemedBy })
  for (const row of rows) if (row.redeemedBy) await accessChanged(db, row.redeemedBy)
  return rows.length > 0
}
