import { z } from 'zod/mini'
import { LANGUAGES } from './i18n'
import { tooLong } from './messages'
import { textSchema } from './text'

// Request and response contracts of signing up, in and out, and of the session. Error messages are keys of
// domain/messages.ts so server and forms show the same words.

/** Addresses are compared and stored trimmed and lower-cased. */
export const emailSchema = z.pipe(
  textSchema().check(z.trim(), z.toLowerCase(), z.maxLength(254, tooLong(254))),
  z.email({ error: 'validation.email' }),
)

/** The spec's hint, enforced: 8–128 characters with lower and upper letters, digits and symbols. */
export const newPasswordSchema = textSchema({ error: 'validation.passwordPolicy' }).check(
  z.minLength(8, { error: 'validation.passwordPolicy' }),
  z.maxLength(128, tooLong(128)),
  z.regex(/[a-z]/, { error: 'validation.passwordPolicy' }),
  z.regex(/[A-Z]/, { error: 'validation.passwordPolicy' }),
  z.regex(/\d/, { error: 'validation.passwordPolicy' }),
  z.regex(/[^A-Za-z0-9]/, { error: 'validation.passwordPolicy' }),
)

export const existingPasswordSchema = textSchema({ error: 'validation.passwordRequired' }).check(
  z.minLength(1, { error: 'validation.passwordRequired' }),
  z.maxLength(128, tooLong(128)),
)

export const fullNameSchema = textSchema({ error: 'validation.fullName' }).check(
  z.trim(),
  z.minLength(1, { error: 'validation.fullName' }),
  z.maxLength(120, tooLong(120)),
)

/**
 * How long a one-time code stays valid. The auth settings, the code e-mail and the How-To guide
 * all say it, so they read it from here.
 */
export const CODE_VALID_MINUTES = 10

export const otpCodeSchema = textSchema({ error: 'validation.code' }).check(
  z.trim(),
  z.regex(/^\d{6}$/, { error: 'validation.code' }),
)

/** The ALTCHA payload proving the human check passed; verified on the server. */
export const humanCheckSchema = textSchema({ error: 'validation.humanCheck' }).check(
  z.minLength(1, { error: 'validation.humanCheck' }),
  z.maxLength(8000),
)

export const signUpRequestSchema = z.object({
  name: fullNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  /** Invitation or access code from /signup/{code}. */
  code: z.optional(textSchema().check(z.trim(), z.maxLength(64, tooLong(64)))),
  language: z.optional(z.enum(LANGUAGES)),
  humanCheck: humanCheckSchema,
})
export type SignUpRequest = z.infer<typeof signUpRequestSchema>

export const confirmSignUpRequestSchema = z.object({ email: emailSchema, code: otpCodeSchema })

export const emailWithHumanCheckSchema = z.object({
  email: emailSchema,
  humanCheck: humanCheckSchema,
})

export const signInRequestSchema = z.object({
  email: emailSchema,
  password: existingPasswordSchema,
  rememberMe: z.optional(z.boolean()),
  humanCheck: humanCheckSchema,
})
export type SignInRequest = z.infer<typeof signInRequestSchema>

export const resetPasswordRequestSchema = z.object({
  email: emailSchema,
  code: otpCodeSchema,
  password: newPasswordSchema,
  humanCheck: humanCheckSchema,
})

export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  language: z.enum(LANGUAGES),
  /** ISO time of the newest avatar (also a cache key for its URL); null when none. */
  avatarUpdatedAt: z.nullable(z.string()),
  /**
   * Present for an operator, as they were when the session began: the menu offers the console
   * (which asks the database itself).
   */
  operator: z.optional(z.literal(true)),
})
export type SessionUser = z.infer<typeof sessionUserSchema>

/**
 * What the client learns about who is signed in; `user` is null for a visitor. For a member the
 * answer also brings their access (`sessionAnswerSchema` in domain/access-codes.ts), so a page
 * that needs both waits one round trip, not two. It is left unchecked here, where /login's first
 * render would carry its schema, and checked where it is used.
 */
export const sessionResponseSchema = z.object({
  user: z.nullable(sessionUserSchema),
  access: z.optional(z.unknown()),
})
export type SessionResponse = z.infer<typeof sessionResponseSchema>
