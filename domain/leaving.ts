import { z } from 'zod/mini'
import { existingPasswordSchema } from './auth'
import type { Language } from './i18n'

// Leaving with one's data: the export of everything kept about a member, and the deletion of
// their account (docs/decisions/0036-leaving-with-their-data.md).

/**
 * How many years an invoice of a deleted account is kept, counted from the end of the year it
 * was issued in: the longest period the tax and commercial laws we follow ask for (six years,
 * Spain's Código de Comercio art. 30). The privacy policy says the same in both languages.
 */
export const KEPT_INVOICE_YEARS = 6

/** How long a prepared export can be downloaded before its file is deleted. */
export const EXPORT_KEEP_DAYS = 7

/**
 * The steps an export goes through, in order; the page shows each as done or to come. A step's
 * index is what `step` counts: `step` steps are done.
 */
export const EXPORT_STEPS = ['account', 'sessions', 'clients', 'invoices', 'file'] as const
export type ExportStep = (typeof EXPORT_STEPS)[number]

export const EXPORT_STATUSES = ['preparing', 'ready', 'failed'] as const
export type ExportStatus = (typeof EXPORT_STATUSES)[number]

/**
 * The word the member types to confirm a deletion, in the language the dialog is shown in: an
 * account is never deleted by a stray click or an autofilled password alone.
 */
export const DELETE_WORDS: Record<Language, string> = { en: 'DELETE', es: 'ELIMINAR' }

/** Whether `typed` is the confirming word of `language` (spaces around and letter case aside). */
export const isDeleteWord = (typed: string, language: Language) =>
  typed.trim().toLocaleUpperCase(language) === DELETE_WORDS[language]

export const deleteAccountRequestSchema = z.object({
  password: existingPasswordSchema,
  word: z.string().check(z.maxLength(40)),
})
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>

/** The member's newest export as My Account shows it. */
export const dataExportSchema = z.object({
  id: z.string(),
  status: z.enum(EXPORT_STATUSES),
  /** How many of EXPORT_STEPS are done. */
  step: z.int(),
  createdAt: z.string(),
  /** When the file is deleted; null until it is ready. */
  expiresAt: z.nullable(z.string()),
  /** Bytes of the ZIP once it is ready. */
  size: z.nullable(z.number()),
  /** Where the ZIP is downloaded, once it is ready. */
  downloadUrl: z.nullable(z.string()),
})
export type DataExport = z.infer<typeof dataExportSchema>

export const dataExportStateSchema = z.object({ export: z.nullable(dataExportSchema) })
export type DataExportState = z.infer<typeof dataExportStateSchema>

export const dataExportPath = (id: string) => `/api/account/data-export/${id}/file`
