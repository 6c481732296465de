import FileText from 'lucide-react/icons/file-text'
import { useTranslation } from 'react-i18next'
import { ContactLine } from '../components/contact-line'
import { InfoArticle, InfoLink, InfoSection, Prose } from '../components/info-article'

const SECTIONS = [
  'service',
  'account',
  'plans',
  'codes',
  'use',
  'content',
  'availability',
  'liability',
  'ending',
  'changes',
  'law',
] as const

/** /terms-of-use: the terms of the service, written out (not the spec's filler text). */
export function TermsOfUsePage() {
  const { t } = useTranslation()
  return (
    <InfoArticle
      heading={t('info.terms.heading')}
      subline={t('info.common.lastUpdated', { date: t('info.terms.updated') })}
      testId="terms-page"
    >
      <Prose text={t('info.terms.intro')} />
      {SECTIONS.map((section) => (
        <InfoSection key={section} heading={t(`info.terms.sections.${section}.heading`)}>
          <Prose text={t(`info.terms.sections.${section}.body`)} />
          {section === 'law' && <ContactLine />}
        </InfoSection>
      ))}
      <InfoLink to="/privacy-policy">
        <FileText aria-hidden className="size-5" />
        {t('info.terms.privacyLink')}
      </InfoLink>
    </InfoArticle>
  )
}
