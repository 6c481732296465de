import { z } from 'zod/mini'
import { emailSchema, existingPasswordSchema, newPasswordSchema, otpCodeSchema } from './auth'
import { LANGUAGES } from './i18n'

// Request contracts of My Account: password, e-mail address, language.

export const changePasswordRequestSchema = z.object({
  currentPassword: existingPasswordSchema,
  newPassword: newPasswordSchema,
})

export const emailChangeRequestSchema = z.object({ newEmail: emailSchema })
export const emailChangeConfirmSchema = z.object({ newEmail: emailSchema, code: otpCodeSchema })

export const languageRequestSchema = z.object({ language: z.enum(LANGUAGES) })
