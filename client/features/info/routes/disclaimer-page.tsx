import { useTranslation } from 'react-i18next'
import { InfoArticle, InfoSection, Prose } from '../components/info-article'

const SECTIONS = ['ritual', 'advice', 'scans', 'water', 'safety'] as const

/**
 * /disclaimer: a relaxation ritual that does not diagnose or treat, and scan readings that are
 * generated (spec scans §2, PRODUCT.md principle 3), in plain words.
 */
export function DisclaimerPage() {
  const { t } = useTranslation()
  return (
    <InfoArticle heading={t('info.disclaimer.heading')} testId="disclaimer-page">
      {SECTIONS.map((section) => (
        <InfoSection key={section} heading={t(`info.disclaimer.${section}Heading`)}>
          <Prose text={t(`info.disclaimer.${section}`)} />
        </InfoSection>
      ))}
    </InfoArticle>
  )
}
