import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { redeemCodeRequestSchema } from './access-codes'
import { changePasswordRequestSchema, emailChangeRequestSchema } from './account'
import {
  emailWithHumanCheckSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signUpRequestSchema,
} from './auth'
import { billingInfoRequestSchema, payOnceRequestSchema } from './billing'
import { clientFormSchema } from './client-form'
import { scanRequestSchema } from './clients'
import { genericIssueMessage, resolveMessage } from './messages'
import { supportMailRequestSchema } from './support'

/** Every field of a member's form that has a maximum length, with that maximum. */
const LIMITED_FIELDS: [string, z.ZodMiniType, string, number][] = [
  ['sign-up', signUpRequestSchema, 'name', 120],
  ['sign-up', signUpRequestSchema, 'email', 254],
  ['sign-up', signUpRequestSchema, 'password', 128],
  ['sign-up', signUpRequestSchema, 'code', 64],
  ['sign-in', signInRequestSchema, 'email', 254],
  ['sign-in', signInRequestSchema, 'password', 128],
  ['forgot password', emailWithHumanCheckSchema, 'email', 254],
  ['reset password', resetPasswordRequestSchema, 'password', 128],
  ['change password', changePasswordRequestSchema, 'currentPassword', 128],
  ['change password', changePasswordRequestSchema, 'newPassword', 128],
  ['change e-mail', emailChangeRequestSchema, 'newEmail', 254],
  ['billing info', billingInfoRequestSchema, 'name', 120],
  ['billing info', billingInfoRequestSchema, 'email', 254],
  ['billing info', billingInfoRequestSchema, 'line1', 200],
  ['billing info', billingInfoRequestSchema, 'line2', 200],
  ['billing info', billingInfoRequestSchema, 'city', 100],
  ['billing info', billingInfoRequestSchema, 'state', 100],
  ['billing info', billingInfoRequestSchema, 'postalCode', 20],
  ['pay page', payOnceRequestSchema, 'receiptEmail', 254],
  ['client form', clientFormSchema, 'firstName', 100],
  ['client form', clientFormSchema, 'lastName', 100],
  ['client form', clientFormSchema, 'email', 254],
  ['client form', clientFormSchema, 'phone', 40],
  ['client form', clientFormSchema, 'affirmation', 500],
  ['scan', scanRequestSchema, 'signature', 500],
  ['support', supportMailRequestSchema, 'subject', 150],
  ['support', supportMailRequestSchema, 'body', 5000],
  ['redeem code', redeemCodeRequestSchema, 'code', 64],
]

/** The first message about `field` when it holds `value`, as a form would show it. */
function firstMessage(schema: z.ZodMiniType, field: string, value: string, language: 'en' | 'es') {
  const result = z.safeParse(schema, { [field]: value }, { error: genericIssueMessage })
  const issue = result.error?.issues.find((found) => found.path[0] === field)
  return issue ? resolveMessage(issue.message, language) : undefined
}

describe('a value that is too long', () => {
  it.each(LIMITED_FIELDS)(
    '%s: %s is told it is too long, and by how much',
    (_, schema, field, max) => {
      // Just past the limit, and shaped like an address where one is wanted, so the length is
      // the only thing wrong with it.
      const tooLong = field.toLowerCase().includes('email')
        ? `${'a'.repeat(max)}@x.es`
        : 'a'.repeat(max + 1)
      const limit = max.toLocaleString('es')
      expect(firstMessage(schema, field, tooLong, 'en')).toMatch(
        new RegExp(`(too long|up to).* ${max} characters`),
      )
      expect(firstMessage(schema, field, tooLong, 'es')).toMatch(
        new RegExp(`(demasiado largo|como máximo) .*${limit} caracteres`),
      )
      // At the limit, the length is not what is wrong.
      const atLimit = field.toLowerCase().includes('email')
        ? `${'a'.repeat(max - 5)}@x.es`
        : 'a'.repeat(max)
      expect(firstMessage(schema, field, atLimit, 'en') ?? '').not.toMatch(/too long|up to/)
    },
  )
})

describe('checks without a message of ours', () => {
  it('get one of ours in both languages, never zod’s English', () => {
    const schema = z.object({ plan: z.string(), count: z.number(), pick: z.enum(['a', 'b']) })
    const result = z.safeParse(schema, { count: 'x', pick: 'c' }, { error: genericIssueMessage })
    const messages = (language: 'en' | 'es') =>
      result.error?.issues.map((issue) => resolveMessage(issue.message, language))
    expect(messages('en')).toEqual([
      'This field is required.',
      'This value is not valid.',
      'This value is not valid.',
    ])
    expect(messages('es')).toEqual([
      'Este campo es obligatorio.',
      'Este valor no es válido.',
      'Este valor no es válido.',
    ])
  })

  it('leave text that is not one of our keys as it is (the server’s, already translated)', () => {
    expect(resolveMessage('Demasiados intentos.', 'es')).toBeUndefined()
    expect(resolveMessage('validation.tooLong:5000', 'es')).toBe(
      'Es demasiado largo: como máximo 5000 caracteres.',
    )
  })
})
