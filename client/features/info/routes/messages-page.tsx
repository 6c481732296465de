import Droplets from 'lucide-react/icons/droplets'
import { useTranslation } from 'react-i18next'
import { InfoArticle, Prose } from '../components/info-article'

/** /messages: messages in water, told as a practice of attention and not as science. */
export function MessagesPage() {
  const { t } = useTranslation()
  return (
    <InfoArticle heading={t('info.messages.heading')} testId="messages-page">
      <Droplets aria-hidden className="size-10 text-brand-500" />
      <Prose text={t('info.messages.body')} />
    </InfoArticle>
  )
}
