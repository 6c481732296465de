import ArrowLeft from 'lucide-react/icons/arrow-left'
import Scale from 'lucide-react/icons/scale'
import { useTranslation } from 'react-i18next'
import { ContactLine } from '../components/contact-line'
import { InfoArticle, InfoLink, InfoSection, Prose } from '../components/info-article'

const SECTIONS = [
  'account',
  'billing',
  'clients',
  'cookies',
  'use',
  'retention',
  'rights',
  'security',
  'children',
  'changes',
  'contact',
] as const

/**
 * /privacy-policy: our own policy, over what the service really keeps (spec scans §2 Privacy
 * Policy), with its last-updated date and 'Go Back' to /support.
 */
export function PrivacyPolicyPage() {
  const { t } = useTranslation()
  return (
    <InfoArticle
      heading={t('info.privacy.heading')}
      subline={t('info.common.lastUpdated', { date: t('info.privacy.updated') })}
      testId="privacy-page"
    >
      <Prose text={t('info.privacy.intro')} />
      {SECTIONS.map((section) => (
        <InfoSection key={section} heading={t(`info.privacy.sections.${section}.heading`)}>
          <Prose text={t(`info.privacy.sections.${section}.body`)} />
          {section === 'contact' && <ContactLine />}
        </InfoSection>
      ))}
      <div className="flex flex-wrap gap-3">
        <InfoLink to="/support">
          <ArrowLeft aria-hidden className="size-5" />
          {t('info.privacy.goBack')}
        </InfoLink>
        <InfoLink to="/terms-of-use">
          <Scale aria-hidden className="size-5" />
          {t('info.privacy.termsLink')}
        </InfoLink>
      </div>
    </InfoArticle>
  )
}
