import FileText from 'lucide-react/icons/file-text'
import ShieldAlert from 'lucide-react/icons/shield-exclamation-point'
import { useTranslation } from 'react-i18next'
import { InfoArticle, InfoLink, Prose } from '../components/info-article'

/** /about: what Harmonize is (spec core §2), with the way to the privacy policy and terms. */
export function AboutPage() {
  const { t } = useTranslation()
  return (
    <InfoArticle heading={t('info.about.heading')} testId="about-page">
      <Prose text={t('info.about.body')} />
      <div className="flex flex-wrap gap-3">
        <InfoLink to="/privacy-policy">
          <FileText aria-hidden className="size-5" />
          {t('info.about.privacyLink')}
        </InfoLink>
        <InfoLink to="/disclaimer">
          <ShieldAlert aria-hidden className="size-5" />
          {t('info.about.disclaimerLink')}
        </InfoLink>
      </div>
    </InfoArticle>
  )
}
