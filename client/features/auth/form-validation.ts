import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod/mini'
import { signInRequestSchema } from '../../../domain/auth'

// The sign-in form's validation, loaded apart from the page (client/lib/lazy-resolver.ts). The
// human check is a widget, not an input: its payload joins the values when they are sent.
export const signInFormResolver = zodResolver(z.omit(signInRequestSchema, { humanCheck: true }))
