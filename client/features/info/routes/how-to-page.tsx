import CircleHelp from 'lucide-react/icons/circle-question-mark'
import { useTranslation } from 'react-i18next'
import { GuideLinks } from '../components/guide-links'
import { InfoArticle, InfoLink, InfoSection, Prose } from '../components/info-article'
import { SessionDemo } from '../components/session-demo'

/**
 * /how-to: an introduction, a short demonstration of a session, and the 'Sign Up Guide' and
 * 'Trouble Shooting' documents (spec scans §2 How-To).
 */
export function HowToPage() {
  const { t } = useTranslation()
  return (
    <InfoArticle heading={t('info.howTo.heading')} testId="how-to-page">
      <Prose text={t('info.howTo.intro')} />
      <SessionDemo />
      <InfoSection heading={t('info.howTo.guidesHeading')}>
        <p className="text-slate-700">{t('info.howTo.guidesIntro')}</p>
        <GuideLinks />
      </InfoSection>
      <InfoLink to="/help">
        <CircleHelp aria-hidden className="size-5" />
        {t('info.howTo.moreHelp')}
      </InfoLink>
    </InfoArticle>
  )
}
