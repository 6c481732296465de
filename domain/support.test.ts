import { describe, expect, it } from 'vitest'
import { messageText } from './messages'
import {
  isSupportMailFilled,
  SUPPORT_BODY_MAX,
  SUPPORT_SUBJECT_MAX,
  supportMailRequestSchema,
} from './support'

const errorsOf = (value: unknown) =>
  supportMailRequestSchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? []

describe('supportMailRequestSchema', () => {
  it('trims both fields and keeps the line breaks of the message', () => {
    expect(
      supportMailRequestSchema.parse({ subject: '  Hi ', body: '\n Line 1\n\nLine 2 \n' }),
    ).toEqual({ subject: 'Hi', body: 'Line 1\n\nLine 2' })
  })

  it('needs both fields, with something besides spaces', () => {
    expect(errorsOf({ subject: ' ', body: '\n' })).toEqual([
      'support.subjectRequired',
      'support.bodyRequired',
    ])
    expect(errorsOf({})).toEqual(['support.subjectRequired', 'support.bodyRequired'])
  })

  it('takes each field up to its limit', () => {
    const longest = { subject: 'a'.repeat(SUPPORT_SUBJECT_MAX), body: 'b'.repeat(SUPPORT_BODY_MAX) }
    expect(errorsOf(longest)).toEqual([])
    expect(errorsOf({ subject: `${longest.subject}a`, body: `${longest.body}b` })).toEqual([
      'support.subjectTooLong',
      'support.bodyTooLong',
    ])
  })

  it('refuses a line break in the subject (a mail header) but not in the message', () => {
    expect(errorsOf({ subject: 'Hi\nBcc: x@example.com', body: 'a' })).toEqual([
      'validation.controlCharacters',
    ])
    expect(errorsOf({ subject: 'Hi', body: 'a\tb\r\nc' })).toEqual([])
    expect(errorsOf({ subject: 'Hi', body: 'a\u0000b' })).toEqual(['validation.controlCharacters'])
  })
})

describe('isSupportMailFilled', () => {
  it('is true only when both fields hold more than spaces', () => {
    expect(isSupportMailFilled({ subject: 'Hi', body: 'There' })).toBe(true)
    expect(isSupportMailFilled({ subject: 'Hi', body: '  ' })).toBe(false)
    expect(isSupportMailFilled({ subject: '', body: 'There' })).toBe(false)
  })
})

describe('the support messages', () => {
  it('name the limits they are about, in both languages', () => {
    for (const language of ['en', 'es'] as const) {
      expect(messageText('support.subjectTooLong', language)).toContain(String(SUPPORT_SUBJECT_MAX))
      expect(messageText('support.bodyTooLong', language)).toContain(String(SUPPORT_BODY_MAX))
    }
  })
})
