import { useTranslation } from 'react-i18next'
import { InfoArticle, Prose } from '../components/info-article'
import { SolfeggioChart } from '../components/solfeggio-chart'

/** /solfeggio-frequencies: the nine tones, honestly told, and a chart of them (spec scans §2). */
export function SolfeggioPage() {
  const { t } = useTranslation()
  const [first = '', ...rest] = t('info.solfeggio.body').split(/\n{2,}/)
  return (
    <InfoArticle heading={t('info.solfeggio.heading')} testId="solfeggio-page">
      <Prose text={first} />
      <SolfeggioChart />
      <Prose text={rest.join('\n\n')} />
    </InfoArticle>
  )
}
