import { and, eq, isNull, or, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { accounts, users, verifications } from '../../../db/schema/auth'
import { billingCustomers, billingEvents } from '../../../db/schema/billing'
import { clientPhotos } from '../../../db/schema/clients'
import { dataExports } from '../../../db/schema/leaving'
import { mailOutbox } from '../../../db/schema/mail'
import type { Language } from '../../../domain/i18n'
import {
  type DeleteAccountRequest,
  isDeleteWord,
  KEPT_INVOICE_YEARS,
} from '../../../domain/leaving'
import { AppError } from '../../errors'
import { type AuthUser, type Caller, verifyPassword } from '../../plugins/auth'
import type { Queue } from '../../plugins/jobs'
import type { Rule } from '../../plugins/rate-limit'
import { ipKey, type SetCookies } from '../auth/public'
import { closeBillingForDeletion, keepInvoices, paymentWithBank } from '../billing/public'
import { accountDeletedEmail } from './mail'

// Deleting an account (docs/decisions/0036): after the password and the typed word, no new
// session can begin and every one ends; every plan ends at the provider; then, in one
// transaction, the invoices the law keeps are copied without the account, and every row of the
// member goes (the foreign keys cascade from the user); their files follow in a job.

const MINUTE = 60_000

/** It checks a password: as few tries as a password change allows. */
export const DELETIONS_PER_USER: Rule = { limit: 5, windowMs: 15 * MINUTE }
export const DELETIONS_PER_IP: Rule = { limit: 20, windowMs: 15 * MINUTE }

/** What the file clean-up job is given: the stored files of a deleted member. */
export interface ForgetFilesJob {
  keys: string[]
}

/** Why an account is blocked while it is being deleted, as the console would show it. */
const DELETING = 'Deleting the account at its owner’s request'

/**
 * Deletes the signed-in member's account once `password` is theirs and `word` is the
 * confirming word of `language` (the dialog's). Answers the cookies that sign this browser out.
 */
export async function deleteAccount(
  app: FastifyInstance,
  forgetFiles: Queue<ForgetFilesJob>,
  caller: Caller,
  user: AuthUser,
  input: DeleteAccountRequest,
  language: Language,
): Promise<SetCookies> {
  await app.rateLimiter.consume(`account-delete:${user.id}`, DELETIONS_PER_USER)
  await app.rateLimiter.consume(ipKey(caller, 'account-delete'), DELETIONS_PER_IP)
  if (!isDeleteWord(input.word, language)) throw new AppError(400, 'leaving.wrongWord')
  const [credential] = await app.db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, 'credential')))
  if (
    !credential?.hash ||
    !(await verifyPassword({ hash: credential.hash, password: input.password }))
  ) {
    throw new AppError(400, 'auth.currentPasswordIncorrect')
  }
  // Said before anyone is signed out: the usual reason to refuse, and a cheap one to check.
  if (await paymentWithBank(app.db, user.id)) throw new AppError(409, 'leaving.paymentInProgress')

  // From here no session can begin (the auth plugin refuses one to a blocked account), and
  // none of those there were goes on: nothing can be bought or changed while the account goes.
  // Taken by one request only: a second one at the same moment (a crafted double request) is
  // told the deletion is under way instead of failing on rows the first one removed. Only an
  // account nobody blocked: an operator's block (written an instant before, its sessions not
  // ended yet) is neither overwritten nor lifted by a deletion that then fails.
  const claimed = await app.db
    .update(users)
    .set({ blockedAt: new Date(), blockedReason: DELETING })
    .where(and(eq(users.id, user.id), isNull(users.blockedAt)))
    .returning({ id: users.id })
  if (claimed.length === 0) {
    const [row] = await app.db
      .select({ blockedAt: users.blockedAt, reason: users.blockedReason })
      .from(users)
      .where(eq(users.id, user.id))
    // The other deletion may have removed the row already.
    if (row?.blockedAt && row.reason !== DELETING) throw new AppError(403, 'auth.accountBlocked')
    throw new AppError(409, 'leaving.deletionUnderWay')
  }
  const { headers: signedOut } = await app.auth.api.signOut({
    headers: caller.headers,
    returnHeaders: true,
  })
  const { internalAdapter } = await app.auth.$context
  await internalAdapter.deleteUserSessions(user.id)

  try {
    await closeBillingForDeletion({ db: app.db, payments: app.payments }, user.id, () =>
      deleteRows(app, forgetFiles, user),
    )
  } catch (error) {
    // Nothing was deleted (the rows go in one transaction, after the plans ended): the account
    // is usable again, its owner signs in anew.
    await app.db
      .update(users)
      .set({ blockedAt: null, blockedReason: null })
      .where(and(eq(users.id, user.id), eq(users.blockedReason, DELETING)))
    throw error
  }
  return signedOut
}

async function deleteRows(
  app: FastifyInstance,
  forgetFiles: Queue<ForgetFilesJob>,
  user: AuthUser,
) {
  const [row] = await app.db
    .select({
      name: users.name,
      email: users.email,
      language: users.language,
      avatarKey: users.avatarKey,
    })
    .from(users)
    .where(eq(users.id, user.id))
  if (!row) return
  const language: Language = row.language === 'es' ? 'es' : 'en'
  await app.db.transaction(async () => {
    const db = app.db
    const kept = await keepInvoices(db, user.id)
    const photos = await db
      .select({ key: clientPhotos.storageKey })
      .from(clientPhotos)
      .where(eq(clientPhotos.userId, user.id))
    const exports = await db
      .select({ key: dataExports.storageKey })
      .from(dataExports)
      .where(eq(dataExports.userId, user.id))
    const [customer] = await db
      .select({ id: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, user.id))
    // What refers to the member without a foreign key: the provider's events about their
    // customer, one-time codes sent to their address, and the local outbox's copies of their mail.
    if (customer) await db.delete(billingEvents).where(eq(billingEvents.customerId, customer.id))
    // better-auth names a code `{purpose}-otp-{address}`, or `change-email-otp-{user id}:{new
    // address}`; exactly those, so no one else's address that merely contains this one is hit.
    const codeSuffix = `-otp-${row.email.toLowerCase()}`
    await db
      .delete(verifications)
      .where(
        or(
          sql`right(lower(${verifications.identifier}), ${codeSuffix.length}) = ${codeSuffix}`,
          sql`starts_with(${verifications.identifier}, ${`change-email-otp-${user.id}:`})`,
          eq(verifications.value, user.id),
        ),
      )
    // Mail still queued about the account (a billing notice names its member) is dropped when
    // its turn comes, the account being gone (plugins/mail.ts); the confirmation below names
    // none, so it goes.
    await db.delete(mailOutbox).where(eq(mailOutbox.to, row.email))
    // Every other row of theirs goes with this one (on delete cascade).
    await db.delete(users).where(eq(users.id, user.id))
    const keys = [
      ...photos.map((photo) => photo.key),
      ...exports.flatMap((file) => (file.key ? [file.key] : [])),
      ...(row.avatarKey ? [row.avatarKey] : []),
    ]
    if (keys.length > 0) await forgetFiles.send({ keys })
    await app.mailer.send({
      to: row.email,
      ...accountDeletedEmail({
        language,
        name: row.name,
        keptInvoices: kept,
        keptYears: KEPT_INVOICE_YEARS,
        supportEmail: app.config.SUPPORT_EMAIL,
      }),
    })
  })
}
