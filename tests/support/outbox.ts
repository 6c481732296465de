import { and, asc, eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { mailOutbox } from '../../db/schema/mail'

// Mail leaves through the job queue, a moment after the request that caused it. These helpers
// wait for it in the local outbox (no SMTP_URL) instead of assuming it is already there. Plain
// polling, so Vitest and Playwright can both use them.

export type OutboxMessage = typeof mailOutbox.$inferSelect

/** Every message kept for `to`, oldest first. */
export async function outboxMessages(app: FastifyInstance, to: string): Promise<OutboxMessage[]> {
  return app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to)))
    .orderBy(asc(mailOutbox.id))
}

/** How many messages are kept in all. */
export async function outboxTotal(app: FastifyInstance): Promise<number> {
  const [row] = await app.db.select({ count: sql<number>`count(*)::int` }).from(mailOutbox)
  return Number(row?.count)
}

/**
 * Waits until `to` has more than `already` messages and returns the newest. Fails after
 * `timeoutMs` with what did arrive.
 */
export async function waitForOutboxMessage(
  app: FastifyInstance,
  to: string,
  { already = 0, timeoutMs = 15_000 } = {},
): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const messages = await outboxMessages(app, to)
    if (messages.length > already) return messages.at(-1) as OutboxMessage
    if (Date.now() > deadline) {
      throw new Error(
        `no new mail to ${to} within ${timeoutMs} ms (${messages.length} kept, expected more than ${already}); ${await jobsAbout(app, to)}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/**
 * The queue's jobs for an address, on one line: when a mail does not come, this says whether
 * its job waits, failed (and why) or never was.
 */
async function jobsAbout(app: FastifyInstance, address: string): Promise<string> {
  try {
    const { rows } = await app.database.executeSql(
      `select name, state, retry_count, start_after < now() as due, coalesce(output->>'message', output->'value'->>'message', output->>'value') as error
       from pgboss.job where $1 in (data->'data'->>'to', data->'data'->>'email') order by created_on`,
      [address],
    )
    if (rows.length === 0) return 'no job in the queue for that address'
    return `jobs: ${rows
      .map((row) => {
        const { name, state, retry_count, due, error } = row as Record<string, unknown>
        return `${name} ${state}${retry_count ? ` after ${retry_count} retries` : ''}${due ? '' : ' (not due yet)'}${error ? ` "${error}"` : ''}`
      })
      .join(', ')}`
  } catch (error) {
    return `the queue could not be read: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** The 6-digit code of the newest message to `to`, waiting for it as above. */
export async function waitForOutboxCode(
  app: FastifyInstance,
  to: string,
  options: { already?: number; timeoutMs?: number } = {},
): Promise<string> {
  const message = await waitForOutboxMessage(app, to, options)
  const code = message.text.match(/\b(\d{6})\b/)?.[1]
  if (!code) throw new Error(`the newest mail to ${to} holds no code: ${message.subject}`)
  return code
}

/** The mails to `to` whose subject starts with `subject`, once at least `count` of them are kept. */
export async function outboxMailsWith(
  app: FastifyInstance,
  to: string,
  subject: string,
  count = 1,
  timeoutMs = 30_000,
): Promise<OutboxMessage[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = (await outboxMessages(app, to)).filter((mail) => mail.subject.startsWith(subject))
    if (found.length >= count) return found
    if (Date.now() > deadline) {
      throw new Error(
        `${found.length} of ${count} mails to ${to} starting "${subject}"; ${await jobsAbout(app, to)}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
