import { z } from 'zod/mini'
import { LANGUAGES } from './i18n'

// The information pages' shared contract (spec core §2, scans §2 How-To): the guides the How-To
// page offers and the contact the privacy policy gives.

/** The documents of the How-To page, by the name in their address. */
export const INFO_GUIDES = ['sign-up', 'troubleshooting'] as const
export type InfoGuide = (typeof INFO_GUIDES)[number]

/** Where a guide is read: `?lang=` names the language the page was showing when it was opened. */
export const infoGuidePath = (guide: InfoGuide) => `/api/info/guides/${guide}`

export const infoGuideParamsSchema = z.object({ guide: z.enum(INFO_GUIDES) })
export const infoGuideQuerySchema = z.object({ lang: z.optional(z.enum(LANGUAGES)) })

/** Who answers questions about the service and about personal data (the SUPPORT_EMAIL setting). */
export const infoContactResponseSchema = z.object({ supportEmail: z.string() })
export type InfoContact = z.infer<typeof infoContactResponseSchema>
