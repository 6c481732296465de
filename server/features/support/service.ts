import type { FastifyInstance } from 'fastify'
import type { Database } from '../../../db/client'
import { supportMessages } from '../../../db/schema/support'
import {
  SUPPORT_MAILS_PER_HOUR,
  SUPPORT_REPLY_HOURS,
  type SupportMailRequest,
} from '../../../domain/support'
import type { AuthUser } from '../../plugins/auth'
import type { Mailer } from '../../plugins/mail'
import type { RateLimiter, Rule } from '../../plugins/rate-limit'
import { supportCopyEmail, supportRequestEmail } from './support-mail'

/** Per user: each message lands in a person's inbox, so a loop in a script must not flood it. */
export const SUPPORT_MAIL_LIMIT: Rule = { limit: SUPPORT_MAILS_PER_HOUR, windowMs: 60 * 60_000 }

/** What the support service works with; `supportDeps(app)` gives them. */
export interface SupportDeps {
  db: Database
  mailer: Mailer
  rateLimiter: RateLimiter
  /** SUPPORT_EMAIL: where members' messages go. */
  supportEmail: string
}

export function supportDeps(app: FastifyInstance): SupportDeps {
  return {
    db: app.db,
    mailer: app.mailer,
    rateLimiter: app.rateLimiter,
    supportEmail: app.config.SUPPORT_EMAIL,
  }
}

/**
 * Queues the member's message to the support team (Reply-To: the member) and the member's own
 * copy in their saved language. Both go through the mail queue, which retries for about two
 * days, so a mail server that is down loses nothing; the member is not kept waiting for it.
 */
export async function sendSupportMail(
  deps: SupportDeps,
  user: AuthUser,
  input: SupportMailRequest,
): Promise<void> {
  await deps.rateLimiter.consume(
    `support-mail:${user.id}`,
    SUPPORT_MAIL_LIMIT,
    'support.tooManyMails',
  )
  const request = supportRequestEmail({
    subject: input.subject,
    body: input.body,
    member: { id: user.id, name: user.name, email: user.email, language: user.language },
  })
  const copy = supportCopyEmail({
    language: user.language,
    name: user.name,
    subject: input.subject,
    body: input.body,
    replyHours: SUPPORT_REPLY_HOURS,
  })
  // One transaction: the member never gets a copy of a message the team did not get, and the
  // console keeps what was sent.
  await deps.db.transaction(async () => {
    await deps.db
      .insert(supportMessages)
      .values({ userId: user.id, subject: input.subject, body: input.body })
    await deps.mailer.send({
      to: deps.supportEmail,
      replyTo: { name: user.name, address: user.email },
      ...request,
    })
    await deps.mailer.send({
      to: user.email,
      replyTo: { name: 'Harmonize', address: deps.supportEmail },
      ...copy,
    })
  })
}
