import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod/mini'
import { emailWithHumanCheckSchema, signInRequestSchema } from '../../../domain/auth'
import { ourZodMessages } from '../../../domain/messages'

// The validation of the forms with a human check (sign-in, and asking for a code by e-mail), loaded
// apart from their pages (client/lib/lazy-resolver.ts). The human check is a widget, not an
// input: its payload joins the values when they are sent.
export const signInFormResolver = zodResolver(
  z.omit(signInRequestSchema, { humanCheck: true }),
  ourZodMessages,
)
export const emailCodeFormResolver = zodResolver(
  z.omit(emailWithHumanCheckSchema, { humanCheck: true }),
  ourZodMessages,
)
