import { z } from 'zod/mini'
import type { MessageKey } from './messages'
import { multilineTextSchema, textSchema } from './text'

// Support mail (spec public flows §2 Send mail, §3 Support mail, §5, §9). Error messages are keys
// of domain/messages.ts; their texts name the limits below.

/** Spec §9: the support reply promise. */
export const SUPPORT_REPLY_HOURS = 24

/** A subject fits on one line of a mail client's list. */
export const SUPPORT_SUBJECT_MAX = 150
/** Room for a detailed report, but not for pasting whole documents through our mail server. */
export const SUPPORT_BODY_MAX = 5000

/** Support messages one user may send in an hour; each one mails the support team. */
export const SUPPORT_MAILS_PER_HOUR = 5

const required = (base: typeof textSchema, error: MessageKey, max: number, tooLong: MessageKey) =>
  z.pipe(
    base({ error }).check(z.trim()),
    z.string().check(z.minLength(1, { error }), z.maxLength(max, { error: tooLong })),
  )

/** What /send-mail sends: both fields are needed (spec §5), trimmed. */
export const supportMailRequestSchema = z.object({
  subject: required(
    textSchema,
    'support.subjectRequired',
    SUPPORT_SUBJECT_MAX,
    'support.subjectTooLong',
  ),
  body: required(
    multilineTextSchema,
    'support.bodyRequired',
    SUPPORT_BODY_MAX,
    'support.bodyTooLong',
  ),
})
export type SupportMailRequest = z.infer<typeof supportMailRequestSchema>

/** True when both fields hold something besides spaces: 'Send Mail' is enabled then. */
export function isSupportMailFilled(values: { subject: string; body: string }): boolean {
  return values.subject.trim() !== '' && values.body.trim() !== ''
}
