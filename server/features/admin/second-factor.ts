import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  randomUUID,
} from 'node:crypto'
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import type { Database } from '../../../db/client'
import {
  auditEntries,
  operatorFactors,
  operatorRecoveryCodes,
  sessionSecondFactors,
} from '../../../db/schema/admin'
import { accounts, users } from '../../../db/schema/auth'
import type { FactorStatus } from '../../../domain/operators'
import { AppError } from '../../errors'
import { verifyPassword } from '../../plugins/auth'

// The operator's second factor (ADR 0029): TOTP from an authenticator app, set up once and
// confirmed with a code, recovery codes for a lost phone, and a pass per session.

const ISSUER = 'Harmonize'
const PERIOD_SECONDS = 30
const RECOVERY_CODE_COUNT = 10
// 32 letters and digits without the look-alikes (0/O, 1/I): 5 bits each, 50 bits a code.
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** A pass lasts this long in a session, however long the session lasts (30 days). */
export const PASS_HOURS = 12
/** A set-up not confirmed within this long must be started again. */
const SET_UP_MINUTES = 15

/** The keys of the second factor, derived from AUTH_SECRET: one seals, one hashes. */
export interface FactorKeys {
  /** Seals the authenticators' secrets (AES-256-GCM). */
  seal: Buffer
  /** Keys the recovery codes' hashes (HMAC-SHA256): a copy of the database cannot test guesses. */
  codes: Buffer
}

export function factorKeys(authSecret: string): FactorKeys {
  const derive = (info: string) =>
    Buffer.from(hkdfSync('sha256', authSecret, 'harmonize', info, 32))
  return { seal: derive('operator-totp-secret'), codes: derive('operator-recovery-codes') }
}

function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return ['v1', iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.')
}

function unseal(key: Buffer, text: string): string {
  const [version, iv, tag, sealed] = text.split('.')
  if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('Unknown sealed secret')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([
    decipher.update(Buffer.from(sealed, 'base64url')),
    decipher.final(),
  ]).toString('utf8')
}

const totpOf = (secret: string, email: string) =>
  new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  })

/** The 30-second step a 6-digit code belongs to, one step either side of now; null if none. */
function stepOf(totp: TOTP, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = totp.validate({ token: code, window: 1 })
  return delta === null ? null : totp.counter() + delta
}

/** A recovery code as typed, without spaces, dashes or case. */
const normalCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase()
const hashCode = (keys: FactorKeys, code: string) =>
  createHmac('sha256', keys.codes).update(normalCode(code)).digest('hex')

/** The stored secret, or a refusal that says how to get back in: AUTH_SECRET changed since. */
function secretOf(keys: FactorKeys, sealed: string): string {
  try {
    return unseal(keys.seal, sealed)
  } catch {
    throw new AppError(409, 'operators.factorUnreadable')
  }
}

function newRecoveryCode(): string {
  const letters = Array.from(
    { length: 10 },
    () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
  )
  return `${letters.slice(0, 5).join('')}-${letters.slice(5).join('')}`
}

export interface FactorUser {
  id: string
  email: string
}

/** Where an account stands with the console in one session: the role is read afresh. */
export interface ConsoleState extends FactorStatus {
  operator: boolean
}

/** The account's role, its authenticator and this session's pass: one query. */
export async function consoleState(
  db: Database,
  userId: string,
  sessionId: string,
): Promise<ConsoleState> {
  const [row] = await db
    .select({
      role: users.role,
      confirmedAt: operatorFactors.confirmedAt,
      passedAt: sessionSecondFactors.passedAt,
    })
    .from(users)
    .leftJoin(operatorFactors, eq(operatorFactors.userId, users.id))
    .leftJoin(
      sessionSecondFactors,
      and(eq(sessionSecondFactors.userId, users.id), eq(sessionSecondFactors.sessionId, sessionId)),
    )
    .where(eq(users.id, userId))
  return {
    operator: row?.role === 'operator',
    enrolled: Boolean(row?.confirmedAt),
    passed: Boolean(row?.passedAt && isFresh(row.passedAt)),
  }
}

const isFresh = (passedAt: Date) => Date.now() - passedAt.getTime() < PASS_HOURS * 3_600_000

/**
 * A new authenticator key for `user`, waiting for a code from it, once their password says it
 * is them (a session alone, stolen, must not enrol its own phone). A set-up not confirmed yet is
 * replaced; a confirmed one stays (its owner enters a code instead).
 */
export async function startSetUp(
  db: Database,
  keys: FactorKeys,
  user: FactorUser,
  password: string,
): Promise<{ uri: string; secret: string }> {
  const [credential] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, 'credential')))
  if (!credential?.hash || !(await verifyPassword({ hash: credential.hash, password }))) {
    throw new AppError(400, 'auth.currentPasswordIncorrect')
  }
  const secret = new Secret({ size: 20 }).base32
  const sealed = seal(keys.seal, secret)
  const [written] = await db
    .insert(operatorFactors)
    .values({ userId: user.id, secret: sealed })
    .onConflictDoUpdate({
      target: operatorFactors.userId,
      set: { secret: sealed, lastStep: null, createdAt: new Date() },
      setWhere: isNull(operatorFactors.confirmedAt),
    })
    .returning({ userId: operatorFactors.userId })
  if (!written) throw new AppError(409, 'operators.factorEnrolled')
  return { uri: totpOf(secret, user.email).toString(), secret }
}

/**
 * Confirms the waiting set-up with a code from it: the factor counts from now, and is passed in
 * this session. Answers the recovery codes, which are shown once and kept only as hashes.
 */
export async function confirmSetUp(
  db: Database,
  keys: FactorKeys,
  user: FactorUser,
  sessionId: string,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  return db.transaction(async (tx) => {
    const [factor] = await tx
      .select()
      .from(operatorFactors)
      .where(eq(operatorFactors.userId, user.id))
      .for('update')
    if (factor?.confirmedAt) throw new AppError(409, 'operators.factorEnrolled')
    const started = factor?.createdAt.getTime() ?? 0
    if (!factor || Date.now() - started > SET_UP_MINUTES * 60_000) {
      throw new AppError(409, 'operators.noSetUp')
    }
    const step = stepOf(totpOf(secretOf(keys, factor.secret), user.email), code.trim())
    if (step === null) throw new AppError(400, 'operators.wrongCode')
    await tx
      .update(operatorFactors)
      .set({ confirmedAt: new Date(), lastStep: step })
      .where(eq(operatorFactors.userId, user.id))
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
    await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, user.id))
    await tx
      .insert(operatorRecoveryCodes)
      .values(recoveryCodes.map((one) => ({ userId: user.id, codeHash: hashCode(keys, one) })))
    await tx
      .insert(sessionSecondFactors)
      .values({ sessionId, userId: user.id })
      .onConflictDoNothing()
    await tx.insert(auditEntries).values({
      id: randomUUID(),
      actorId: user.id,
      actor: user.email,
      action: 'operators.second-factor-set-up',
      memberId: user.id,
      memberEmail: user.email,
      before: { enrolled: false },
      after: { enrolled: true },
    })
    return { recoveryCodes }
  })
}

/**
 * Passes the second factor for this session with the newest code of the authenticator (each
 * 30-second code works once) or an unused recovery code (which is then spent).
 */
export async function passSecondFactor(
  db: Database,
  keys: FactorKeys,
  user: FactorUser,
  sessionId: string,
  code: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [factor] = await tx
      .select()
      .from(operatorFactors)
      .where(eq(operatorFactors.userId, user.id))
    if (!factor?.confirmedAt) throw new AppError(409, 'operators.noFactor')
    const typed = code.trim()
    if (/^\d{6}$/.test(typed)) {
      const step = stepOf(totpOf(secretOf(keys, factor.secret), user.email), typed)
      if (step === null) throw new AppError(400, 'operators.wrongCode')
      // Only a step newer than the last one accepted: the same code twice is refused, even by
      // two requests at once.
      const [accepted] = await tx
        .update(operatorFactors)
        .set({ lastStep: step })
        .where(
          and(
            eq(operatorFactors.userId, user.id),
            or(isNull(operatorFactors.lastStep), lt(operatorFactors.lastStep, step)),
          ),
        )
        .returning({ userId: operatorFactors.userId })
      if (!accepted) throw new AppError(400, 'operators.wrongCode')
    } else {
      const [spent] = await tx
        .update(operatorRecoveryCodes)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(operatorRecoveryCodes.userId, user.id),
            eq(operatorRecoveryCodes.codeHash, hashCode(keys, typed)),
            isNull(operatorRecoveryCodes.usedAt),
          ),
        )
        .returning({ userId: operatorRecoveryCodes.userId })
      if (!spent) throw new AppError(400, 'operators.wrongCode')
      await tx.insert(auditEntries).values({
        id: randomUUID(),
        actorId: user.id,
        actor: user.email,
        action: 'operators.recovery-code-used',
        memberId: user.id,
        memberEmail: user.email,
      })
    }
    await tx
      .insert(sessionSecondFactors)
      .values({ sessionId, userId: user.id })
      .onConflictDoNothing()
  })
}
