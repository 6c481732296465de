import type { Language } from '../../../domain/i18n'
import type { InfoGuide } from '../../../domain/info'
import { guidePdfRenderer } from '../../pdf-guide'
import { infoGuideText } from './guide-texts'

// The How-To page's guides as PDFs, laid out by server/pdf-guide.ts like the scan guides.

/** The file name the browser offers for a guide, e.g. `harmonize-sign-up-guide.pdf`. */
export function infoGuideFileName(guide: InfoGuide, language: Language): string {
  return infoGuideText(guide, language).fileName
}

/**
 * A How-To guide as an A4 PDF in `language`, rendered on first use and then served from memory.
 * The same guide and language always give the same bytes.
 */
export const renderInfoGuidePdf = guidePdfRenderer<InfoGuide>(infoGuideText, {
  // 'Código de acceso' alone takes 90 points; the wider column keeps it clear of its description.
  pairNameWidth: 110,
})
